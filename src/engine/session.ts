/** One session at a time (inspect, pairs, timeline): find it, open it read-only, observe it. */
import type { CheckRun } from '../checks/define.js';
import { UsageError } from '../errors.js';
import { formatOf } from '../formats/registry.js';
import { keep } from '../model/events.js';
import type { FoundSession } from '../model/found.js';
import type { ResultStatus } from '../model/transcript-view.js';
import { PairingCollector } from '../pairing/collect.js';
import { classifyPairs } from '../pairing/classify.js';
import type { PairRow } from '../pairing/pairing-result.js';
import { fsSource } from '../read/source.js';
import { auditSession, type AuditOptions } from './audit-session.js';
import type { SessionResult } from './report.js';
import { findSessions } from './tree.js';

export function oneSession(path: string, hint?: string): FoundSession {
  const found = findSessions([path], hint);
  if (found.length !== 1) {
    throw new UsageError(
      `${path}: holds ${found.length} sessions; give one session directory (e.g. ${found[0]!.display})`,
    );
  }
  return found[0]!;
}

export function observeSession(
  found: FoundSession,
  options: AuditOptions,
  observers: readonly CheckRun[],
): SessionResult {
  return auditSession(fsSource(found), formatOf(found), options, observers);
}

/** Arguments as text: a string as it is, anything else as JSON (nothing: empty). */
function argsText(args: unknown): string {
  if (typeof args === 'string') return args;
  if (args === undefined || (typeof args === 'object' && args !== null && Object.keys(args).length === 0)) return '';
  return keep(JSON.stringify(args));
}

/**
 * The tool-call pairing rows of one session (a pass with no checks, only the pairing collector), each with how its
 * result ended as the agent's `transcriptView` reads its results, and its prompt turn (the log's, else the turn of
 * the line that made the call).
 */
export function pairRows(found: FoundSession, maxDbBytes?: number): PairRow[] {
  const format = formatOf(found);
  const dialect = format.pairing;
  const view = format.transcriptView;
  const c = new PairingCollector(dialect, { keepDetail: true });
  const ended = new Map<string, ResultStatus>();
  const turns = new Map<string, number>();
  /** Arguments the pairing does not keep: of calls only a separate tool log records, of items giving them whole. */
  const logArgs = new Map<string, string>();
  /** The record of the line whose event comes next (a log's records arrive right before their events). */
  let last: { file: string; line: number; value: unknown } | undefined;
  const run: CheckRun = {
    record: (r) => {
      last = { file: r.file, line: r.record.line, value: r.record.value };
    },
    event: (e) => {
      c.event(e);
      if (e.kind === 'tool_call' && e.turn !== undefined) turns.set(`${e.file}\u0000${e.line}`, e.turn);
      // A call only a separate tool log records: its arguments as the agent reads them there.
      if (e.kind === 'tool_call' && e.file === dialect.toolLog && last?.file === e.file && last.line === e.line)
        for (const call of view.calls(last.value))
          if (call.id && !logArgs.has(call.id))
            logArgs.set(keep(call.id), argsText(view.view(call.name, call.args).args));
      if (e.kind === 'tool_update' && last?.file === e.file && last.line === e.line)
        for (const r of view.results(last.value)) if (r.id && !ended.has(r.id)) ended.set(keep(r.id), r.status);
    },
    chat: (i) => {
      c.chat(i);
      // A call whose item gives its arguments only whole (a database row's): as text.
      for (const tc of i.toolCalls ?? [])
        if (tc.args === undefined && tc.input !== undefined && tc.id && !logArgs.has(tc.id))
          logArgs.set(keep(tc.id), argsText(tc.input));
    },
    fileEnd: (f) => {
      last = undefined;
      if (f.file === dialect.toolLog) c.logEnd(f.dead);
    },
  };
  observeSession(found, { command: 'audit', checks: [], ...(maxDbBytes !== undefined ? { maxDbBytes } : {}) }, [run]);
  return classifyPairs(c, dialect).rows.map((r) => {
    const at = r.call ?? r.logCall;
    const turn = r.promptIndex ?? (at ? turns.get(`${at.file}\u0000${at.line}`) : undefined);
    const how = ended.get(r.id);
    const args = r.args ?? logArgs.get(r.id);
    return {
      ...r,
      ...(turn !== undefined ? { promptIndex: turn } : {}),
      ...(args !== undefined && args !== '' ? { args } : {}),
      ...(how !== undefined ? { ended: how } : {}),
    };
  });
}
