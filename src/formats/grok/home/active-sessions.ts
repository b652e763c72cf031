/**
 * `active_sessions.json` (home-artifacts.md §1.2): Grok Build's crash registry, a JSON array of
 * `{session_id, pid, cwd, opened_at}` the TUI registers when a session becomes ready and unregisters on a clean quit
 * or switch; every pager launch reaps the entries whose PID is dead. An entry present means the TUI of that session
 * is still running, crashed or was killed, or lost a lock race on unregister, and no later launch reaped it. Beside
 * it, `active_sessions.json.tmp` is the write before its rename.
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import { closesTurn, type SessionEvent, TERMINAL_TOOL_STATUSES } from '../../../model/events.js';
import type { FoundSession } from '../../../model/found.js';
import { relocationOf } from './search-files.js';

export const ACTIVE = 'active_sessions.json';
export const ACTIVE_TMP = 'active_sessions.json.tmp';
const MAX_BYTES = 4 * 1024 * 1024;

interface Active {
  session_id: string;
  pid: number;
  cwd: string;
  opened_at: string;
  openedMs: number;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function asEntry(v: unknown): Active | undefined {
  if (!isObj(v)) return undefined;
  const { session_id, pid, cwd, opened_at } = v;
  if (typeof session_id !== 'string' || session_id === '' || typeof cwd !== 'string') return undefined;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid < 0 || typeof opened_at !== 'string') return undefined;
  const openedMs = Date.parse(opened_at);
  if (!Number.isFinite(openedMs)) return undefined;
  return { session_id, pid, cwd, opened_at, openedMs };
}

type Codes =
  | 'GROK_ACTIVE_SESSION_OPEN'
  | 'GROK_ACTIVE_SESSION_GONE'
  | 'GROK_ACTIVE_SESSION_NOT_REAPED'
  | 'GROK_ACTIVE_SESSION_UNCLEAN_END'
  | 'GROK_ACTIVE_SESSION_STRAY_TMP'
  | 'GROK_ACTIVE_SESSION_UNREADABLE';

/** How the session's log ends: mid-turn (a tool call without its result, or no turn end after the last prompt). */
function midTurn(ctx: HomeCheckContext<Codes>, logs: readonly FoundSession[]): string | undefined {
  let why: string | undefined;
  for (const s of logs) {
    let open = false;
    const calls = new Map<string, SessionEvent>();
    let lastMs: number | undefined;
    const ok = ctx.events(s, (e) => {
      if (e.timeMs !== undefined) lastMs = e.timeMs;
      if (e.subagentId !== undefined) return;
      if (e.kind === 'user_prompt' && !e.hostTurn) {
        open = true;
        calls.clear();
      } else if (closesTurn(e)) open = false;
      if ((e.kind === 'tool_call' || e.kind === 'tool_update') && e.toolCallId !== undefined) {
        const done = e.toolStatus !== undefined && (TERMINAL_TOOL_STATUSES as readonly string[]).includes(e.toolStatus);
        if (done) calls.delete(e.toolCallId);
        else if (e.kind === 'tool_call') calls.set(e.toolCallId, e);
      }
    });
    if (!ok) continue;
    const dangling = [...calls.values()][0];
    const end = lastMs !== undefined ? ` (its last line is at ${new Date(lastMs).toISOString()})` : '';
    const call = dangling && `the tool call ${dangling.toolCallId} (line ${dangling.line})`;
    if (call) why = `its updates.jsonl ends with ${call} without a result${end}`;
    else if (open) why = `its updates.jsonl has no turn end after its last prompt${end}`;
    else return undefined;
  }
  return why;
}

/** The start (first event time) of every session of the home not in the registry, computed once. */
function laterStart(
  ctx: HomeCheckContext<Codes>,
  skip: ReadonlySet<string>,
  startOf: Map<string, number | undefined>,
): Map<string, number | undefined> {
  for (const [id, logs] of ctx.sessions) {
    if (skip.has(id) || startOf.has(id)) continue;
    let first: number | undefined;
    for (const s of logs)
      ctx.events(s, (e) => {
        if (e.timeMs !== undefined && (first === undefined || e.timeMs < first)) first = e.timeMs;
      });
    startOf.set(id, first);
  }
  return startOf;
}

const CAUSES =
  'the TUI is still running, it crashed or was killed (SIGKILL, power loss, out of memory), or its unregister lost ' +
  'a lock race; no later launch has reaped it since';

