/**
 * Grok's replay-time rewind filter (storage/mod.rs `filter_rewind_by` + `UserRunTurnTracker`), applied as the
 * log streams: which user-chunk runs count as prompt turns, where each rewind marker cuts, and which lines a
 * rewind left on a dead branch. Lines are identified by their position (`seq`); nothing is held but positions.
 */
import type { TurnStep } from '../../model/events.js';

class UserRunTurnTracker {
  private seenMarker = false;
  private inUser = false;
  private currentRunPi: number | null = null;

  /** True when this chunk opens a counted turn. */
  onUserChunk(pi: number | null): boolean {
    if (pi !== null) this.seenMarker = true;
    const counts = this.seenMarker ? pi !== null : true;
    const newRun = !this.inUser ? true : this.seenMarker || pi !== null ? pi !== this.currentRunPi : false;
    this.inUser = true;
    if (newRun) {
      this.currentRunPi = pi;
      return counts;
    }
    return false;
  }

  onNonUser(): void {
    this.inUser = false;
    this.currentRunPi = null;
  }
}

export interface StepResult {
  /** Counted turn the line belongs to on the current branch (undefined before the first counted turn). */
  turn?: number;
  opensTurn?: boolean;
  rewind?: { target: number; turnsBefore: number; outOfRange: boolean };
}

export class RewindFilter {
  private readonly tracker = new UserRunTurnTracker();
  /** seq of the opening chunk of each counted turn on the live branch. */
  private starts: number[] = [];
  private readonly deadRanges: Array<[number, number]> = [];

  /** Feed one non-blank line in file order. */
  step(seq: number, step: TurnStep): StepResult {
    if (step.k === 'rewind') {
      const turnsBefore = this.starts.length;
      const outOfRange = step.target >= turnsBefore;
      if (!outOfRange) {
        this.deadRanges.push([this.starts[step.target]!, seq]);
        this.starts = this.starts.slice(0, step.target);
      }
      this.tracker.onNonUser();
      return { rewind: { target: step.target, turnsBefore, outOfRange }, ...this.current() };
    }
    if (step.k === 'user') {
      if (this.tracker.onUserChunk(step.pi)) {
        this.starts.push(seq);
        return { turn: this.starts.length - 1, opensTurn: true };
      }
    } else this.tracker.onNonUser();
    return this.current();
  }

  private current(): StepResult {
    return this.starts.length ? { turn: this.starts.length - 1 } : {};
  }

  get dead(): ReadonlyArray<readonly [number, number]> {
    return this.deadRanges;
  }

  get liveTurns(): number {
    return this.starts.length;
  }
}
