/**
 * RecentIds (the duplicate-counter window of the time analysis) against a plain model: a Map plus an array of
 * insertion order, evicting the oldest past the window. Any sequence of sets, gets and clears must agree.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { RecentIds } from '../../src/timeline/recent-ids.js';

class Model {
  private readonly m = new Map<number, number>();
  private readonly order: number[] = [];
  constructor(private readonly size: number) {}
  get(c: number): number | undefined {
    return this.m.get(c);
  }
  set(c: number, line: number): void {
    if (!this.m.has(c)) {
      this.order.push(c);
      if (this.order.length > this.size) this.m.delete(this.order.shift()!);
    }
    this.m.set(c, line);
  }
  clear(): void {
    this.m.clear();
    this.order.length = 0;
  }
}

// Counters: small (many repeats), strided (the same low bits, hostile to a naive hash), and huge safe integers.
const counter = fc.oneof(
  fc.integer({ min: 0, max: 64 }),
  fc.integer({ min: 0, max: 64 }).map((n) => n * 8192),
  fc.constantFrom(0, 2 ** 32, 2 ** 32 + 1, 2 ** 53 - 1, 2 ** 31 - 1, 2 ** 31),
);
const op = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constant('set' as const), counter, fc.nat()) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('get' as const), counter, fc.constant(0)) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('clear' as const), fc.constant(0), fc.constant(0)) },
);

test('agrees with a Map-and-queue model for any operations and window size', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 40 }), fc.array(op, { maxLength: 400 }), (size, ops) => {
      const a = new RecentIds(size);
      const b = new Model(size);
      for (const [kind, c, line] of ops) {
        if (kind === 'set') {
          a.set(c, line);
          b.set(c, line);
        } else if (kind === 'clear') {
          a.clear();
          b.clear();
        }
        expect(a.get(c)).toBe(b.get(c));
      }
      for (let c = 0; c <= 64; c++) expect(a.get(c)).toBe(b.get(c));
    }),
    { numRuns: 1000, seed: 20261129 },
  );
});

test('a window of 4096 over a million increasing counters keeps exactly the last 4096', () => {
  const a = new RecentIds(4096);
  for (let c = 0; c < 1_000_000; c++) a.set(c, c + 1);
  expect(a.get(1_000_000 - 4096 - 1)).toBeUndefined();
  expect(a.get(1_000_000 - 4096)).toBe(1_000_000 - 4096 + 1);
  expect(a.get(999_999)).toBe(1_000_000);
});
