/**
 * The Grok home corpora for the per-cwd prompt history and the crash registry (home-artifacts.md §1.2, §1.4): the
 * clean Grok tree inside a `.grok` home beside `sessions/<cwd>/prompt_history.jsonl` holding every human prompt of
 * the top session (and a shell prompt), which must stay clean; and one case per finding.
 */
import type { Case, Files } from './case-kit.js';
import { type HistoryLine, cleanTree, historyOf } from './clean-root.js';
import { PLANTED } from './secrets.js';

export const GROUP = '.grok/sessions/%2Fhome%2Fdev%2Fproj';
export const HISTORY = `${GROUP}/prompt_history.jsonl`;
export const ACTIVE = '.grok/active_sessions.json';
const TOP = '019a3f2c-1d00-7a3e-8000-00000000a001';
const FORK = '019a3f6b-8e40-7b11-8000-00000000a002';

const iso = (ms: number): string => new Date(ms).toISOString();

export interface GrokHomeParts {
  tree: Files;
  history: HistoryLine[];
}

export function grokHomeParts(): GrokHomeParts {
  const tree: Files = new Map();
  const clean = cleanTree().files;
  for (const [p, c] of clean) tree.set(`.grok/${p}`, c);
  const history = historyOf(clean);
  const last = Date.parse(history[history.length - 1]!.timestamp);
  history.push({ timestamp: iso(last + 5000), session_id: TOP, prompt: 'git status', is_bash: true });
  return { tree, history };
}

export const historyText = (lines: readonly HistoryLine[]): string =>
  lines.map((l) => `${JSON.stringify(l)}\n`).join('');

export function renderGrokHome(h: GrokHomeParts): Files {
  const out: Files = new Map(h.tree);
  out.set(HISTORY, historyText(h.history));
  return out;
}

/** The latest time any line of the tree records (seconds in `timestamp`), in ms. */
function latest(tree: Files): number {
  let max = 0;
  for (const [p, c] of tree)
    if (p.endsWith('updates.jsonl'))
      for (const m of String(c).matchAll(/"timestamp":(\d+)/g)) max = Math.max(max, Number(m[1]) * 1000);
  return max;
}

/** The top session's log cut right after its last tool call (no result, no turn end). */
function cutMidTurn(updates: string): string {
  const lines = updates.split('\n').filter(Boolean);
  const i = lines.findLastIndex((l) => l.includes('"sessionUpdate":"tool_call"'));
  return `${lines.slice(0, i + 1).join('\n')}\n`;
}

const gone = (n: number): string => `019a3000-0000-7000-8000-00000000c0${String(n).padStart(2, '0')}`;

function homeCase(
  name: string,
  description: string,
  must: string[],
  edit: (h: GrokHomeParts) => Files,
  allow?: string[],
): Case {
  return { name, description, must, files: edit(grokHomeParts()), ...(allow ? { allow } : {}) };
}

