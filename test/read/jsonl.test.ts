import { describe, expect, test } from 'vitest';
import { isUtf8 } from 'node:buffer';
import { firstInvalidUtf8, trailingObjectStart } from '../../src/read/json-bytes.js';
import { codes, scan } from '../helpers/scan.js';

const A = '{"type":"user","n":1}';
const B = '{"type":"assistant","n":2}';
const C = '{"type":"tool_result","n":3}';

describe('clean input', () => {
  test('every line becomes a record with its line number, offset and length', () => {
    const r = scan(`${A}\n${B}\n${C}\n`);
    expect(r.damage).toEqual([]);
    expect(r.records.map((x) => [x.line, x.byteOffset, x.byteLength])).toEqual([
      [1, 0, A.length],
      [2, A.length + 1, B.length],
      [3, A.length + B.length + 2, C.length],
    ]);
    expect(r.stats).toMatchObject({ lines: 3, records: 3, endsWithNewline: true });
  });

  test('offsets count bytes, not characters', () => {
    const u = '{"t":"héllo → 🚀"}';
    const r = scan(`${u}\n${A}\n`);
    expect(r.records[1]!.byteOffset).toBe(Buffer.byteLength(u) + 1);
  });

  test('an empty file has no lines and no damage', () => {
    expect(scan('')).toMatchObject({ records: [], damage: [], stats: { lines: 0, endsWithNewline: true } });
  });
});

