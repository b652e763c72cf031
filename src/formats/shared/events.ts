/** Helpers shared by the formats whose sessions are single logs (Codex rollouts, Claude Code transcripts). */
import type { JsonlRecord } from '../../model/records.js';
import type { EventKind, Rail, SessionEvent } from '../../model/events.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const clip = (s: string, n = 120): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** Milliseconds of an ISO 8601 time, or undefined. */
export function isoMs(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Every field present from the start (one hidden class for all events, as the Grok normalizer does). */
export function blankEvent(file: string, r: JsonlRecord, rail: Rail, seq: number): SessionEvent {
  return {
    file,
    line: r.line,
    byteOffset: r.byteOffset,
    timeMs: undefined,
    timeSource: 'none',
    eventId: undefined,
    counter: undefined,
    eventPrefix: undefined,
    rail,
    kind: 'unknown' as EventKind,
    tag: '',
    sessionId: undefined,
    promptIndex: undefined,
    promptId: undefined,
    hostTurn: undefined,
    isReplay: undefined,
    toolCallId: undefined,
    toolStatus: undefined,
    toolTitle: undefined,
    toolKind: undefined,
    subagentId: undefined,
    childSessionId: undefined,
    stopReason: undefined,
    targetPromptIndex: undefined,
    checkpointId: undefined,
    checkpointFile: undefined,
    summary: '',
    recovered: r.recovered ? true : undefined,
    duplicateLine: r.duplicateOf !== undefined ? true : undefined,
    seq,
    step: { k: 'other' },
    turn: undefined,
    opensTurn: undefined,
    rewind: undefined,
    policy: undefined,
  };
}

/** Seq ranges [from, to) of the seqs in `dead` (sorted ascending). */
export function toRanges(dead: readonly number[]): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  let start = -1;
  let prev = -2;
  for (const s of dead) {
    if (s !== prev + 1) {
      if (start >= 0) out.push([start, prev + 1]);
      start = s;
    }
    prev = s;
  }
  if (start >= 0) out.push([start, prev + 1]);
  return out;
}
