/**
 * Tool call ↔ result pairing over the conversation and, where the agent keeps one, the authoritative tool log: one
 * row per call id with its status, and the findings that follow. Pure: works on what PairingCollector gathered,
 * worded in the agent's dialect.
 */
import { isDead } from '../model/events.js';
import { loc, type ChatResult, type LogCall } from './call-records.js';
import type { PairingState } from './pairing-state.js';
import type { PairingDialect } from './dialect.js';
import { emittedAfter } from './emission-order.js';
import { isMutating } from './mutating.js';
import type { PairFinding, PairingResult, PairRow } from './pairing-result.js';
import { classifyUnanswered, interruptedText, type TurnOutcome } from './unanswered.js';

/**
 * `rows: false` (the audit): only the findings are wanted, so no row is kept and memory stays at the size of the
 * collector's compact tables, not of one object per call. With what the collector settled before (the conversations
 * that ended, collect.ts), first.
 */
export function classifyPairs(
  c: PairingState,
  d: PairingDialect,
  opts: { rebuilt?: boolean; rows?: boolean } = {},
): PairingResult {
  const r = classifyConversation(c, d, opts);
  if (c.settledFindings.length) r.findings = [...c.settledFindings, ...r.findings];
  if (opts.rows !== false && c.settledRows.length) {
    r.rows = [...c.settledRows, ...r.rows];
    sortRows(r.rows);
  }
  return r;
}

// Rows in the order the calls happened: by their line in the authoritative log, else in the conversation.
const order = (r: PairRow): number => r.logCall?.line ?? Number.MAX_SAFE_INTEGER;
const sortRows = (rows: PairRow[]): void =>
  void rows.sort(
    (a, b) => order(a) - order(b) || (a.call?.line ?? a.result?.line ?? 0) - (b.call?.line ?? b.result?.line ?? 0),
  );