export function grokHomeCases(): Case[] {
  return [
    homeCase(
      'home-prompt-history-clean',
      'A clean ~/.grok home: the clean sessions beside their cwd group prompt_history.jsonl, holding every human ' +
        'prompt of the top session and a shell prompt (is_bash) its log does not hold. No home code fires.',
      [],
      (h) => renderGrokHome(h),
    ),
    homeCase(
      'home-prompt-history-gone',
      'The prompt history holds prompts of two sessions whose dirs are gone: one older than the 30-day TTL before ' +
        'the newest line (a note), one within it (a warning: deleted by hand); the newer holds a key, redacted ' +
        '(and reported as SECRET_IN_HOME: the history keeps it).',
      ['GROK_PROMPT_HISTORY_SESSION_GONE', 'SECRET_IN_HOME'],
      (h) => {
        const first = Date.parse(h.history[0]!.timestamp);
        h.history.unshift(
          { timestamp: iso(first - 60 * 86_400_000), session_id: gone(1), prompt: 'Bump the lockfile.' },
          {
            timestamp: iso(first - 2 * 86_400_000),
            session_id: gone(2),
            prompt: `Deploy with ${PLANTED['api-key']!} now.`,
            is_bash: false,
          },
        );
        return renderGrokHome(h);
      },
    ),
    homeCase(
      'home-prompt-history-missing',
      'The prompt history holds a prompt of the top session that its updates.jsonl lacks: the log was cut or ' +
        'rewritten after the prompt was sent.',
      ['GROK_PROMPT_HISTORY_PROMPT_MISSING'],
      (h) => {
        h.history.splice(1, 0, {
          timestamp: h.history[0]!.timestamp,
          session_id: TOP,
          prompt: 'Also delete the old migration scripts.',
          is_bash: false,
        });
        return renderGrokHome(h);
      },
    ),
    homeCase(
      'home-active-crash',
      'active_sessions.json holds the top session, whose updates.jsonl ends with a tool call without its result ' +
        '(an unclean end), and a session with no dir; active_sessions.json.tmp was left beside it.',
      ['GROK_ACTIVE_SESSION_UNCLEAN_END', 'GROK_ACTIVE_SESSION_GONE', 'GROK_ACTIVE_SESSION_STRAY_TMP'],
      (h) => {
        const files = renderGrokHome(h);
        const opened = iso(latest(files) + 60_000);
        const log = `${GROUP}/${TOP}/updates.jsonl`;
        files.set(log, cutMidTurn(String(files.get(log))));
        const entries = [
          { session_id: TOP, pid: 48213, cwd: '/home/dev/proj', opened_at: opened },
          { session_id: gone(3), pid: 48300, cwd: '/home/dev/proj', opened_at: opened },
        ];
        files.set(ACTIVE, `${JSON.stringify(entries, null, 2)}\n`);
        files.set(`${ACTIVE}.tmp`, `${JSON.stringify(entries.slice(0, 1), null, 2)}\n`);
        return files;
      },
      // The cut log itself: its tool call has no result and its message count disagrees with the summary.
      ['TOOL_NO_TERMINAL_STATUS', 'XREF_MESSAGE_COUNT'],
    ),
    homeCase(
      'home-active-not-reaped',
      'active_sessions.json holds the top session, whose log ends cleanly, opened before the fork started: the TUI ' +
        'never unregistered it and the later launch did not reap it (headless, a reused PID or a held lock).',
      ['GROK_ACTIVE_SESSION_OPEN', 'GROK_ACTIVE_SESSION_NOT_REAPED'],
      (h) => {
        const files = renderGrokHome(h);
        const opened = h.history[0]!.timestamp;
        files.set(
          ACTIVE,
          `${JSON.stringify([{ session_id: TOP, pid: 48213, cwd: '/home/dev/proj', opened_at: opened }])}\n`,
        );
        return files;
      },
    ),
    homeCase(
      'home-prompt-history-log-prompt-absent',
      "The top session's second prompt is in its log but in no line of the cwd's prompt history, which began " +
        'before it: the history was cut or edited by hand, or the write failed (GPH-3, a note).',
      ['GROK_PROMPT_HISTORY_LOG_PROMPT_ABSENT'],
      (h) => {
        const second = h.history.filter((l) => l.session_id === TOP && !l.is_bash)[1]!;
        h.history = h.history.filter((l) => l !== second);
        return renderGrokHome(h);
      },
    ),
    homeCase(
      'home-prompt-history-time-order',
      'Two lines of the prompt history are in the wrong time order (the second dated before the first): two Grok ' +
        'processes appending at once, or clocks that differ (GPH-5, a note).',
      ['GROK_PROMPT_HISTORY_TIME_ORDER'],
      (h) => {
        [h.history[1], h.history[2]] = [h.history[2]!, h.history[1]!];
        return renderGrokHome(h);
      },
    ),
    homeCase(
      'home-prompt-history-other-group',
      "A second cwd group holds only a prompt_history.jsonl with the top session's prompts: the session was " +
        'relocated to another cwd, the history staying where it was written.',
      ['GROK_PROMPT_HISTORY_OTHER_GROUP'],
      (h) => {
        const files = renderGrokHome(h);
        files.set('.grok/sessions/%2Fhome%2Fdev%2Fold-proj/prompt_history.jsonl', historyText(h.history.slice(0, 1)));
        return files;
      },
    ),
    homeCase(
      'home-prompt-history-damaged',
      'The prompt history holds a line that is not an entry (no prompt) and a prompt of the top session dated ' +
        'years after the audit: a clock set wrong or a forged line.',
      ['GROK_PROMPT_HISTORY_UNREADABLE', 'GROK_PROMPT_HISTORY_TIME_FUTURE'],
      (h) => {
        const files = renderGrokHome(h);
        const text = historyText(h.history);
        const odd = `${JSON.stringify({ timestamp: h.history[0]!.timestamp, session_id: TOP })}\n`;
        const future = historyText([{ ...h.history[0]!, timestamp: '2099-01-01T00:00:00.000000Z' }]);
        files.set(HISTORY, `${odd}${text}${future}`);
        return files;
      },
    ),
    homeCase(
      'home-active-damaged',
      'active_sessions.json is torn mid-entry (not a JSON array of sessions): Grok would read it as empty and ' +
        'overwrite it.',
      ['GROK_ACTIVE_SESSION_UNREADABLE'],
      (h) => {
        const files = renderGrokHome(h);
        files.set(ACTIVE, `[\n  {\n    "session_id": "${FORK}",\n    "pid": 4821`);
        return files;
      },
    ),
  ];
}
