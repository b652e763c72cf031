/**
 * The reader's damage invariant for the kinds of damage test/read/jsonl.property.test.ts does not generate
 * (that one covers truncation, garbage, zeros, healed and merged lines, 1000 runs): invalid UTF-8 inside a
 * line, an oversized line, a BOM, a blank line, a duplicated line, CR LF endings. Same invariant (DESIGN §4):
 * every complete record before the damage is accepted untouched, the damage is reported once at its byte
 * offset, no record is invented, and every record after it is still read. Plus: the result never depends on
 * how the bytes are chunked. Fixed seed, 1000 runs each.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { scan, type ScanResult } from '../helpers/scan.js';

const SEED = 20261201;
const RUNS = 1000;
const params = { seed: SEED, numRuns: RUNS, endOnFailure: true };

const record = fc.record({
  type: fc.constantFrom('user', 'assistant', 'tool_result'),
  text: fc.string({ unit: 'grapheme', maxLength: 30 }),
  n: fc.integer(),
});

type Damage =
  | { kind: 'utf8'; at: number; pos: number; bytes: readonly number[] }
  | { kind: 'oversized'; at: number; extra: number }
  | { kind: 'bom'; at: number }
  | { kind: 'blank'; at: number; spaces: number }
  | { kind: 'duplicate'; at: number }
  | { kind: 'crlf' };

const badUtf8: fc.Arbitrary<readonly number[]> = fc.constantFrom<readonly number[]>(
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xc3, 0x28],
  [0xe2, 0x28, 0xa1],
  [0x80],
);
const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('utf8' as const), at: fc.nat(), pos: fc.nat(), bytes: badUtf8 }),
  fc.record({ kind: fc.constant('oversized' as const), at: fc.nat(), extra: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('bom' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('blank' as const), at: fc.nat(), spaces: fc.nat({ max: 3 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
  fc.constant({ kind: 'crlf' as const }),
);

const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

function noInvention(input: Buffer, r: ScanResult): void {
  for (const rec of r.records)
    expect(JSON.parse(input.subarray(rec.byteOffset, rec.byteOffset + rec.byteLength).toString('utf8'))).toEqual(
      rec.value,
    );
}

test('damage invariant: invalid UTF-8, oversized, BOM, blank, duplicate, CR LF', () => {
  fc.assert(
    fc.property(
      fc.array(record, { minLength: 1, maxLength: 8 }),
      damage,
      fc.integer({ min: 1, max: 97 }),
      (recs, d, chunk) => {
        const lines = recs.map((x) => Buffer.from(JSON.stringify(x)));
        const longest = Math.max(...lines.map((l) => l.length));
        const at = 'at' in d ? d.at % (lines.length + (d.kind === 'blank' ? 1 : 0)) : 0;
        const parts: Buffer[] = [];
        const offsets: number[] = [];
        let pos = 0;
        const push = (b: Buffer): void => {
          offsets.push(pos);
          parts.push(b);
          pos += b.length;
        };
        let damageAt: number | undefined;
        let code = '';
        /** Original records expected out, in order, and how many sit fully before the damage. */
        let expected = recs.map(plain);
        let before = 0;
        let maxLineBytes: number | undefined;
        lines.forEach((l, i) => {
          if (i === at) {
            before = i;
            switch (d.kind) {
              case 'utf8': {
                // Inside the text value, so the line stays JSON-shaped around the bad bytes.
                // At a character boundary (not inside a multi-byte character of the text, which would move the error).
                const q = l.indexOf('"text":"') + 8;
                const end = l.indexOf('"', q);
                const boundaries: number[] = [];
                for (let k = q; k <= end; k++) if ((l[k]! & 0xc0) !== 0x80) boundaries.push(k);
                const p = boundaries[d.pos % boundaries.length]!;
                const bad = Buffer.concat([l.subarray(0, p), Buffer.from(d.bytes), l.subarray(p)]);
                damageAt = pos + p;
                code = 'JSONL_INVALID_UTF8';
                push(Buffer.concat([bad, Buffer.from('\n')]));
                expected = expected.filter((_, k) => k !== i);
                return;
              }
              case 'oversized': {
                maxLineBytes = longest;
                damageAt = pos;
                code = 'JSONL_OVERSIZED_LINE';
                push(Buffer.from(`${JSON.stringify({ type: 'user', text: 'x'.repeat(longest + d.extra) })}\n`));
                push(Buffer.concat([l, Buffer.from('\n')]));
                return;
              }
              case 'bom':
                damageAt = pos;
                code = 'JSONL_BOM';
                push(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), l, Buffer.from('\n')]));
                return;
              case 'blank':
                damageAt = pos;
                code = 'JSONL_BLANK_LINE';
                push(Buffer.from(`${' '.repeat(d.spaces)}\n`));
                push(Buffer.concat([l, Buffer.from('\n')]));
                return;
              case 'duplicate':
                push(Buffer.concat([l, Buffer.from('\n')]));
                damageAt = pos;
                code = 'JSONL_DUPLICATE_LINE';
                push(Buffer.concat([l, Buffer.from('\n')]));
                expected = [...expected.slice(0, i + 1), expected[i]!, ...expected.slice(i + 1)];
                before = i + 1;
                return;
              default:
                break;
            }
          }
          push(Buffer.concat([l, Buffer.from(d.kind === 'crlf' ? '\r\n' : '\n')]));
        });
        if (d.kind === 'blank' && at === lines.length) {
          before = lines.length;
          damageAt = pos;
          code = 'JSONL_BLANK_LINE';
          push(Buffer.from(`${' '.repeat(d.spaces)}\n`));
        }
        if (d.kind === 'crlf') {
          damageAt = 0;
          code = 'JSONL_CRLF';
          before = 0;
        }
        const input = Buffer.concat(parts);
        const opts = maxLineBytes !== undefined ? { maxLineBytes } : {};
        const r = scan(input, opts, chunk);
        noInvention(input, r);
        // Every original record comes out, in order (the damaged one excepted), none invented.
        expect(r.records.map((x) => x.value)).toEqual(expected);
        expect(r.records.slice(0, before).every((x) => x.recovered === undefined && x.duplicateOf === undefined)).toBe(
          true,
        );
        // The damage is reported exactly once, at its offset; nothing else is reported.
        expect(r.damage.map((x) => x.code)).toEqual([code]);
        expect(r.damage[0]!.byteOffset).toBe(damageAt);
        if (d.kind === 'crlf') expect(r.damage[0]!.count).toBe(lines.length);
        // However the bytes are chunked, the result is the same.
        for (const size of [1, 3, 64]) {
          const again = scan(input, opts, size);
          expect(again.records).toEqual(r.records);
          expect(again.damage).toEqual(r.damage);
          expect(again.stats).toEqual(r.stats);
        }
      },
    ),
    params,
  );
});
