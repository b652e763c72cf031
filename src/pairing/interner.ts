/**
 * One store of the short strings that repeat across a session's tool calls (kinds, names, event-id prefixes),
 * shared by the collector and its log-call table.
 */
import { keep } from '../model/events.js';

/** Interns repeated short strings (tool kinds and names) so each distinct value is stored once. */
export class Interner {
  private readonly m = new Map<string, string>();
  get(s: string): string {
    let v = this.m.get(s);
    if (v === undefined) {
      v = keep(s);
      if (this.m.size < 10_000) this.m.set(v, v);
    }
    return v;
  }
}
