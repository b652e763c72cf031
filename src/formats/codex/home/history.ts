/**
 * `~/.codex/history.jsonl` (home-artifacts.md §2.3): `{session_id, ts (unix seconds), text}` per prompt sent from the
 * TUI, `conversation_id` in older builds. Nothing prunes it but `history.max_bytes` (its oldest lines), and Codex
 * deletes no rollout by itself: a session it knows whose rollout is gone was deleted by hand or moved, or the copy of
 * the home is partial.
 */
import { defineHomeCheck } from '../../../checks/define-home.js';
import { judgeHistory, recallHistory, type HistoryEntry, type HistoryRules } from '../../shared/prompt-history.js';

export const HISTORY = 'history.jsonl';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function entry(v: unknown): HistoryEntry | undefined {
  if (!isObj(v) || typeof v.text !== 'string') return undefined;
  const e: HistoryEntry = { text: v.text };
  const id = typeof v.session_id === 'string' ? v.session_id : v.conversation_id;
  if (typeof id === 'string') e.sessionId = id;
  if (typeof v.ts === 'number' && Number.isFinite(v.ts)) e.timeMs = v.ts * 1000;
  if (v.text.trimStart().startsWith('/') || v.text.trim() === '') e.notPrompt = true;
  return e;
}

type Codes =
  | 'CODEX_HISTORY_SESSION_GONE'
  | 'CODEX_HISTORY_PROMPT_MISSING'
  | 'CODEX_HISTORY_TIME_FUTURE'
  | 'CODEX_HISTORY_UNREADABLE';

const RULES: HistoryRules<Codes> = {
  file: HISTORY,
  cleanupDays: Number.POSITIVE_INFINITY,
  cleanup: 'any cleanup of its own (Codex deletes no rollout by itself)',
  logNoun: 'rollout',
  codes: {
    gone: 'CODEX_HISTORY_SESSION_GONE',
    missing: 'CODEX_HISTORY_PROMPT_MISSING',
    future: 'CODEX_HISTORY_TIME_FUTURE',
    unreadable: 'CODEX_HISTORY_UNREADABLE',
  },
  entry,
};

export const codexHistory = defineHomeCheck({
  id: 'codex-history',
  codes: {
    CODEX_HISTORY_SESSION_GONE: {
      severity: 'warning',
      title: 'a session in the prompt history has no rollout',
      help:
        '~/.codex/history.jsonl holds prompts of a session whose rollout is in neither sessions/ nor ' +
        'archived_sessions/ of the home. Codex deletes no rollout by itself and trims this file only from its oldest ' +
        'lines (history.max_bytes): the rollout was deleted by hand or moved, or the copy of the home is partial (a ' +
        'history line cannot tell which). The finding says what the history still holds: how many prompts, their ' +
        'times and the first prompt, cut short with every secret redacted.',
    },
    CODEX_HISTORY_PROMPT_MISSING: {
      severity: 'warning',
      title: 'a prompt in the prompt history is not in its rollout',
      help:
        "A prompt history.jsonl records for a session whose rollout is in the home is not among the rollout's user " +
        'messages. Codex only appends to a rollout: it was cut or rewritten after the prompt was sent, or the prompt ' +
        'never reached it.',
    },
    CODEX_HISTORY_TIME_FUTURE: {
      severity: 'warning',
      title: 'prompt history lines dated after the audit',
      help:
        "Lines of history.jsonl whose ts is more than a day after the audit's clock: a clock set wrong, or lines " +
        'written by hand. They are never taken as the newest time the history records.',
    },
    CODEX_HISTORY_UNREADABLE: {
      severity: 'note',
      title: 'prompt history lines that are not entries',
      help:
        'Lines of history.jsonl that do not parse, or hold no text: cut or damaged lines, or lines another program ' +
        'wrote. What they held is not judged.',
    },
  },
  run(ctx) {
    if (ctx.source.entry(HISTORY)) judgeHistory(ctx, RULES);
  },
  recall(ctx, wanted, onEntry) {
    if (ctx.source.entry(HISTORY)) recallHistory(ctx, RULES, wanted, onEntry);
  },
});
