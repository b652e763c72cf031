/**
 * Values from session content shown in messages and outputs: JSON text that never throws (a record nested too
 * deeply for JSON.stringify's recursion still parsed), and times that never throw (a JSON number can be far
 * outside what a Date holds).
 */

/** The largest |milliseconds| a Date can hold (ECMA-262 §21.4.1.1). */
export const MAX_TIME_MS = 8.64e15;

/** A millisecond time a Date can hold, or undefined. */
export const validTimeMs = (ms: number | undefined): number | undefined =>
  ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= MAX_TIME_MS ? ms : undefined;

/** ISO 8601 of a millisecond time, or undefined when there is none or it is out of range. */
export function isoTime(ms: number | undefined): string | undefined {
  const v = validTimeMs(ms);
  return v === undefined ? undefined : new Date(v).toISOString();
}

/** JSON.stringify that cannot throw: too deep (or cyclic) values become a short note. */
export function showJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return '"(a value nested too deeply to show)"';
  }
}