export const grokActiveSessions = defineHomeCheck({
  id: 'grok-active-sessions',
  codes: {
    GROK_ACTIVE_SESSION_OPEN: {
      severity: 'warning',
      title: 'The crash registry holds a session that never closed cleanly.',
      help:
        'active_sessions.json holds an entry for a session: Grok Build removes it on a clean quit or switch, and ' +
        'every later pager launch removes the entries whose process is dead. Present, it means the TUI of that ' +
        'session is still running, crashed or was killed, or lost a lock race when it unregistered, and no launch ' +
        'has run since. Unless the home was captured live, it is evidence of a crash.',
    },
    GROK_ACTIVE_SESSION_GONE: {
      severity: 'warning',
      title: 'The crash registry holds a session whose dir is gone.',
      help:
        'An entry of active_sessions.json names a session that has no dir in the home: it was deleted while its TUI ' +
        'was open, it was relocated to another cwd group, or the copy of the home is partial.',
    },
    GROK_ACTIVE_SESSION_NOT_REAPED: {
      severity: 'warning',
      title: 'A crash registry entry is older than a later session, yet was not reaped.',
      help:
        'An entry of active_sessions.json was opened before another session of the home started. A pager launch ' +
        'removes entries whose process is dead, so either that later run was headless (it does not reap), the PID ' +
        "was reused by a live process or is another user's, or the registry's lock was held.",
    },
    GROK_ACTIVE_SESSION_UNCLEAN_END: {
      severity: 'error',
      title: 'A session in the crash registry has a log that ends mid-turn.',
      help:
        'An entry of active_sessions.json names a session whose updates.jsonl ends in the middle of a turn: a tool ' +
        'call without its result, or no turn end after the last prompt. Together they are evidence that the ' +
        'session ended uncleanly (a crash or a kill), unless its TUI was still running when the home was captured.',
    },
    GROK_ACTIVE_SESSION_STRAY_TMP: {
      severity: 'note',
      title: 'A temporary file of the crash registry was left behind.',
      help:
        'active_sessions.json.tmp is written and then renamed over active_sessions.json. Left behind, the process ' +
        'stopped between the write and the rename (a crash), or one is writing it at the time of capture.',
    },
    GROK_ACTIVE_SESSION_UNREADABLE: {
      severity: 'warning',
      title: 'The crash registry is not a list of sessions.',
      help:
        'active_sessions.json is not a JSON array of {session_id, pid, cwd, opened_at}: edited by hand, or torn by ' +
        'a write on a filesystem where rename is not atomic. Grok Build reads such a file as empty and overwrites ' +
        'it at its next write, losing the entries it held.',
    },
  },
  run(ctx) {
    if (ctx.source.entry(ACTIVE_TMP))
      ctx.emit(
        'GROK_ACTIVE_SESSION_STRAY_TMP',
        { file: ACTIVE_TMP },
        `${ACTIVE_TMP} is in the home: a process stopped between writing the crash registry and renaming it over ` +
          `${ACTIVE}, or one was writing it when the home was captured.`,
        { key: 'tmp' },
      );
    if (!ctx.source.entry(ACTIVE)) return;
    const read = ctx.source.readFile(ACTIVE, MAX_BYTES);
    const bad = (why: string): void =>
      ctx.emit(
        'GROK_ACTIVE_SESSION_UNREADABLE',
        { file: ACTIVE },
        `${ACTIVE} ${why}: Grok Build would read it as an empty registry and overwrite it at its next write.`,
        { key: 'file' },
      );
    if (!read.ok) return bad(`cannot be read (${read.error})`);
    if (read.value.truncated) return bad(`is larger than ${MAX_BYTES} bytes`);
    let value: unknown;
    try {
      value = JSON.parse(read.value.bytes.toString('utf8'));
    } catch {
      return bad('is not JSON');
    }
    if (!Array.isArray(value)) return bad('is not a JSON array');
    const entries = value.map(asEntry);
    const broken = entries.indexOf(undefined);
    if (broken >= 0) return bad(`holds an element (index ${broken}) that is not {session_id, pid, cwd, opened_at}`);
    const list = entries as Active[];
    const ids = new Set(list.map((e) => e.session_id));
    const starts = new Map<string, number | undefined>();
    for (const a of list) {
      const at = { file: ACTIVE };
      const who = `session ${a.session_id} (pid ${a.pid}, ${a.cwd}, opened ${a.opened_at})`;
      const logs = ctx.sessions.get(a.session_id);
      if (!logs?.length) {
        const moved = ctx.source.entry(relocationOf(a.session_id)) !== undefined;
        ctx.emit(
          'GROK_ACTIVE_SESSION_GONE',
          at,
          `${who} is in ${ACTIVE}, but no dir of it is in this home: ` +
            (moved
              ? `a relocation journal ${relocationOf(a.session_id)} says it was moved to another cwd group.`
              : 'it was deleted while its TUI was open, relocated, or the copy of the home is partial.'),
          { key: a.session_id },
        );
        ctx.gone({ id: a.session_id, source: ACTIVE, prompts: 0, firstAt: a.opened_at, cwd: a.cwd });
        continue;
      }
      const why = midTurn(ctx, logs);
      if (why !== undefined)
        ctx.emit(
          'GROK_ACTIVE_SESSION_UNCLEAN_END',
          at,
          `${who} is in ${ACTIVE} and ${why}: the session ended uncleanly (a crash or a kill), unless its TUI was ` +
            'still running when the home was captured.',
          { key: a.session_id },
        );
      else ctx.emit('GROK_ACTIVE_SESSION_OPEN', at, `${who} is in ${ACTIVE}: ${CAUSES}.`, { key: a.session_id });
      laterStart(ctx, ids, starts);
      const later = [...starts].find(([, ms]) => ms !== undefined && ms > a.openedMs);
      if (later)
        ctx.emit(
          'GROK_ACTIVE_SESSION_NOT_REAPED',
          at,
          `${who} is older than session ${later[0]}, which started at ${new Date(later[1]!).toISOString()}, yet ` +
            'no launch reaped it: that later run was headless, the PID was reused or belongs to another user, or the ' +
            "registry's lock was held.",
          { key: a.session_id },
        );
    }
  },
});
