/**
 * `~/.gemini/tmp/<project>/logs.json` (formats/gemini-cli.md §1.3, anomalies 26, 27, 31): Gemini CLI's `Logger`
 * writes every line the user types in an interactive session, slash commands and shell lines included, before it
 * handles it: `{sessionId, messageId, timestamp, type: "user", message}`. Nothing deletes entries when a session is
 * deleted (the retention cleanup, `--delete-session`, `/exit --delete`), so it outlives the session files of its
 * project dir. Judged by the shared prompt-history judge, per project dir; the `.bak` quarantines the CLI leaves when
 * it could not read the file are said.
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import type { FoundSession } from '../../../model/found.js';
import type { JsonlRecord } from '../../../model/records.js';
import { judgeHistory, recallHistory, type HistoryEntry, type HistoryRules } from '../../shared/prompt-history.js';
import { GEMINI_LOGS_CODES, type LogsCode } from './logs-codes.js';
import { LOGS_MAX_BYTES, readLogs, type LogsRead } from './logs-json.js';

/**
 * The project dir's `shell_history` is read with its logs.json (lines of shell mode are logged without their `!`);
 * its `.project_root` is not: every Gemini home has one, which would make each a home to report with nothing in it.
 */
export const LOGS_FILES = ['tmp/*/logs.json', 'tmp/*/logs.json.*.bak', 'tmp/*/shell_history'];
const LOGS_RE = /^tmp\/([^/]+)\/logs\.json$/;
const BAK_RE = /^tmp\/([^/]+)\/logs\.json\.(.+)\.bak$/;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** A line the CLI handles itself and never records as the user's message: a command, a help key, a shell line. */
const isCommand = (text: string, shell: ReadonlySet<string>): boolean => {
  const t = text.trim();
  return t === '' || t.startsWith('/') || t.startsWith('!') || t.startsWith('?') || shell.has(norm(t));
};

/** An entry as the CLI's reader keeps it (`logger.ts`: the five fields of their types), else undefined. */
function entryOf(v: unknown, shell: ReadonlySet<string>): HistoryEntry | undefined {
  if (!isObj(v)) return undefined;
  const { sessionId, messageId, timestamp, type, message } = v;
  if (typeof sessionId !== 'string' || typeof messageId !== 'number' || typeof timestamp !== 'string') return undefined;
  if (typeof type !== 'string' || typeof message !== 'string') return undefined;
  const e: HistoryEntry = { sessionId, text: message };
  const ms = Date.parse(timestamp);
  if (Number.isFinite(ms)) e.timeMs = ms;
  if (type !== 'user' || isCommand(message, shell)) e.notPrompt = true;
  return e;
}

/** A small text file of the project dir (its `shell_history`), if it is there. */
function small(ctx: HomeCheckContext<LogsCode>, rel: string): string | undefined {
  if (!ctx.source.entry(rel)) return undefined;
  const r = ctx.source.readFile(rel, 1 << 20);
  return r.ok ? r.value.bytes.toString('utf8') : undefined;
}

interface Logs {
  file: string;
  project: string;
  read: LogsRead;
  rules: HistoryRules<LogsCode>;
}

function logsOf(
  ctx: HomeCheckContext<LogsCode>,
  file: string,
  project: string,
): Logs | { file: string; error: string } {
  const r = readLogs(ctx.source, file);
  if (!r.ok) return { file, error: r.error };
  const shellText = small(ctx, `tmp/${project}/shell_history`);
  const shell = new Set(
    (shellText ?? '')
      .split(/\r?\n/)
      .map(norm)
      .filter((l) => l !== ''),
  );
  const records = r.value.records;
  const rules: HistoryRules<LogsCode> = {
    file,
    cleanupDays: 30,
    cleanup: "Gemini CLI's retention cleanup (general.sessionRetention, on with 30 days by default since v0.33)",
    logNoun: 'session file',
    codes: {
      gone: 'GEMINI_LOGS_SESSION_GONE',
      missing: 'GEMINI_LOGS_PROMPT_MISSING',
      future: 'GEMINI_LOGS_TIME_FUTURE',
      unreadable: 'GEMINI_LOGS_BAD_ENTRIES',
    },
    entry: (v) => entryOf(v, shell),
    // A prompt naming files (`@src/a.ts`) is sent with their contents: the text around the references is looked for.
    fragments: (text) => text.split(/(?:^|\s)@\S+/),
    records(onRecord: (r: JsonlRecord) => void): boolean {
      for (const rec of records) onRecord(rec);
      return true;
    },
  };
  return { file, project, read: r.value, rules };
}

function allLogs(ctx: HomeCheckContext<LogsCode>): Array<Logs | { file: string; error: string }> {
  return ctx.source.inventory.flatMap((e) => {
    const m = e.type === 'file' ? LOGS_RE.exec(e.path) : null;
    return m ? [logsOf(ctx, e.path, m[1]!)] : [];
  });
}

/** The project dir a session of the home sits in (`tmp/<project>/chats/…`). */
function projectOf(ctx: HomeCheckContext<LogsCode>, s: FoundSession): string | undefined {
  const base = `${ctx.home.abs}/`;
  if (!s.abs.startsWith(base)) return undefined;
  return /^tmp\/([^/]+)(?:\/|$)/.exec(s.abs.slice(base.length))?.[1];
}

/** Sessions whose every entry is a command (or a shell line): the CLI keeps no such session. */
function commandOnly(logs: Logs): Set<string> {
  const prompts = new Map<string, boolean>();
  for (const r of logs.read.records) {
    const e = logs.rules.entry(r.value);
    if (!e?.sessionId) continue;
    prompts.set(e.sessionId, (prompts.get(e.sessionId) ?? false) || !e.notPrompt);
  }
  return new Set([...prompts].filter(([, any]) => !any).map(([id]) => id));
}

