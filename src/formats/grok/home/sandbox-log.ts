/**
 * Reading `sandbox-events.jsonl` (home-artifacts.md §1.3), once for the check that judges it and the views that
 * show it: each line streamed through the tolerant reader (a huge file is never held whole, an oversized or
 * damaged line is reported as damage), taken as an event when it is an object with a timestamp and an event_type.
 * A line names no session: it is tied to one by its time within the session's span, widened by `SLACK_MS`, and by
 * its workspace, the session's cwd (a line without a workspace is tied by its time alone).
 */
import type { Damage, JsonlRecord } from '../../../model/records.js';
import type { SessionSource } from '../../../model/source.js';
import { inGroup, type SessionSpan } from './session-spans.js';

export const SANDBOX_EVENTS = 'sandbox-events.jsonl';

/** Times are written to the microsecond, sessions' to the second: a span is widened by this much. */
export const SLACK_MS = 2000;

export interface Place {
  line: number;
  byteOffset: number;
  byteLength: number;
}

export interface SandboxEvent extends Place {
  timeMs: number;
  timestamp: string;
  type: string;
  profile?: string;
  workspace?: string;
  enforced?: boolean;
  operation?: string;
  target?: string;
  error?: string;
}

export const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A line's value as an event: an object with a timestamp that parses and an event_type; else undefined. */
export function eventOf(v: unknown, p: Place): SandboxEvent | undefined {
  if (!isObj(v)) return undefined;
  const timestamp = str(v.timestamp);
  const type = str(v.event_type);
  const timeMs = timestamp === undefined ? Number.NaN : Date.parse(timestamp);
  if (timestamp === undefined || type === undefined || !Number.isFinite(timeMs)) return undefined;
  const e: SandboxEvent = { ...p, timeMs, timestamp, type };
  for (const k of ['profile', 'workspace', 'operation', 'target', 'error'] as const) {
    const s = str(v[k]);
    if (s !== undefined) e[k] = s;
  }
  if (typeof v.enforced === 'boolean') e.enforced = v.enforced;
  return e;
}

/**
 * Stream the log's lines: each record with its event (undefined: the line is not one), and the reader's damage.
 * Returns the read's outcome (a file that cannot be read at all says why).
 */
export function readSandboxLog(
  source: SessionSource,
  onLine: (r: JsonlRecord, e: SandboxEvent | undefined) => void,
  onDamage: (d: Damage) => void = () => {},
): { ok: true } | { ok: false; error: string } {
  const read = source.streamJsonl(
    SANDBOX_EVENTS,
    {},
    (r) => onLine(r, eventOf(r.value, { line: r.line, byteOffset: r.byteOffset, byteLength: r.byteLength })),
    onDamage,
  );
  return read.ok ? { ok: true } : { ok: false, error: read.error };
}

/** Is the event tied to the session: its time within the widened span, its workspace (if any) the session's cwd? */
export const inSpan = (e: SandboxEvent, s: SessionSpan): boolean =>
  s.startMs !== undefined &&
  s.endMs !== undefined &&
  s.startMs - SLACK_MS <= e.timeMs &&
  e.timeMs <= s.endMs + SLACK_MS &&
  (e.workspace === undefined || inGroup(e.workspace, s.group));
