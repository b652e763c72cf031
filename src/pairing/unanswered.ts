/**
 * A call with no result in the conversation: abandoned with its response (expected, not reported), unanswered
 * although its turn went on, or interrupted (cancelled, crashed, or in flight when the session stopped); and the
 * words for each.
 */
import { loc, type ChatCall, type LogCall, type Where } from './call-records.js';
import type { PairingState } from './pairing-state.js';
import type { PairingDialect } from './dialect.js';
import type { PairFinding, PairRow } from './pairing-result.js';

export interface TurnOutcome {
  ended: 'completed' | 'cancelled' | 'open';
  where?: Where;
  stop?: string;
  resumed: boolean;
}

export function interruptedText(
  id: string,
  name: string | undefined,
  mutating: boolean,
  out: TurnOutcome,
  chatCall: ChatCall | undefined,
): string {
  const how =
    out.ended === 'cancelled'
      ? 'its turn was cancelled'
      : out.resumed
        ? 'its turn never completed (a crash or kill) and the session was later resumed'
        : 'it was in flight when the session stopped (the final turn never completed)';
  const risk = mutating
    ? ' It may mutate files or run commands and may already have run: check its effects before resuming.'
    : '';
  return `call ${id} (${name ?? '?'})${chatCall ? ` declared at ${loc(chatCall)}` : ''} has no result: ${how}.${risk}`;
}

export function classifyUnanswered(
  call: ChatCall,
  log: LogCall | undefined,
  row: PairRow,
  findings: PairFinding[],
  out: TurnOutcome,
  c: PairingState,
  d: PairingDialect,
  logName: string,
): void {
  // The agent runs no call of a response it ended so: no result is what every healthy session has, not a finding.
  if (call.abandoned !== undefined && !log) {
    row.status = 'abandoned';
    return;
  }
  const ran = log?.terminal
    ? ` ${logName} records it ${log.terminal.status} at ${loc(log.terminal)}, so it ran; the model never saw the ` +
      `result.`
    : '';
  const completedByLog = out.ended === 'completed';
  // Without the authoritative log, the conversation itself tells: the model went on talking in that turn.
  const completedByChat = !log && call.continuedAfter === true;
  if (completedByLog || completedByChat) {
    row.status = 'unanswered';
    const how = completedByLog
      ? `its turn went on to complete (${out.stop ?? '?'} at ${loc(out.where!)})`
      : 'the model went on in the same turn as if it had been answered';
    findings.push({
      code: 'TOOL_UNANSWERED_CALL',
      at: call,
      key: call.id,
      message: `call ${call.id} (${call.name}) has no tool_result, yet ${how}.${ran} ${d.unanswered}`,
    });
    return;
  }
  row.status = 'interrupted';
  const resumed = log ? out.resumed : c.turnsAfter(call);
  findings.push({
    code: 'TOOL_INTERRUPTED_CALL',
    at: call,
    key: call.id,
    message: interruptedText(call.id, call.name, row.mutating, { ...out, resumed }, undefined) + ran,
  });
}
