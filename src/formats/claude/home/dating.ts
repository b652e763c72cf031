/**
 * The times a Claude Code home itself records, for the checks that grade a session whose transcript is gone by its
 * age: `history.jsonl` dates every prompt (`timestamp`, epoch ms, with its `sessionId`), and it is the one file of
 * the home Claude Code's cleanupPeriodDays never deletes (home-artifacts.md §3.1). Ages are measured against the
 * newest time it records that is not after the audit's clock (a later one is the history check's own finding), never
 * against the clock itself, so a report is the same whenever it is made.
 */
import type { HomeCheckContext } from '../../../checks/define-home.js';

export const HISTORY_FILE = 'history.jsonl';
export const DAY_MS = 86_400_000;
/** Claude Code's cleanupPeriodDays by default. */
export const CLEANUP_DAYS = 30;
/** A time this far after the audit's clock is in the future (the history check says so); never a reference. */
const FUTURE_SLACK_MS = DAY_MS;

export interface HomeDates {
  /** The newest time the history records, not after the audit's clock; undefined: it records none. */
  newest?: number;
  /** Each session's last prompt, by id. */
  lastBySession: ReadonlyMap<string, number>;
}

/** What history.jsonl dates (nothing when it is not in the home or cannot be read: every age is then unknown). */
export function homeDates(ctx: HomeCheckContext): HomeDates {
  const last = new Map<string, number>();
  let newest: number | undefined;
  if (!ctx.source.entry(HISTORY_FILE)) return { lastBySession: last };
  ctx.source.streamJsonl(
    HISTORY_FILE,
    {},
    (r) => {
      const v = r.value as { timestamp?: unknown; sessionId?: unknown } | null;
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return;
      const t = v.timestamp;
      if (typeof t !== 'number' || !Number.isFinite(t) || t > ctx.now + FUTURE_SLACK_MS) return;
      if (newest === undefined || t > newest) newest = t;
      if (typeof v.sessionId === 'string' && t > (last.get(v.sessionId) ?? Number.NEGATIVE_INFINITY))
        last.set(v.sessionId, t);
    },
    () => {},
  );
  return { ...(newest !== undefined ? { newest } : {}), lastBySession: last };
}

export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
