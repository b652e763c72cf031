/**
 * The last `size` event-id counters seen, each with the line it was seen on: the window in which a repeated
 * counter is reported as a duplicate. Called once per event of logs with millions of them, so it allocates
 * nothing per call: an open-addressing table of typed arrays (linear probing, Fibonacci hashing so strided
 * counters spread, deletion by backward shift) plus a ring of insertion order for evicting the oldest.
 * The table starts small and doubles up to twice the window, so a log with many id prefixes stays small.
 */
export class RecentIds {
  private keys: Float64Array;
  private lines: Float64Array;
  private used: Uint8Array;
  private mask: number;
  private shift: number;
  private count = 0;
  private readonly ring: number[] = [];
  private head = 0;

  constructor(private readonly size: number) {
    this.keys = new Float64Array(16);
    this.lines = new Float64Array(16);
    this.used = new Uint8Array(16);
    this.mask = 15;
    this.shift = 28;
  }

  private home(counter: number): number {
    const lo = counter >>> 0;
    const hi = (counter / 4294967296) >>> 0;
    return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> this.shift;
  }

  private slot(counter: number): number {
    let i = this.home(counter);
    while (this.used[i] === 1) {
      if (this.keys[i] === counter) return i;
      i = (i + 1) & this.mask;
    }
    return -1 - i;
  }

  get(counter: number): number | undefined {
    const i = this.slot(counter);
    return i >= 0 ? this.lines[i] : undefined;
  }

  set(counter: number, line: number): void {
    let i = this.slot(counter);
    if (i >= 0) {
      this.lines[i] = line;
      return;
    }
    if (this.ring.length < this.size) this.ring.push(counter);
    else {
      this.remove(this.ring[this.head]!);
      this.ring[this.head] = counter;
      this.head = (this.head + 1) % this.size;
      i = this.slot(counter);
    }
    if ((this.count + 1) * 2 > this.keys.length) {
      this.grow();
      i = this.slot(counter);
    }
    i = -1 - i;
    this.used[i] = 1;
    this.keys[i] = counter;
    this.lines[i] = line;
    this.count++;
  }

  clear(): void {
    this.used.fill(0);
    this.count = 0;
    this.ring.length = 0;
    this.head = 0;
  }

  private remove(counter: number): void {
    let i = this.slot(counter);
    if (i < 0) return;
    // Backward shift: move later members of the probe run into the hole when their home allows it.
    let j = i;
    for (;;) {
      j = (j + 1) & this.mask;
      if (this.used[j] === 0) break;
      const k = this.home(this.keys[j]!);
      const movable = i <= j ? k <= i || k > j : k <= i && k > j;
      if (movable) {
        this.keys[i] = this.keys[j]!;
        this.lines[i] = this.lines[j]!;
        i = j;
      }
    }
    this.used[i] = 0;
    this.count--;
  }

  private grow(): void {
    const { keys, lines, used } = this;
    const cap = keys.length * 2;
    this.keys = new Float64Array(cap);
    this.lines = new Float64Array(cap);
    this.used = new Uint8Array(cap);
    this.mask = cap - 1;
    this.shift--;
    for (let s = 0; s < used.length; s++) {
      if (used[s] !== 1) continue;
      const i = -1 - this.slot(keys[s]!);
      this.used[i] = 1;
      this.keys[i] = keys[s]!;
      this.lines[i] = lines[s]!;
    }
  }
}
