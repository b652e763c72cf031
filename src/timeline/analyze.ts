/**
 * Time facts over the authoritative log in emission order: clocks going backwards, event-id counters that repeat
 * or go down, and the points where a new process picked the session up. Shared by the TIME_* check and the
 * timeline command, so both tell the same story.
 */
import { closesTurn, type SessionEvent } from '../model/events.js';
import { RecentIds } from './recent-ids.js';
import type { TimelineRules } from './rules.js';

export type TimeFact =
  | { code: 'TIME_BACKWARDS'; event: SessionEvent; previous: SessionEvent; deltaMs: number }
  | { code: 'TIME_EVENT_ID_DUPLICATE'; event: SessionEvent; firstLine: number }
  | { code: 'TIME_EVENT_ID_REGRESSION'; event: SessionEvent; previous: SessionEvent }
  | { code: 'TIME_RESUME_BOUNDARY'; event: SessionEvent; reasons: string[] };

/** Clock tolerance: envelope timestamps are whole seconds; agent timestamps come from one clock per process. */
const TOLERANCE_MS = 2000;
const GAP_MS = 5 * 60_000;
const RESEED_JUMP = 500;
const DUP_WINDOW = 4096;
/** How many of the latest highest counters of a prefix a line below them is checked against (a power of two). */
const RECENT_MAX = 32;

/** The highest counter of an id prefix so far, and the lines that last raised it (a ring, newest at n - 1). */
interface PrefixMax {
  counter: number;
  e: SessionEvent;
  recent: SessionEvent[];
  n: number;
}

const newMax = (e: SessionEvent): PrefixMax => ({ counter: e.counter!, e, recent: [e], n: 1 });
const raise = (max: PrefixMax, e: SessionEvent): void => {
  max.counter = e.counter!;
  max.e = e;
  max.recent[max.n++ & (RECENT_MAX - 1)] = e;
};

export class TimeAnalyzer {
  private maxTime?: SessionEvent;
  private prev?: SessionEvent;
  private readonly maxCounter = new Map<string, PrefixMax>();
  private readonly recent = new Map<string, RecentIds>();
  /** The prefix of the previous event and its window (consecutive events almost always share one). */
  private lastPrefix?: string;
  private lastSeen?: RecentIds;
  private lastMax?: PrefixMax;
  private turnsOpened = 0;
  private turnOpen = false;
  private turnCompleted = false;
  /** A resume boundary is reported once, with the evidence of the few lines around it merged. */
  private pending?: { fact: Extract<TimeFact, { code: 'TIME_RESUME_BOUNDARY' }>; age: number };

  private readonly writtenLate: (late: SessionEvent, earlier: SessionEvent) => boolean;
  private readonly announcesLoad: (e: SessionEvent) => boolean;

  constructor(
    private readonly rules: TimelineRules,
    private readonly report: (f: TimeFact) => void,
  ) {
    this.writtenLate = rules.writtenLate ?? (() => false);
    this.announcesLoad = rules.announcesLoad ?? (() => false);
  }

