/**
 * The last `size` event-id counters seen, each with the line it was seen on: the window in which a repeated
 * counter is reported as a duplicate. Called once per event of logs with millions of them, so it allocates
 * nothing per call: an open-addressing table in one typed array (linear probing, Fibonacci hashing so strided
 * counters spread, deletion by backward shift) plus a ring of insertion order for evicting the oldest.
 * The table starts small and doubles up to twice the window, so a log with many id prefixes stays small.
 */
export class RecentIds {
  /** Pairs (counter, line + 1) by slot; a slot is empty when its second number is 0. One array per window. */
  private table: Float64Array;
  private mask: number;
  private shift: number;
  private count = 0;
  private readonly ring: number[] = [];
  private head = 0;

  constructor(private readonly size: number) {
    this.table = new Float64Array(2 * 8);
    this.mask = 7;
    this.shift = 29;
  }

  private home(counter: number): number {
    const lo = counter >>> 0;
    const hi = (counter / 4294967296) >>> 0;
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  /** The slot holding `counter`, or -1 - (the empty slot where it would go). */
  private slot(counter: number): number {
    const t = this.table;
    let i = this.home(counter);
    while (t[2 * i + 1] !== 0) {
      if (t[2 * i] === counter) return i;
      i = (i + 1) & this.mask;
    }
    return -1 - i;
  }

  get(counter: number): number | undefined {
    const i = this.slot(counter);
    return i >= 0 ? this.table[2 * i + 1]! - 1 : undefined;
  }

  set(counter: number, line: number): void {
    let i = this.slot(counter);
    if (i >= 0) {
      this.table[2 * i + 1] = line + 1;
      return;
    }
    if (this.ring.length < this.size) this.ring.push(counter);
    else {
      this.remove(this.ring[this.head]!);
      this.ring[this.head] = counter;
      this.head = (this.head + 1) % this.size;
      i = this.slot(counter);
    }
    if ((this.count + 1) * 2 > this.mask + 1) {
      this.grow();
      i = this.slot(counter);
    }
    i = -1 - i;
    this.table[2 * i] = counter;
    this.table[2 * i + 1] = line + 1;
    this.count++;
  }

  clear(): void {
    this.table.fill(0);
    this.count = 0;
    this.ring.length = 0;
    this.head = 0;
  }

  private remove(counter: number): void {
    const t = this.table;
    let i = this.slot(counter);
    if (i < 0) return;
    // Backward shift: move later members of the probe run into the hole when their home allows it.
    let j = i;
    for (;;) {
      j = (j + 1) & this.mask;
      if (t[2 * j + 1] === 0) break;
      const k = this.home(t[2 * j]!);
      const movable = i <= j ? k <= i || k > j : k <= i && k > j;
      if (movable) {
        t[2 * i] = t[2 * j]!;
        t[2 * i + 1] = t[2 * j + 1]!;
        i = j;
      }
    }
    t[2 * i + 1] = 0;
    this.count--;
  }

  private grow(): void {
    const old = this.table;
    const cap = (this.mask + 1) * 2;
    this.table = new Float64Array(2 * cap);
    this.mask = cap - 1;
    this.shift--;
    for (let s = 0; s < old.length; s += 2) {
      if (old[s + 1] === 0) continue;
      const i = -1 - this.slot(old[s]!);
      this.table[2 * i] = old[s]!;
      this.table[2 * i + 1] = old[s + 1]!;
    }
  }
}
