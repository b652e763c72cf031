/**
 * The reader's damage invariant (DESIGN §4), property-tested with a fixed seed: for any valid records followed
 * by any damage, every complete line before the damage is accepted, the damage is reported once at its byte
 * offset, and no record is invented (every delivered record is exactly the JSON of the bytes it points to).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { scan, type ScanResult } from '../helpers/scan.js';

const SEED = 20261129;
const RUNS = 1000;

const record = fc.record({
  type: fc.constantFrom('user', 'assistant', 'tool_result', 'reasoning'),
  text: fc.string({ unit: 'grapheme', maxLength: 40 }),
  n: fc.integer(),
  nested: fc.option(fc.record({ k: fc.string({ maxLength: 8 }), v: fc.array(fc.integer(), { maxLength: 3 }) }), {
    nil: undefined,
  }),
});

type Damage =
  | { kind: 'truncate'; cut: number }
  | { kind: 'garbage'; bytes: Uint8Array }
  | { kind: 'zeros'; n: number }
  | { kind: 'healed'; at: number; cut: number }
  | { kind: 'merged'; at: number; cut: number };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), cut: fc.nat() }),
  fc.record({
    kind: fc.constant('garbage' as const),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 30 }).map((b) => b.map((x) => (x === 10 ? 11 : x))),
  }),
  fc.record({ kind: fc.constant('zeros' as const), n: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ kind: fc.constant('healed' as const), at: fc.nat(), cut: fc.nat() }),
  fc.record({ kind: fc.constant('merged' as const), at: fc.nat(), cut: fc.nat() }),
);

const isType = (v: unknown): boolean => typeof v === 'object' && v !== null && 'type' in v;

function noInvention(input: Buffer, r: ScanResult): void {
  for (const rec of r.records) {
    const bytes = input.subarray(rec.byteOffset, rec.byteOffset + rec.byteLength);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(rec.value);
  }
}

test('reader damage invariant', () => {
  fc.assert(
    fc.property(
      fc.array(record, { minLength: 1, maxLength: 8 }),
      damage,
      fc.integer({ min: 1, max: 97 }),
      fc.boolean(),
      (recs, d, chunk, typed) => {
        const lines = recs.map((x) => JSON.stringify(x));
        const full = lines.map((l) => Buffer.from(`${l}\n`));
        const offsets: number[] = [];
        let at = 0;
        for (const b of full) {
          offsets.push(at);
          at += b.length;
        }
        let input: Buffer;
        let damageAt: number | undefined;
        let intactBefore: number; // number of original records fully before the damage
        let expectCodes: string[];
        const last = Buffer.from(lines.at(-1)!);

        switch (d.kind) {
          case 'truncate': {
            const cut = d.cut % (last.length + 1);
            input = Buffer.concat([...full.slice(0, -1), last.subarray(0, cut)]);
            intactBefore = lines.length - 1;
            damageAt = cut === 0 ? undefined : offsets.at(-1)!;
            expectCodes = cut === 0 ? [] : cut === last.length ? ['JSONL_UNTERMINATED_TAIL'] : ['JSONL_TORN_TAIL'];
            break;
          }
          case 'garbage': {
            input = Buffer.concat([...full, Buffer.from(d.bytes)]);
            intactBefore = lines.length;
            damageAt = Buffer.concat(full).length;
            expectCodes = [];
            break;
          }
          case 'zeros': {
            input = Buffer.concat([...full, Buffer.alloc(d.n)]);
            intactBefore = lines.length;
            damageAt = Buffer.concat(full).length;
            expectCodes = ['JSONL_NUL_BYTES'];
            break;
          }
          case 'healed':
          case 'merged': {
            const at = d.at % lines.length;
            const victim = Buffer.from(lines[at]!);
            const cut = 1 + (d.cut % (victim.length - 1));
            const torn = victim.subarray(0, cut);
            const sep = d.kind === 'healed' ? Buffer.from('\n') : Buffer.alloc(0);
            input = Buffer.concat([...full.slice(0, at), torn, sep, ...full.slice(at)]);
            intactBefore = at;
            damageAt = offsets[at]!;
            expectCodes =
              d.kind === 'healed'
                ? ['JSONL_BAD_LINE', 'JSONL_INVALID_UTF8']
                : ['JSONL_MERGED_LINE', 'JSONL_BAD_LINE', 'JSONL_INVALID_UTF8'];
            break;
          }
        }

        const r = scan(input, typed ? { looksLikeRecord: isType } : {}, chunk);
        noInvention(input, r);
        if (d.kind !== 'garbage') {
          // Only original records come out: never a nested object mistaken for a record.
          const originals = recs.map((x) => JSON.stringify(JSON.parse(JSON.stringify(x))));
          for (const rec of r.records) expect(originals).toContain(JSON.stringify(rec.value));
        }
        // Every complete record before the damage is delivered, in order, untouched.
        expect(r.records.slice(0, intactBefore).map((x) => x.value)).toEqual(
          recs.slice(0, intactBefore).map((x) => JSON.parse(JSON.stringify(x))),
        );
        expect(r.records.slice(0, intactBefore).every((x) => x.recovered === undefined)).toBe(true);
        // Nothing is ever reported before the damage; the damage is reported once, at its offset.
        const dmg = r.damage.filter((x) => x.code !== 'JSONL_DUPLICATE_LINE');
        if (damageAt === undefined) {
          expect(dmg).toEqual([]);
          return;
        }
        expect(dmg).toHaveLength(1);
        expect(dmg[0]!.byteOffset).toBeGreaterThanOrEqual(damageAt);
        if (d.kind !== 'zeros' && d.kind !== 'garbage') expect(dmg[0]!.byteOffset).toBe(damageAt);
        if (d.kind === 'zeros') expect(dmg[0]!.byteOffset).toBe(damageAt);
        if (expectCodes.length) expect(expectCodes).toContain(dmg[0]!.code);
        // After a healed or merged line, every later original record is delivered too.
        if (d.kind === 'healed' || d.kind === 'merged') {
          const after = r.records
            .filter((x) => x.byteOffset > damageAt! && x.recovered === undefined)
            .map((x) => x.value);
          const at = d.at % lines.length;
          const expected = recs.slice(at).map((x) => JSON.parse(JSON.stringify(x)));
          if (d.kind === 'merged' && dmg[0]!.code === 'JSONL_MERGED_LINE')
            expect([r.records.find((x) => x.recovered === 'merged')!.value, ...after]).toEqual(expected);
          else if (d.kind === 'merged') expect(after).toEqual(expected.slice(1));
          else expect(after).toEqual(expected);
        }
      },
    ),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
});