/** The calls and results the collector holds now (its current conversation, or all of them), classified. */
export function classifyConversation(
  c: PairingState,
  d: PairingDialect,
  opts: { rebuilt?: boolean; rows?: boolean } = {},
): PairingResult {
  const logName = d.toolLog ?? 'the tool log';
  const keepRows = opts.rows !== false;
  const kept: PairRow[] = [];
  const rows = { push: (r: PairRow): void => void (keepRows && kept.push(r)) };
  const findings: PairFinding[] = [];
  const odd = new Map<string, ChatResult[]>();
  for (const r of c.oddResults) {
    const list = odd.get(r.id) ?? [];
    list.push(r);
    odd.set(r.id, list);
  }
  /** Every result of a call in file order: the first from the compact table, the others from the odd list. */
  const resultsOf = (id: string): ChatResult[] => {
    const first = c.firstResults.get(id);
    if (!first) return [];
    const rest = odd.get(id) ?? [];
    if (rest.some((r) => r.line === first.line && r.byteOffset === first.byteOffset)) return rest;
    return [
      {
        file: first.file,
        line: first.line,
        byteOffset: first.byteOffset,
        id,
        synthetic: false,
        placement: 'run',
        declaredBefore: true,
      },
      ...rest,
    ];
  };
  const live = (l: LogCall): boolean => !isDead(c.dead, l.seq);
  const lastTurnStart = c.turnStarts.reduce((m, t) => Math.max(t, m), -Infinity);
  /** How did the turn of a call end, per the authoritative log? A later turn means the session went on. */
  const turnOutcome = (l: LogCall | undefined): TurnOutcome => {
    if (!l) return { ended: 'open', resumed: false };
    const end = c.turnEnds.get(l.turnKey);
    const resumed = lastTurnStart > l.seq;
    if (!end) return { ended: 'open', resumed };
    return {
      ended: end.stopReason === 'cancelled' ? 'cancelled' : 'completed',
      where: end,
      stop: end.stopReason,
      resumed,
    };
  };

  const handled = new Set<string>();
  for (const call of [...c.chatCalls.values()].sort((a, b) => a.line - b.line)) {
    handled.add(call.id);
    const log = c.logCalls.get(call.id);
    const rs = resultsOf(call.id);
    const row: PairRow = {
      id: call.id,
      name: call.name,
      status: 'answered',
      call: { file: call.file, line: call.line, byteOffset: call.byteOffset },
      mutating: d.mutating && log?.kind === undefined ? d.mutating(call.name) : isMutating(call.name, log?.kind),
    };
    if (log?.kind !== undefined) row.kind = log.kind;
    if (call.args !== undefined) row.args = call.args;
    if (log) {
      row.logCall = { file: log.file, line: log.line, byteOffset: log.byteOffset };
      if (log.terminal) row.logTerminal = log.terminal;
      if (log.promptIndex !== undefined) row.promptIndex = log.promptIndex;
    }
    if (rs.length === 0) classifyUnanswered(call, log, row, findings, turnOutcome(log), c, d, logName);
    else {
      const first = rs[0]!;
      row.result = { file: first.file, line: first.line, byteOffset: first.byteOffset };
      for (const dup of rs.slice(1)) {
        row.status = 'duplicate';
        findings.push({
          code: 'TOOL_DUPLICATE_RESULT',
          at: dup,
          key: call.id,
          message:
            `a second tool_result for call ${call.id} (${call.name}); the first is at ${loc(first)}. ` +
            `${d.duplicate}`,
        });
      }
      for (const r of rs) {
        if (!r.declaredBefore) {
          findings.push({
            code: 'TOOL_RESULT_BEFORE_CALL',
            at: r,
            key: call.id,
            message: `the result for call ${call.id} comes before the assistant item that declares it (${loc(call)})`,
          });
        } else if (d.placement === 'anywhere') {
          // Results are joined to calls by id wherever they sit after them.
        } else if (r.placement === 'displaced') {
          if (row.status === 'answered') row.status = 'displaced';
          findings.push({
            code: 'TOOL_DISPLACED_RESULT',
            at: r,
            key: call.id,
            message:
              `the result for call ${call.id} (declared at ${loc(call)}) is not in the run of tool results ` +
              `right after its call; ${d.displaced}`,
          });
        } else if (r.placement === 'lenient' && d.lenient !== undefined) {
          findings.push({
            code: 'TOOL_DISPLACED_RESULT',
            at: r,
            key: call.id,
            severity: 'note',
            message:
              `the result for call ${call.id} (declared at ${loc(call)}) follows reasoning or backend items ` +
              `inside its run: ${d.lenient}`,
          });
        }
        if (r.synthetic) {
          if (row.status === 'answered') row.status = 'synthetic';
          const started = log?.terminal
            ? `, yet ${logName} records it ${log.terminal.status} at ${loc(log.terminal)}: it did run`
            : log && log.updates > 0
              ? `, yet ${logName} shows it started (${loc(log)}) and never finished: it may have run, with its ` +
                `side effects`
              : ': the tool did not run';
          findings.push({
            code: 'TOOL_SYNTHETIC_RESULT',
            at: r,
            key: call.id,
            message: `the result for call ${call.id} (${call.name}) is ${d.synthetic}${started}`,
          });
        }
      }
      if (log && live(log) && !log.terminal && rs.every((r) => !r.synthetic)) {
        findings.push({
          code: 'TOOL_NO_TERMINAL_STATUS',
          at: log,
          key: call.id,
          message:
            `call ${call.id} is answered in ${d.conversation} (${loc(first)}) but ${logName} never records ` +
            `it completed or failed: a lost update line, or a result written without the tool finishing`,
        });
      }
    }
    if (c.hasLog && !log && !opts.rebuilt && !c.strayUpdates.some((u) => u.id === call.id)) {
      findings.push({
        code: 'XREF_CHAT_VS_UPDATES',
        at: call,
        key: call.id,
        message:
          `call ${call.id} (${call.name}) is in the model's history but not in ${logName}, the ` +
          `authoritative log: it was never recorded as run, or the log lost it`,
      });
    }
    rows.push(row);
  }

  for (const id of c.firstResults.keys()) {
    if (c.chatCalls.has(id)) continue;
    for (const r of resultsOf(id)) {
      const logged = c.logCalls.get(id);
      const inLog = logged
        ? ` (${logName} has that call at ${loc(logged)}, so the assistant item declaring it was lost)`
        : '';
      findings.push({
        code: 'TOOL_ORPHAN_RESULT',
        at: r,
        key: id,
        message: `tool_result for ${JSON.stringify(id)} answers no call in ${d.conversation}${inLog}: ${d.orphan}`,
      });
      rows.push({ id, name: c.logCalls.get(id)?.title ?? '', status: 'orphan result', result: r, mutating: false });
    }
    handled.add(id);
  }

  for (const u of c.strayUpdates) {
    const later = c.logCalls.get(u.id);
    findings.push({
      code: 'TOOL_UPDATE_WITHOUT_CALL',
      at: u,
      key: u.id,
      message: later
        ? `tool_call_update for ${u.id} comes before its tool_call (${loc(later)})`
        : `tool_call_update for ${u.id} has no tool_call in ${logName}`,
    });
  }

  // The table is in log order (seq ascending): one view at a time, none kept unless it makes a row.
  for (const log of c.logCalls.values()) {
    if (handled.has(log.id)) continue;
    const row: PairRow = {
      id: log.id,
      name: log.title ?? '',
      status: 'log only',
      logCall: { file: log.file, line: log.line, byteOffset: log.byteOffset },
      mutating: isMutating(log.title, log.kind),
    };
    if (log.kind !== undefined) row.kind = log.kind;
    if (log.promptIndex !== undefined) row.promptIndex = log.promptIndex;
    if (log.terminal) row.logTerminal = log.terminal;
    if (!live(log)) {
      row.status = 'rewound';
      rows.push(row);
      continue;
    }
    const out = turnOutcome(log);
    if (!log.terminal) {
      if (out.ended === 'completed') {
        findings.push({
          code: 'TOOL_NO_TERMINAL_STATUS',
          at: log,
          key: log.id,
          message:
            `tool call ${log.id} (${log.title ?? '?'}) never reached completed or failed, although its turn ` +
            `ended (${out.stop ?? '?'} at ${loc(out.where!)})`,
        });
        row.status = 'unanswered';
      } else {
        row.status = 'interrupted';
        findings.push({
          code: 'TOOL_INTERRUPTED_CALL',
          at: log,
          key: log.id,
          message: interruptedText(log.id, log.title, row.mutating, out, undefined),
        });
      }
    }
    if (c.hasChat && !opts.rebuilt && (c.lastCheckpoint === undefined || emittedAfter(log, c.lastCheckpoint))) {
      findings.push({
        code: 'XREF_CHAT_VS_UPDATES',
        at: log,
        key: log.id,
        message:
          `call ${log.id} (${log.title ?? '?'}) is in ${logName} after the last compaction but not in ` +
          `${d.conversation}: the model's history lost it`,
      });
    }
    rows.push(row);
  }
  sortRows(kept);
  return { rows: kept, findings };
}