describe('damage, one code each', () => {
  test('torn tail: the last line has no newline and does not parse', () => {
    const r = scan(`${A}\n${B}\n{"type":"tool_res`);
    expect(codes(r)).toEqual(['JSONL_TORN_TAIL']);
    expect(r.damage[0]).toMatchObject({ line: 3, byteOffset: A.length + B.length + 2 });
    expect(r.records).toHaveLength(2);
  });

  test('unterminated tail: the last record parses but has no newline', () => {
    const r = scan(`${A}\n${B}`);
    expect(codes(r)).toEqual(['JSONL_UNTERMINATED_TAIL']);
    expect(r.records).toHaveLength(2);
  });

  test('bad line: a healed tear in the middle', () => {
    const r = scan(`${A}\n{"type":"assis\n${C}\n`);
    expect(codes(r)).toEqual(['JSONL_BAD_LINE']);
    expect(r.damage[0]).toMatchObject({ line: 2, byteOffset: A.length + 1 });
    expect(r.records.map((x) => x.line)).toEqual([1, 3]);
  });

  test('merged line: torn inside a string, next record glued on; the trailing record is recovered', () => {
    const torn = '{"type":"user","content":"ab';
    const r = scan(`${A}\n${torn}${B}\n${C}\n`);
    expect(codes(r)).toEqual(['JSONL_MERGED_LINE']);
    const rec = r.records.find((x) => x.recovered === 'merged')!;
    expect(rec).toMatchObject({
      line: 2,
      byteOffset: A.length + 1 + torn.length,
      byteLength: B.length,
      value: JSON.parse(B),
    });
  });

  test('merged line: two complete records on one line are both recovered', () => {
    const r = scan(`${A}${B}\n`);
    expect(codes(r)).toEqual(['JSONL_MERGED_LINE']);
    expect(r.records.map((x) => x.value)).toEqual([JSON.parse(A), JSON.parse(B)]);
  });

  test('merged line: three complete records glued on one line are all recovered, each at its own offset', () => {
    const r = scan(`${A}\n${A}${B}${C}\n`);
    expect(codes(r)).toEqual(['JSONL_MERGED_LINE']);
    const line = A.length + 1;
    expect(r.records.filter((x) => x.recovered === 'merged').map((x) => [x.byteOffset, x.byteLength])).toEqual([
      [line, A.length],
      [line + A.length, B.length],
      [line + A.length + B.length, C.length],
    ]);
    expect(r.damage[0]!.detail).toContain('3 complete records on one line');
  });

  test('merged line: a partial record with two complete records glued on loses only the partial one', () => {
    const torn = '{"type":"user","content":"ab';
    const r = scan(`${torn}${B}${C}\n`);
    expect(codes(r)).toEqual(['JSONL_MERGED_LINE']);
    expect(r.records.map((x) => [x.byteOffset, x.value])).toEqual([
      [torn.length, JSON.parse(B)],
      [torn.length + B.length, JSON.parse(C)],
    ]);
    expect(r.damage[0]!.detail).toMatch(/partial record with 2 complete records glued on .*the partial one is lost/);
  });

  test('a torn record ending in a nested object is not mistaken for a merge (no invented record)', () => {
    const torn =
      '{"timestamp":1,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan"}}';
    const r = scan(`${A}\n${torn}\n${C}\n`);
    expect(codes(r)).toEqual(['JSONL_BAD_LINE']);
    expect(r.records.map((x) => x.line)).toEqual([1, 3]);
  });

  test('a merge whose trailing object fails the record predicate is a bad line', () => {
    const r = scan(`${A}\n{"x":"ab{"not":"a record"}\n`, {
      looksLikeRecord: (v) => typeof v === 'object' && v !== null && 'type' in v,
    });
    expect(codes(r)).toEqual(['JSONL_BAD_LINE']);
  });

  test('invalid UTF-8 inside a line', () => {
    const bytes = Buffer.concat([
      Buffer.from(`${A}\n{"type":"user","t":"caf`),
      Buffer.from([0xe9]),
      Buffer.from(`"}\n${C}\n`),
    ]);
    const r = scan(bytes);
    expect(codes(r)).toEqual(['JSONL_INVALID_UTF8']);
    expect(r.damage[0]!.byteOffset).toBe(A.length + 1 + '{"type":"user","t":"caf'.length);
    expect(r.records).toHaveLength(2);
  });

  test('a tear inside a multi-byte character at the end of the file is a torn tail', () => {
    const bytes = Buffer.concat([Buffer.from(`${A}\n{"t":"`), Buffer.from('→').subarray(0, 2)]);
    const r = scan(bytes);
    expect(codes(r)).toEqual(['JSONL_TORN_TAIL']);
    expect(r.damage[0]!.detail).toMatch(/multi-byte UTF-8 character/);
  });

  test('NUL bytes: a zero-filled tail is reported once with its offset', () => {
    const bytes = Buffer.concat([Buffer.from(`${A}\n${B}\n`), Buffer.alloc(4096)]);
    const r = scan(bytes, {}, 1000);
    expect(codes(r)).toEqual(['JSONL_NUL_BYTES']);
    expect(r.damage[0]).toMatchObject({ line: 3, byteOffset: A.length + B.length + 2, byteLength: 4096 });
    expect(r.records).toHaveLength(2);
  });

  test('NUL bytes followed by an appended record: the record is recovered', () => {
    const bytes = Buffer.concat([Buffer.from(`${A}\n`), Buffer.alloc(16), Buffer.from(`${B}\n`)]);
    const r = scan(bytes);
    expect(codes(r)).toEqual(['JSONL_NUL_BYTES']);
    expect(r.records.map((x) => [x.byteOffset, x.recovered])).toEqual([
      [0, undefined],
      [A.length + 1 + 16, 'nul'],
    ]);
  });

  test('BOM at the start is reported and stripped', () => {
    const r = scan(`\ufeff${A}\n${B}\n`);
    expect(codes(r)).toEqual(['JSONL_BOM']);
    expect(r.records[0]).toMatchObject({ byteOffset: 3, recovered: 'bom' });
  });

  test('CRLF endings are reported once per file with the count', () => {
    const r = scan(`${A}\r\n${B}\r\n${C}\n`);
    expect(r.damage).toHaveLength(1);
    expect(r.damage[0]).toMatchObject({ code: 'JSONL_CRLF', count: 2, line: 1 });
    expect(r.records).toHaveLength(3);
  });

  test('blank and whitespace-only lines', () => {
    const r = scan(`${A}\n\n${B}\n  \t\n${C}\n`);
    expect(codes(r)).toEqual(['JSONL_BLANK_LINE', 'JSONL_BLANK_LINE']);
    expect(r.damage.map((d) => d.line)).toEqual([2, 4]);
  });

  test('duplicate adjacent lines are reported and both kept', () => {
    const r = scan(`${A}\n${B}\n${B}\n${C}\n`);
    expect(codes(r)).toEqual(['JSONL_DUPLICATE_LINE']);
    expect(r.damage[0]!.line).toBe(3);
    expect(r.records[2]).toMatchObject({ duplicateOf: 2 });
  });

  test('oversized line: skipped with bounded memory, the next line is read', () => {
    const big = `{"type":"x","pad":"${'a'.repeat(5000)}"}`;
    const r = scan(`${A}\n${big}\n${C}\n`, { maxLineBytes: 1000 }, 64);
    expect(codes(r)).toEqual(['JSONL_OVERSIZED_LINE']);
    expect(r.damage[0]).toMatchObject({ line: 2, byteOffset: A.length + 1, byteLength: big.length });
    expect(r.records.map((x) => x.line)).toEqual([1, 3]);
  });

  test('an oversized line at the end of the file without a newline', () => {
    const r = scan(`${A}\n${'x'.repeat(3000)}`, { maxLineBytes: 1000 }, 100);
    expect(codes(r)).toEqual(['JSONL_OVERSIZED_LINE']);
    expect(r.damage[0]!.detail).toMatch(/ends inside it/);
  });

  test('a flood of one damage kind is capped and summarised', () => {
    const input = `${A}\n${'\n'.repeat(120)}${B}\n`;
    const r = scan(input, { maxReportsPerCode: 10 });
    expect(r.damage.filter((d) => d.code === 'JSONL_BLANK_LINE')).toHaveLength(11);
    expect(r.damage.at(-1)).toMatchObject({ count: 110 });
  });
});

test('results do not depend on how the bytes are chunked', () => {
  const input = Buffer.concat([
    Buffer.from(`\ufeff${A}\r\n\n${B}\n${B}\n{"type":"x","t":"ab${C}\n`),
    Buffer.from([0xff, 0x0a]),
    Buffer.alloc(10),
    Buffer.from(`\n{"type":"x","t":"→`),
  ]);
  const reference = scan(input);
  for (const size of [1, 2, 3, 7, 64]) expect(scan(input, {}, size)).toEqual(reference);
});

describe('helpers', () => {
  test('firstInvalidUtf8 agrees with the platform validator', () => {
    const samples = [
      Buffer.from('ok'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from([0xe2, 0x82]),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xf4, 0x90, 0x80, 0x80]),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from('🚀→é'),
    ];
    for (const b of samples) expect(firstInvalidUtf8(b) === b.length).toBe(isUtf8(b));
  });

  test('trailingObjectStart finds the last top-level object, ignoring braces in strings', () => {
    expect(trailingObjectStart(Buffer.from('{"a":"x}{"}{"b":"{"}'))).toBe(11);
    expect(trailingObjectStart(Buffer.from('{"a":"x\\"}{\\"y"}'))).toBe(0);
    expect(trailingObjectStart(Buffer.from('no object'))).toBe(-1);
  });
});
