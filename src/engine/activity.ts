/**
 * `activity`: what the agent did to the world, per session. One audit pass per session (the tree's, as `sessions`
 * does it) with one more observer: every tool call the conversation declares, read through the format's `toolView`
 * (a shell command, a file read or written, a patch and its files, the web or an MCP server reached), its time and
 * working directory, and how it ended, as the pairing classifies it and the results say. A shell command is listed
 * as a command, never guessed into files. Nothing here knows an agent.
 */
import { keep } from '../model/events.js';
import type { FoundSession } from '../model/found.js';
import { IDENTITY_KIND, type SessionIdentity } from '../model/identity.js';
import type { NotRead } from '../model/not-read.js';
import type { ToolError } from '../model/report.js';
import type { SessionObserver } from '../model/session.js';
import type {
  ActivityCommand,
  ActivityFailed,
  ActivityFile,
  ActivityKind,
  ActivityTool,
  CallOutcome,
  SessionActivity,
} from '../model/activity.js';
import { byteOrder } from '../model/order.js';
import { formatOf } from '../formats/registry.js';
import type { FileAction, ToolView } from '../formats/tool-view.js';
import { classifyPairs } from '../pairing/classify.js';
import { PairingCollector } from '../pairing/collect.js';
import type { PairRow } from '../pairing/pairing-result.js';
import { auditTree } from './tree.js';

export type * from '../model/activity.js';

export interface ActivityFilters {
  /** Epoch ms, inclusive, on each entry's time (an entry without one is left out when a bound is given). */
  since?: number;
  until?: number;
  /** Format names; empty: every agent. */
  agents?: readonly string[];
  /** The parts to list; empty: all. */
  kinds?: readonly ActivityKind[];
}

/** A call that reaches outside, counted per tool once the times are filtered. */
interface ReachCall {
  tool: string;
  reach: ActivityTool['reach'];
  server: string | null;
  time: string | null;
  failed: boolean;
}

/** What the observer gathered of one session. */
interface Gathered {
  commands: ActivityCommand[];
  files: ActivityFile[];
  reaching: ReachCall[];
  failed: ActivityFailed[];
}

/** The tools that reach outside, with their calls and failed calls counted, by reach, server and name. */
function countTools(calls: readonly ReachCall[]): ActivityTool[] {
  const tools = new Map<string, ActivityTool>();
  for (const c of calls) {
    const key = `${c.reach}\0${c.server ?? ''}\0${c.tool}`;
    const t = tools.get(key) ?? { tool: c.tool, reach: c.reach, server: c.server, calls: 0, failed: 0 };
    t.calls++;
    if (c.failed) t.failed++;
    tools.set(key, t);
  }
  return [...tools.values()].sort(
    (a, b) => byteOrder(a.reach, b.reach) || byteOrder(a.server ?? '', b.server ?? '') || byteOrder(a.tool, b.tool),
  );
}

/** One call as the conversation declared it, with what its arguments say. */
interface Call {
  name: string;
  view: ToolView;
  file: string;
  line: number;
  time?: number;
  cwd?: string;
}

/**
 * What the first result of a call says. Its text is kept (its first characters, on one line) only when the result
 * may be an error, so a session of many calls that went well holds no text of theirs.
 */
interface Result {
  error?: string;
  isError?: boolean;
  synthetic?: boolean;
  exitCode?: number;
}

/** The first characters of an error text, on one line. */
const ERROR_CHARS = 200;
const oneLine = (s: string): string => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > ERROR_CHARS ? `${t.slice(0, ERROR_CHARS - 1)}…` : t;
};

const iso = (ms: number | undefined): string | null =>
  ms === undefined || !Number.isFinite(ms) ? null : new Date(ms).toISOString();

/** A view whose strings are flat copies: a slice of a parsed line would keep the whole line alive. */
function kept(v: ToolView): ToolView {
  const out: ToolView = { ...v };
  if (v.command !== undefined) out.command = keep(v.command);
  if (v.cwd !== undefined) out.cwd = keep(v.cwd);
  if (v.path !== undefined) out.path = keep(v.path);
  if (v.url !== undefined) out.url = keep(v.url);
  if (v.files) out.files = v.files.map((f) => ({ path: keep(f.path), action: f.action }));
  return out;
}

