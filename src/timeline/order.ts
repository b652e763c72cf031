/**
 * Emission order from file order. Grok buffers streamed text chunks and writes the merged line only when the
 * next ACP update arrives, while xAI updates are written at once (persistence.rs:1642-1647): on disk a text
 * chunk can follow lines emitted after it. Its `_meta.eventId` counter says where it belongs. This orderer moves
 * such chunk lines back among the lines of the same id prefix, within a bounded window; everything else keeps
 * file order (id-less legacy lines, ties, and drops that buffering cannot explain).
 */
import type { SessionEvent } from '../model/events.js';

const BUFFERED = new Set(['model_text', 'thought']);

export interface Displacement {
  /** The line written late. */
  event: SessionEvent;
  /** The first line it was emitted before. */
  before: SessionEvent;
}

export class EmissionOrderer {
  private window: SessionEvent[] = [];

  constructor(
    private readonly emit: (e: SessionEvent) => void,
    private readonly onDisplaced: (d: Displacement) => void = () => {},
    private readonly size = 512,
  ) {}

  push(e: SessionEvent): void {
    const c = e.counter;
    if (c === undefined) {
      this.flush();
      this.emit(e);
      return;
    }
    let i = this.window.length;
    if (BUFFERED.has(e.kind)) {
      while (i > 0) {
        const prev = this.window[i - 1]!;
        if (prev.eventPrefix !== e.eventPrefix || prev.counter === undefined || prev.counter <= c) break;
        i--;
      }
    }
    if (i < this.window.length) this.onDisplaced({ event: e, before: this.window[i]! });
    this.window.splice(i, 0, e);
    while (this.window.length > this.size) this.emit(this.window.shift()!);
  }

  flush(): void {
    for (const e of this.window) this.emit(e);
    this.window = [];
  }
}
