/**
 * `sessions/<encoded-cwd>/prompt_history.jsonl` (home-artifacts.md §1.4): `{timestamp, session_id, prompt, is_bash}`
 * per human prompt sent in that cwd, the last 10,000 kept. Rewind and delete never touch it; the TTL walker deletes
 * session dirs older than 30 days. Its sessions live in sibling dirs of the same cwd group.
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import { judgeHistory, recallHistory, type HistoryEntry, type HistoryRules } from '../../shared/prompt-history.js';
import { COVERAGE_CODES, type CoverageCodes, judgeCoverage } from './history-coverage.js';
import { relocationOf } from './search-files.js';

export const PROMPT_HISTORY = 'sessions/*/prompt_history.jsonl';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function entry(v: unknown): HistoryEntry | undefined {
  if (!isObj(v) || typeof v.prompt !== 'string') return undefined;
  const e: HistoryEntry = { text: v.prompt };
  if (typeof v.session_id === 'string') e.sessionId = v.session_id;
  if (typeof v.timestamp === 'string') {
    const ms = Date.parse(v.timestamp);
    if (Number.isFinite(ms)) e.timeMs = ms;
  }
  if (v.is_bash === true || v.prompt.trim() === '') e.notPrompt = true;
  return e;
}

type Codes =
  | 'GROK_PROMPT_HISTORY_SESSION_GONE'
  | 'GROK_PROMPT_HISTORY_PROMPT_MISSING'
  | 'GROK_PROMPT_HISTORY_OTHER_GROUP'
  | 'GROK_PROMPT_HISTORY_TIME_FUTURE'
  | 'GROK_PROMPT_HISTORY_UNREADABLE'
  | CoverageCodes;

const rulesFor = (file: string): HistoryRules<Codes> => ({
  file,
  cleanupDays: 30,
  cleanup: "Grok Build's 30-day cleanup of stale sessions",
  logNoun: 'session log',
  codes: {
    gone: 'GROK_PROMPT_HISTORY_SESSION_GONE',
    missing: 'GROK_PROMPT_HISTORY_PROMPT_MISSING',
    future: 'GROK_PROMPT_HISTORY_TIME_FUTURE',
    unreadable: 'GROK_PROMPT_HISTORY_UNREADABLE',
  },
  entry,
});

const HISTORY_RE = /^sessions\/([^/]+)\/prompt_history\.jsonl$/;
const histories = (ctx: HomeCheckContext<Codes>): Array<{ file: string; group: string }> =>
  ctx.source.inventory.flatMap((e) => {
    const m = e.type === 'file' ? HISTORY_RE.exec(e.path) : null;
    return m ? [{ file: e.path, group: m[1]! }] : [];
  });

/** The judge's context for one history: a session moved out (a relocation journal) is graded as a note. */
function scoped(ctx: HomeCheckContext<Codes>): HomeCheckContext<Codes> {
  return {
    ...ctx,
    events: ctx.events,
    gone: ctx.gone,
    emit(code, location, message, opts) {
      const id = opts?.key;
      if (code === 'GROK_PROMPT_HISTORY_SESSION_GONE' && id !== undefined && ctx.source.entry(relocationOf(id))) {
        ctx.emit(code, location, `${message} A relocation journal ${relocationOf(id)} says it was moved.`, {
          ...opts,
          severity: 'note',
        });
        return;
      }
      ctx.emit(code, location, message, opts);
    },
  };
}

/** GPH-4: entries whose session dir exists, but only under another cwd group. */
function otherGroup(ctx: HomeCheckContext<Codes>, file: string, group: string): void {
  const seen = new Set<string>();
  ctx.source.streamJsonl(
    file,
    {},
    (r) => {
      const e = entry(r.value);
      const id = e?.sessionId;
      if (id === undefined || id === '' || seen.has(id)) return;
      seen.add(id);
      const found = ctx.sessions.get(id);
      if (!found?.length || found.some((s) => s.groupName === undefined || s.groupName === group)) return;
      ctx.emit(
        'GROK_PROMPT_HISTORY_OTHER_GROUP',
        { file, line: r.line, byteOffset: r.byteOffset, byteLength: r.byteLength },
        `session ${id}: ${file} holds its prompts, but its session dir is only under another cwd group ` +
          `(${found[0]!.groupName}): it was relocated to another cwd, the history staying where it was written.`,
        { key: id },
      );
    },
    () => {},
  );
}

export const grokPromptHistory = defineHomeCheck({
  id: 'grok-prompt-history',
  codes: {
    GROK_PROMPT_HISTORY_SESSION_GONE: {
      severity: 'warning',
      title: 'A session in a prompt history has no session dir.',
      help:
        'A prompt_history.jsonl of a cwd group holds prompts of a session whose dir is not in the home. Grok Build ' +
        'never prunes the history when a session is deleted: the 30-day cleanup of stale sessions removed it (a ' +
        'note, when its last prompt is older than 30 days before the newest line of the history), it was deleted ' +
        'with /delete or by hand, it was relocated to another cwd group (a relocation journal says so), or the copy ' +
        'of the home is partial. The finding says what the history still holds: how many prompts, their times and ' +
        'the first prompt, cut short with every secret redacted.',
    },
    GROK_PROMPT_HISTORY_PROMPT_MISSING: {
      severity: 'warning',
      title: 'A prompt in a prompt history is not in its session log.',
      help:
        'A human prompt that prompt_history.jsonl records for a session whose updates.jsonl is in the home is not ' +
        'among its user messages. Grok Build writes the history line before it handles the prompt and only appends ' +
        'to updates.jsonl: the log was cut or rewritten, or the prompt was rejected before it was persisted. Shell ' +
        'prompts (is_bash) are not looked for.',
    },
    GROK_PROMPT_HISTORY_OTHER_GROUP: {
      severity: 'note',
      title: 'A prompt history names a session that lives under another cwd group.',
      help:
        'The session a prompt_history.jsonl line names has no dir beside the history, but has one under another ' +
        'cwd group: the session was relocated (see relocations/), and the history stayed where it was written.',
    },
    GROK_PROMPT_HISTORY_TIME_FUTURE: {
      severity: 'warning',
      title: 'Prompt history lines are dated after the audit.',
      help:
        "Lines of a prompt_history.jsonl whose timestamp is more than a day after the audit's clock: a clock set " +
        'wrong, or lines written by hand. They are never taken as the newest time the history records.',
    },
    GROK_PROMPT_HISTORY_UNREADABLE: {
      severity: 'note',
      title: 'Prompt history lines are not entries.',
      help:
        'Lines of a prompt_history.jsonl that do not parse or hold no prompt: cut or damaged lines, or lines another ' +
        'program wrote. Grok Build drops such lines at its next truncation; what they held is not judged.',
    },
    ...COVERAGE_CODES,
  },
  run(ctx) {
    for (const { file, group } of histories(ctx)) {
      judgeHistory(scoped(ctx), rulesFor(file));
      otherGroup(ctx, file, group);
      judgeCoverage(ctx, file, group);
    }
  },
  recall(ctx, wanted, onEntry) {
    for (const { file } of histories(ctx)) recallHistory(ctx, rulesFor(file), wanted, onEntry);
  },
});
