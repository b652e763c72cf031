/**
 * The records tool pairing keeps and passes around: a place in a file, a call and a result in the conversation, a
 * tool_call of the authoritative log, the end of a turn; `loc` names a place in messages.
 */
import type { Emission } from './emission-order.js';

export interface Where {
  file: string;
  line: number;
  byteOffset: number;
}

export const loc = (w: Where): string => `${w.file}:${w.line}`;

export interface ChatCall extends Where {
  id: string;
  name: string;
  /** Index of the chat turn (user prompt turns seen so far; -1 before the first). */
  turn: number;
  /** A later item in the same turn is assistant text without tool calls: the turn went on. */
  continuedAfter: boolean;
  /** The call's arguments (first 200 characters), kept only when the collector is asked to (inspect, pairs). */
  args?: string;
  /** The response that made the call ended without running its calls (ChatItem.abandoned). */
  abandoned?: string;
}

export interface ChatResult extends Where {
  id: string;
  synthetic: boolean;
  /**
   * Placement relative to the call's assistant: in its contiguous run, in it but past reasoning items, or elsewhere.
   */
  placement: 'run' | 'lenient' | 'displaced';
  /** The call was declared before this result. */
  declaredBefore: boolean;
}

export interface LogCall extends Where, Emission {
  id: string;
  title: string | undefined;
  kind: string | undefined;
  /** seq of the chunk that opened the call's turn (-1 before the first counted turn). */
  turnKey: number;
  promptIndex: number | undefined;
  terminal: (Where & { status: string }) | undefined;
  updates: number;
}

export interface TurnEnd extends Where {
  stopReason?: string;
}