/** The observer of one session: calls, results, failures and times; the activity is built at its end. */
function activityObserver(found: FoundSession): {
  run: SessionObserver;
  done: () => Gathered;
} {
  const format = formatOf(found);
  const dialect = format.pairing;
  const results = format.toolResults;
  const pairing = new PairingCollector(dialect);
  const calls = new Map<string, Call>();
  const firstResult = new Map<string, Result>();
  /** Calls the provider ran (no id): the ones that reach outside. */
  const backend: ReachCall[] = [];
  /** What results say a file tool did, by call id (a write that created its file). */
  const resultActions = new Map<string, FileAction>();
  /** The line of the last provider-run call an event gave, so its conversation item is not counted twice. */
  let backendLine: { file: string; line: number } | undefined;
  /** Calls a log line says failed, and the exit codes tool end lines record. */
  const failedByEvent = new Set<string>();
  const exitCodes = new Map<string, number>();
  /** Times by file and line (the event of a line comes before its chat items), and of the log's tool calls by id. */
  let lineTime: { file: string; line: number; time: number } | undefined;
  const callTimes = new Map<string, number>();
  const cwdOfFile = new Map<string, string>();
  let identity: SessionIdentity | undefined;
  let rows: PairRow[] = [];
  const run: SessionObserver = {
    doc({ kind, value }) {
      if (kind === IDENTITY_KIND && typeof value === 'object' && value !== null) identity = value as SessionIdentity;
    },
    record({ file, kind, record }) {
      const cwd = results.recordCwd?.(kind, record.value);
      if (cwd !== undefined && cwd !== cwdOfFile.get(file)) cwdOfFile.set(file, keep(cwd));
      for (const a of results.resultActions?.(kind, record.value) ?? []) resultActions.set(keep(a.id), a.action);
    },
    event(e) {
      pairing.event(e);
      const time = e.timeMs !== undefined && Number.isFinite(e.timeMs) ? e.timeMs : undefined;
      lineTime = time !== undefined ? { file: e.file, line: e.line, time } : undefined;
      if (e.toolCallId !== undefined) {
        if (e.kind === 'tool_call' && time !== undefined && !callTimes.has(e.toolCallId))
          callTimes.set(e.toolCallId, time);
        if (e.toolStatus === 'failed') failedByEvent.add(e.toolCallId);
        if (e.toolExitCode !== undefined) exitCodes.set(e.toolCallId, e.toolExitCode);
      } else if (e.kind === 'tool_call' && e.toolTitle !== undefined && e.recovered !== true) {
        // A tool the model's provider ran (a web search of the API): no call id, no result to pair; counted.
        const view = format.toolView(e.toolTitle, undefined);
        backendLine = { file: e.file, line: e.line };
        if (view.reach !== undefined)
          backend.push({
            tool: keep(e.toolTitle),
            reach: view.reach,
            server: view.server ?? null,
            time: iso(time),
            failed: e.toolStatus === 'failed',
          });
      }
    },
    chat(c) {
      pairing.chat(c);
      const time = lineTime && lineTime.file === c.file && lineTime.line === c.line ? lineTime.time : undefined;
      if (c.type === 'backend_tool_call' && !(backendLine?.file === c.file && backendLine.line === c.line)) {
        // A provider-run call only the conversation records (its text starts with the tool's name).
        const name = (c.text ?? '').split(' ')[0] ?? '';
        const view = name ? format.toolView(name, undefined) : undefined;
        if (view?.reach !== undefined)
          backend.push({
            tool: keep(name),
            reach: view.reach,
            server: view.server ?? null,
            time: iso(time),
            failed: false,
          });
      }
      for (const tc of c.toolCalls ?? []) {
        if (tc.id === '' || calls.has(tc.id)) continue;
        const call: Call = {
          name: keep(tc.name),
          view: kept(format.toolView(tc.name, tc.input ?? tc.args)),
          file: c.file,
          line: c.line,
        };
        if (time !== undefined) call.time = time;
        const cwd = cwdOfFile.get(c.file);
        if (cwd !== undefined) call.cwd = cwd;
        calls.set(tc.id, call);
      }
      if (c.type === 'tool_result' && c.toolCallId !== undefined && !firstResult.has(c.toolCallId)) {
        const r: Result = {};
        const text = c.text ?? '';
        if (c.isError !== undefined) r.isError = c.isError;
        if (c.synthetic === true) r.synthetic = true;
        if (calls.get(c.toolCallId)?.view.kind === 'shell') {
          const exit = results.exitCode?.(text);
          if (exit !== undefined) r.exitCode = exit;
        }
        if (c.isError !== false || c.synthetic === true || (r.exitCode !== undefined && r.exitCode !== 0))
          r.error = keep(oneLine(text));
        firstResult.set(c.toolCallId, r);
      }
    },
    fileEnd(f) {
      if (f.file === dialect.toolLog) pairing.logEnd(f.dead);
    },
    end() {
      rows = classifyPairs(pairing, dialect).rows;
    },
  };

  const outcome = (r: PairRow): CallOutcome => {
    const res = firstResult.get(r.id);
    switch (r.status) {
      case 'synthetic':
        return results.rejected?.(res?.error ?? '') ? 'rejected' : 'cancelled';
      case 'unanswered':
      case 'interrupted':
      case 'abandoned':
      case 'rewound':
        return r.status;
      default: {
        // The result's own mark wins over a log line's, which may speak for several results of one line.
        const failed =
          res?.isError !== undefined ? res.isError : failedByEvent.has(r.id) || r.logTerminal?.status === 'failed';
        if (res?.isError === true && results.rejected?.(res.error ?? '')) return 'rejected';
        return failed || r.logTerminal?.status === 'failed' ? 'failed' : 'completed';
      }
    }
  };

  const done = (): Gathered => {
    const commands: ActivityCommand[] = [];
    const files: ActivityFile[] = [];
    const failed: ActivityFailed[] = [];
    const reaching: ReachCall[] = [...backend];
    for (const r of rows) {
      if (r.status === 'orphan result') continue;
      const call = calls.get(r.id);
      const name = call?.name ?? r.name;
      const view = call?.view ?? formatOf(found).toolView(name, r.args);
      const where = call ? { file: call.file, line: call.line } : (r.call ?? r.logCall);
      const location = where ? `${where.file}:${where.line}` : '';
      const time = iso(call?.time ?? callTimes.get(r.id));
      const res = firstResult.get(r.id);
      const exit = view.kind === 'shell' ? (exitCodes.get(r.id) ?? res?.exitCode) : undefined;
      // A command that exited non-zero failed, whether or not the agent marked its result so.
      let status = outcome(r);
      if (status === 'completed' && exit !== undefined && exit !== 0) status = 'failed';
      if (view.kind === 'shell') {
        const cwd = view.cwd ?? call?.cwd ?? identity?.cwd;
        commands.push({
          command: view.command ?? null,
          cwd: cwd !== undefined && cwd !== '' ? cwd : null,
          status,
          exitCode: exit ?? null,
          time,
          tool: name,
          callId: r.id,
          location,
        });
      }
      const said = resultActions.get(r.id);
      for (const f of view.files ?? []) {
        const action = said !== undefined && f.action === 'write' && view.files?.length === 1 ? said : f.action;
        files.push({ path: f.path, action, status, time, tool: name, callId: r.id, location });
      }
      if (view.reach !== undefined)
        reaching.push({
          tool: name,
          reach: view.reach,
          server: view.server ?? null,
          time,
          failed: status !== 'completed' && status !== 'rewound',
        });
      if (status !== 'completed' && status !== 'rewound')
        failed.push({
          tool: name,
          status,
          error: res?.error || null,
          time,
          callId: r.id,
          location,
        });
    }
    return { commands, files, reaching, failed };
  };
  return { run, done };
}