/** The judge's context for one logs.json: a gone session that held only commands is graded as a note. */
function scoped(ctx: HomeCheckContext<LogsCode>, commands: ReadonlySet<string>): HomeCheckContext<LogsCode> {
  return {
    ...ctx,
    emit(code, location, message, opts) {
      const id = opts?.key;
      if (code === 'GEMINI_LOGS_SESSION_GONE' && id !== undefined && commands.has(id)) {
        // The judge's grading by age is replaced: such a session is deleted whatever its age.
        const cut = message.search(/ (?:Its last prompt is|The history gives no time)/);
        ctx.emit(
          code,
          location,
          `${cut < 0 ? message : message.slice(0, cut)} Every entry of it is a command or a shell line, which the ` +
            'CLI never records as a message: it deletes a session with nothing resumable at exit (v0.47+) and in ' +
            'the cleanup at its next start.',
          { ...opts, severity: 'note' },
        );
        return;
      }
      ctx.emit(code, location, message, opts);
    },
  };
}

function wholeFile(ctx: HomeCheckContext<LogsCode>, logs: Logs): void {
  const { problem, records, size } = logs.read;
  if (problem === undefined) return;
  const kept = `${records.length} complete entr${records.length === 1 ? 'y' : 'ies'}`;
  const what =
    problem === 'too_large'
      ? `is ${size} bytes, more than this audit reads (${LOGS_MAX_BYTES}): only the ${kept} in its first ` +
        `${LOGS_MAX_BYTES} bytes are judged`
      : problem === 'not_array'
        ? 'is valid JSON but not an array: Gemini CLI renames such a file to logs.json.malformed_array.<ms>.bak at ' +
          'its next start and begins an empty one, so it was written by another program or by hand'
        : `is not valid JSON (${kept} before the damage are judged): the CLI rewrites it whole at every prompt and ` +
          'does not write it atomically, so it was cut by a crash or a full disk while being written, or edited; ' +
          'Gemini CLI renames such a file to logs.json.invalid_json.<ms>.bak at its next start and begins an empty one';
  ctx.emit('GEMINI_LOGS_UNREADABLE', { file: logs.file }, `${logs.file} ${what}.`, {
    key: problem,
    ...(problem === 'too_large' ? { severity: 'note' as const } : {}),
  });
}

/** Entries whose session has no file in this project dir, only in another one. */
function otherProject(ctx: HomeCheckContext<LogsCode>, logs: Logs): void {
  const seen = new Set<string>();
  for (const r of logs.read.records) {
    const id = logs.rules.entry(r.value)?.sessionId;
    if (id === undefined || id === '' || seen.has(id)) continue;
    seen.add(id);
    const found = ctx.sessions.get(id);
    if (!found?.length) continue;
    const projects = found.map((s) => projectOf(ctx, s));
    if (projects.includes(logs.project)) continue;
    const elsewhere = projects.find((p) => p !== undefined) ?? found[0]!.display;
    ctx.emit(
      'GEMINI_LOGS_OTHER_PROJECT',
      { file: logs.file, line: r.line, byteOffset: r.byteOffset, byteLength: r.byteLength },
      `session ${id}: ${logs.file} holds its prompts, but its session file is not in tmp/${logs.project}/, only ` +
        `under ${elsewhere}: the session file was moved or copied there, the log staying where it was written.`,
      { key: id },
    );
  }
}

function quarantined(ctx: HomeCheckContext<LogsCode>): void {
  for (const e of ctx.source.inventory) {
    const m = e.type === 'file' ? BAK_RE.exec(e.path) : null;
    if (!m) continue;
    const reason = m[2]!.replace(/\.\d+$/, '');
    const at = /\.(\d{13})$/.exec(m[2]!)?.[1];
    const when = at ? ` at ${new Date(Number(at)).toISOString()}` : '';
    const read = readLogs(ctx.source, e.path);
    const n = read.ok ? read.value.records.filter((r) => entryOf(r.value, new Set())).length : 0;
    const kept = n === 1 ? 'the 1 entry still readable in it is' : `the ${n} entries still readable in it are`;
    const why =
      reason === 'invalid_json'
        ? 'it was not valid JSON'
        : reason === 'malformed_array'
          ? 'it was not a JSON array'
          : `of "${reason}", a reason this audit does not know`;
    ctx.emit(
      'GEMINI_LOGS_QUARANTINED',
      { file: e.path },
      `${e.path}: Gemini CLI moved tmp/${m[1]}/logs.json aside${when} because ${why}, and began an empty one: ` +
        `${kept} in no logs.json the CLI reads, and not judged against the sessions.`,
      { key: e.path },
    );
  }
}

export const geminiLogs = defineHomeCheck({
  id: 'gemini-logs',
  codes: GEMINI_LOGS_CODES,
  run(ctx) {
    for (const logs of allLogs(ctx)) {
      if ('error' in logs) {
        ctx.emit('GEMINI_LOGS_UNREADABLE', { file: logs.file }, `${logs.file} cannot be read: ${logs.error}.`, {
          key: 'read',
        });
        continue;
      }
      wholeFile(ctx, logs);
      judgeHistory(scoped(ctx, commandOnly(logs)), logs.rules);
      otherProject(ctx, logs);
    }
    quarantined(ctx);
  },
  recall(ctx, wanted, onEntry) {
    for (const logs of allLogs(ctx)) if (!('error' in logs)) recallHistory(ctx, logs.rules, wanted, onEntry);
  },
});
