/** Helpers shared by the formats whose sessions are single logs (Codex rollouts, Claude Code transcripts). */
import type { JsonlRecord } from '../../model/records.js';
import type { EventKind, Rail, SessionEvent } from '../../model/events.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** What `\s` matches in a regular expression (ECMAScript WhiteSpace and LineTerminator). */
const isSpace = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  (c > 127 &&
    (c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000 ||
      c === 0xfeff));

/**
 * `s` on one line (runs of white space as one space, trimmed), cut to `n` characters with an ellipsis: what
 * `s.replace(/\s+/g, ' ').trim()` then a cut gives, without collapsing the part that is cut off anyway.
 */
export const clip = (s: string, n = 120): string => {
  if (n < 1) {
    const one = s.replace(/\s+/g, ' ').trim();
    return one.length > n ? `${one.slice(0, n - 1)}…` : one;
  }
  let out = '';
  let space = false;
  for (let i = 0; i < s.length && out.length <= n; i++) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      space = out.length > 0;
      continue;
    }
    if (space) {
      out += ' ';
      space = false;
    }
    out += s[i];
  }
  return out.length > n ? `${out.slice(0, n - 1)}…` : out;
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
