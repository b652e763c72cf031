/**
 * Emission order from file order. Some agents buffer lines and write them after lines emitted later (the format's
 * timeline rules say which); a line's event-id counter says where it belongs. This orderer moves such lines back
 * among the lines of the same id prefix, within a bounded window, to the place after the last line emitted before
 * it; everything else keeps file order (id-less lines, ties, and drops that buffering cannot explain: a line that
 * would have to pass a line the writer cannot have delayed it past).
 */
import type { SessionEvent } from '../model/events.js';
import type { TimelineRules } from './rules.js';

export interface Displacement {
  /** The line written late. */
  event: SessionEvent;
  /** The first line it was emitted before. */
  before: SessionEvent;
}

export class EmissionOrderer {
  /** The window is `buf[head..]`; emitting from the front moves `head` (no shifting of the whole array). */
  private buf: SessionEvent[] = [];
  private head = 0;

  private readonly writtenLate: (late: SessionEvent, earlier: SessionEvent) => boolean;

  constructor(
    rules: TimelineRules,
    private readonly emit: (e: SessionEvent) => void,
    private readonly onDisplaced: (d: Displacement) => void = () => {},
    private readonly size = 512,
  ) {
    this.writtenLate = rules.writtenLate ?? (() => false);
  }

  push(e: SessionEvent): void {
    const c = e.counter;
    if (c === undefined) {
      this.flush();
      this.emit(e);
      return;
    }
    const buf = this.buf;
    let i = buf.length;
    // Move the line back past the lines of its prefix emitted after it, as far as the agent's writer can have
    // delayed it (e.g. a pending line passes only lines of another stream, never one of its own).
    while (i > this.head) {
      const prev = buf[i - 1]!;
      if (prev.eventPrefix !== e.eventPrefix || prev.counter === undefined || prev.counter <= c) break;
      if (!this.writtenLate(e, prev)) {
        // A line emitted after it that the writer cannot have put before it: the line does not fit anywhere the
        // writer can have delayed it to (a reordering, or a counter that started again), so it keeps its place
        // and the time analysis reports the drop.
        i = buf.length;
        break;
      }
      i--;
    }
    if (i < buf.length) {
      this.onDisplaced({ event: e, before: buf[i]! });
      buf.splice(i, 0, e);
    } else buf.push(e);
    while (buf.length - this.head > this.size) this.emit(buf[this.head++]!);
    // Drop the emitted prefix now and then, so the array stays about twice the window.
    if (this.head > this.size) {
      this.buf = buf.slice(this.head);
      this.head = 0;
    }
  }

  flush(): void {
    for (let k = this.head; k < this.buf.length; k++) this.emit(this.buf[k]!);
    this.buf = [];
    this.head = 0;
  }
}
