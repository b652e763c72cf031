/**
 * `~/.claude/history.jsonl` (formats/home-artifacts.md §3.1): every prompt typed, `{display, pastedContents,
 * timestamp (ms), project, sessionId}`, older lines without `sessionId`. Claude Code's `cleanupPeriodDays` (30 days by
 * default) deletes old transcripts at start-up but not this file, so it outlives them; a pasted text is shown as
 * `[Pasted text #N +M lines]` and a slash command or a `!` shell line is no user message of the transcript.
 */
import { defineHomeCheck } from '../../../checks/define-home.js';
import { judgeHistory, recallHistory, type HistoryEntry, type HistoryRules } from '../../shared/prompt-history.js';

const FILE = 'history.jsonl';
/** `[Pasted text #1 +11 lines]`, `[Pasted text #2]`, `[Image #1]`: what the transcript holds in full instead. */
const PLACEHOLDER = /\[(?:Pasted text #\d+(?: \+\d+ lines)?|Image #\d+)\]/g;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function entry(v: unknown): HistoryEntry | undefined {
  if (!isObj(v) || typeof v.display !== 'string') return undefined;
  const e: HistoryEntry = { text: v.display };
  if (typeof v.sessionId === 'string') e.sessionId = v.sessionId;
  if (typeof v.timestamp === 'number' && Number.isFinite(v.timestamp)) e.timeMs = v.timestamp;
  if (typeof v.project === 'string') e.cwd = v.project;
  const t = v.display.trimStart();
  if (t.startsWith('/') || t.startsWith('!') || t === '') e.notPrompt = true;
  return e;
}

type Codes =
  | 'CLAUDE_HISTORY_SESSION_GONE'
  | 'CLAUDE_HISTORY_PROMPT_MISSING'
  | 'CLAUDE_HISTORY_LEGACY_LINES'
  | 'CLAUDE_HISTORY_TIME_FUTURE'
  | 'CLAUDE_HISTORY_UNREADABLE';

const RULES: HistoryRules<Codes> = {
  file: FILE,
  cleanupDays: 30,
  cleanup: "Claude Code's cleanupPeriodDays (30 days by default)",
  logNoun: 'transcript',
  codes: {
    gone: 'CLAUDE_HISTORY_SESSION_GONE',
    missing: 'CLAUDE_HISTORY_PROMPT_MISSING',
    legacy: 'CLAUDE_HISTORY_LEGACY_LINES',
    future: 'CLAUDE_HISTORY_TIME_FUTURE',
    unreadable: 'CLAUDE_HISTORY_UNREADABLE',
  },
  entry,
  fragments: (text) => text.split(PLACEHOLDER),
};

export const claudeHistory = defineHomeCheck({
  id: 'claude-history',
  codes: {
    CLAUDE_HISTORY_SESSION_GONE: {
      severity: 'warning',
      title: 'a session in the prompt history has no transcript',
      help:
        "~/.claude/history.jsonl holds prompts of a session whose transcript is not in the home's projects/. Claude " +
        "Code's cleanupPeriodDays (30 days by default) deletes old transcripts at start-up and never this file: a " +
        "session whose last prompt is older than that before the history's newest line is a note (the agent deleted " +
        'it); a newer one is a warning (deleted by hand or moved, or the copy of the home is partial: a history line ' +
        'cannot tell which). The finding says what the history still holds: how many prompts, their times, the ' +
        'project and the first prompt, cut short with every secret redacted.',
    },
    CLAUDE_HISTORY_PROMPT_MISSING: {
      severity: 'warning',
      title: 'a prompt in the prompt history is not in its transcript',
      help:
        'A prompt ~/.claude/history.jsonl records for a session whose transcript is in the home is not among the ' +
        "transcript's user messages (pasted texts and images compared by the text around them; slash commands and " +
        '! shell lines are not user messages and are not compared). Claude Code only appends to a transcript: it ' +
        'was cut or rewritten after the prompt was sent, or the prompt never reached it (the process died first).',
    },
    CLAUDE_HISTORY_LEGACY_LINES: {
      severity: 'note',
      title: 'prompt history lines that name no session',
      help:
        'Older Claude Code versions wrote history.jsonl lines without a sessionId: their prompts cannot be linked to ' +
        'a transcript, so they are counted and not judged.',
    },
    CLAUDE_HISTORY_TIME_FUTURE: {
      severity: 'warning',
      title: 'prompt history lines dated after the audit',
      help:
        "Lines of history.jsonl whose timestamp is more than a day after the audit's clock: a clock set wrong, or " +
        'lines written by hand. They are never taken as the newest time the history records (the ages of deleted ' +
        'sessions are measured against that), so a forged future line cannot make recent deletions look old.',
    },
    CLAUDE_HISTORY_UNREADABLE: {
      severity: 'note',
      title: 'prompt history lines that are not entries',
      help:
        'Lines of history.jsonl that do not parse, or are not objects with a display text: cut or damaged lines, or ' +
        'lines another program wrote. Claude Code skips them; what they held is not judged.',
    },
  },
  run(ctx) {
    if (ctx.source.entry(FILE)) judgeHistory(ctx, RULES);
  },
  recall(ctx, wanted, onEntry) {
    if (ctx.source.entry(FILE)) recallHistory(ctx, RULES, wanted, onEntry);
  },
});