  /** Feed events in emission order. */
  push(e: SessionEvent): void {
    const duplicateLine = e.duplicateLine === true;
    this.reasons = undefined;
    const prev = this.prev;
    // Clock
    if (e.timeMs !== undefined) {
      if (this.maxTime?.timeMs !== undefined && e.timeMs < this.maxTime.timeMs - TOLERANCE_MS) {
        this.report({
          code: 'TIME_BACKWARDS',
          event: e,
          previous: this.maxTime,
          deltaMs: this.maxTime.timeMs - e.timeMs,
        });
        // One report per step back: the clock continues from here.
        this.maxTime = e;
      }
      if (this.maxTime?.timeMs === undefined || e.timeMs > this.maxTime.timeMs) this.maxTime = e;
    }
    // Event-id counters, per prefix (forks keep the source's prefix on copied lines)
    if (e.counter !== undefined && e.eventPrefix !== undefined && !duplicateLine) {
      const p = e.eventPrefix;
      let seen: RecentIds | undefined;
      let max: PrefixMax | undefined;
      if (p === this.lastPrefix) {
        seen = this.lastSeen!;
        max = this.lastMax;
      } else {
        seen = this.recent.get(p);
        if (!seen) this.recent.set(p, (seen = new RecentIds(DUP_WINDOW)));
        max = this.maxCounter.get(p);
        this.lastPrefix = p;
        this.lastSeen = seen;
        this.lastMax = max;
      }
      // A repeat of the highest counter is a duplicate; a counter below it (in emission order) starts a regression.
      // Every counter remembered is at most the highest one, so a new highest needs no look-up.
      // Below the highest counter, but the agent's writer can have put this line after the lines above it: not a
      // regression.
      const late = max !== undefined && e.counter < max.counter && this.fitsLate(e, max);
      const first =
        max && e.counter < max.counter && !late
          ? undefined
          : max && e.counter > max.counter
            ? undefined
            : seen.get(e.counter);
      if (first !== undefined) this.report({ code: 'TIME_EVENT_ID_DUPLICATE', event: e, firstLine: first });
      else {
        seen.set(e.counter, e.line);
      }
      if (max && e.counter < max.counter && first === undefined && !late) {
        this.report({ code: 'TIME_EVENT_ID_REGRESSION', event: e, previous: max.e });
        this.because(
          `the eventId counter drops from ${max.counter} (line ${max.e.line}) to ${e.counter}: a new process that ` +
            `did not re-seed it`,
        );
        max.counter = e.counter;
        max.e = e;
        max.recent[0] = e;
        max.n = 1;
        // A new counter epoch: ids of the old one may come again without being duplicates.
        seen.clear();
        seen.set(e.counter, e.line);
      } else if (!max || e.counter > max.counter) {
        if (
          max &&
          prev?.counter !== undefined &&
          prev.eventPrefix === p &&
          e.counter - max.counter > RESEED_JUMP &&
          prev.timeMs !== undefined &&
          e.timeMs !== undefined &&
          e.timeMs - prev.timeMs > GAP_MS
        ) {
          this.because(
            `the eventId counter jumps from ${max.counter} to ${e.counter} after ` +
              `${Math.round((e.timeMs - prev.timeMs) / 60_000)} min of silence: a new process re-seeded it`,
          );
        }
        if (max) raise(max, e);
        else {
          this.maxCounter.set(p, (max = newMax(e)));
          this.lastMax = max;
        }
      }
    }
    // Session (re)load announcements and turns cut off without an end
    if (this.turnsOpened > 0 && this.announcesLoad(e)) this.because(this.rules.loadReason);
    if (e.opensTurn) {
      if (
        this.turnOpen &&
        !this.turnCompleted &&
        prev?.timeMs !== undefined &&
        e.timeMs !== undefined &&
        e.timeMs - prev.timeMs > GAP_MS
      ) {
        this.because(
          `the previous turn never completed and this prompt comes ` +
            `${Math.round((e.timeMs - prev.timeMs) / 60_000)} min later: a crash, then a resume`,
        );
      }
      this.turnsOpened++;
      this.turnOpen = true;
      this.turnCompleted = false;
    }
    if (closesTurn(e)) this.turnCompleted = true;
    if (this.pending && ++this.pending.age > 3) this.flushPending();
    const reasons = this.reasons as string[] | undefined;
    if (reasons) {
      if (this.pending) this.pending.fact.reasons.push(...reasons);
      else this.pending = { fact: { code: 'TIME_RESUME_BOUNDARY', event: e, reasons }, age: 0 };
    }
    this.prev = e;
  }

  /**
   * `e` comes below the highest counter of its prefix: the agent's writer can have written it late, after each of
   * the latest lines that raised the counter above it, down to one emitted before it. A line it cannot be written
   * after on the way (e.g. a line of its own stream above it) means it does not fit: a drop. Past the
   * lines remembered, the benefit of the doubt.
   */
  private fitsLate(e: SessionEvent, max: PrefixMax): boolean {
    const k = Math.min(max.n, RECENT_MAX);
    for (let j = 1; j <= k; j++) {
      const x = max.recent[(max.n - j) & (RECENT_MAX - 1)]!;
      if (x.counter! < e.counter!) return true;
      if (!this.writtenLate(e, x)) return false;
    }
    return true;
  }

  /** Evidence of a resume at the current event (allocated only when there is some). */
  private reasons: string[] | undefined;
  private because(r: string): void {
    (this.reasons ??= []).push(r);
  }

  private flushPending(): void {
    if (this.pending) this.report(this.pending.fact);
    this.pending = undefined;
  }

  end(): void {
    this.flushPending();
  }
}
