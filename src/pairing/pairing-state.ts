/**
 * What tool pairing classifies: the calls, results and log lines a PairingCollector gathered (of its current
 * conversation), and what it settled before. An interface of its own, so that the collector can classify a
 * conversation that ended without the classifier depending on the collector.
 */
import type { DeadRanges } from '../model/events.js';
import type { ChatCall, ChatResult, TurnEnd, Where } from './call-records.js';
import type { Emission } from './emission-order.js';
import type { LogCallTable } from './log-call-table.js';
import type { PairFinding, PairRow } from './pairing-result.js';

/** The first result of a call, kept compactly (the others, and anything odd about it, are ChatResults). */
export interface FirstResult extends Where {
  count: number;
}

export interface PairingState {
  readonly logCalls: LogCallTable;
  readonly chatCalls: ReadonlyMap<string, ChatCall>;
  readonly firstResults: ReadonlyMap<string, FirstResult>;
  readonly oddResults: readonly ChatResult[];
  readonly strayUpdates: ReadonlyArray<Where & { id: string; seq: number }>;
  readonly turnEnds: ReadonlyMap<number, TurnEnd>;
  readonly turnStarts: readonly number[];
  readonly lastCheckpoint: Emission | undefined;
  readonly dead: DeadRanges;
  readonly hasLog: boolean;
  readonly hasChat: boolean;
  readonly settledRows: readonly PairRow[];
  readonly settledFindings: readonly PairFinding[];
  /** A later chat turn started in the call's conversation: the session went on after it. */
  turnsAfter(call: ChatCall): boolean;
}