/** Whether an entry's time is inside the bounds (an entry without a time is outside any bound). */
function inside(time: string | null, f: ActivityFilters): boolean {
  if (f.since === undefined && f.until === undefined) return true;
  if (time === null) return false;
  const t = Date.parse(time);
  return !(f.since !== undefined && t < f.since) && !(f.until !== undefined && t > f.until);
}

/** A session's activity with the filters applied: the kinds not asked for left empty, entries outside the times out. */
function filterActivity(head: Pick<SessionActivity, 'id' | 'agent' | 'path'>, g: Gathered, f: ActivityFilters) {
  const want = (k: ActivityKind): boolean => !f.kinds?.length || f.kinds.includes(k);
  return {
    ...head,
    commands: want('commands') ? g.commands.filter((e) => inside(e.time, f)) : [],
    files: want('files') ? g.files.filter((e) => inside(e.time, f)) : [],
    tools: want('tools') ? countTools(g.reaching.filter((e) => inside(e.time, f))) : [],
    failed: want('failed') ? g.failed.filter((e) => inside(e.time, f)) : [],
  };
}

/** Every session under the paths, audited once, with what it did; sessions in path order, filtered. */
export function sessionActivity(
  paths: readonly string[],
  filters: ActivityFilters = {},
  progress?: (done: number, total: number) => void,
): { sessions: SessionActivity[]; total: number; notRead: NotRead[]; toolErrors: ToolError[] } {
  const observers = new Map<string, () => Gathered>();
  const observe = (found: FoundSession): SessionObserver[] => {
    if (filters.agents?.length && !filters.agents.includes(formatOf(found).name)) return [];
    const { run, done } = activityObserver(found);
    observers.set(found.display, done);
    return [run];
  };
  const { results, notRead } = auditTree(
    paths,
    { command: 'audit' },
    {},
    { observe, ...(progress ? { progress } : {}) },
  );
  const sessions: SessionActivity[] = [];
  for (const r of results) {
    const done = observers.get(r.session.path);
    if (!done) continue;
    const head = { id: r.session.id, agent: r.session.format, path: r.session.path };
    const kept: SessionActivity = filterActivity(head, done(), filters);
    const timed = filters.since !== undefined || filters.until !== undefined;
    if (timed && !kept.commands.length && !kept.files.length && !kept.tools.length && !kept.failed.length) continue;
    sessions.push(kept);
  }
  sessions.sort((a, b) => byteOrder(a.path, b.path));
  return { sessions, total: results.length, notRead, toolErrors: results.flatMap((r) => r.toolErrors) };
}
