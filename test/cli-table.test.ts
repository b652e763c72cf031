/**
 * cli-table3 draws the bounded tables: byte for byte what the streamed writer (TableWriter, the timeline's rows)
 * draws, at every width, with and without colour; layout.ts alone decides the widths.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { colors } from '../src/report/ansi.js';
import { drawn, renderGrid } from '../src/report/cli-table.js';
import { type Cell, type Column, layoutTable, TableWriter } from '../src/report/layout.js';

const streamed = (columns: Column[], rows: Cell[][], width: number, on: boolean): string => {
  const c = colors(on);
  const w = new TableWriter(layoutTable(columns, rows, width), c.bold, c.dim);
  return w.header() + rows.map((r) => w.row(r)).join('');
};

const word = fc.stringMatching(/^[a-z0-9_./:-]{1,30}$/);
const text = fc.array(word, { minLength: 0, maxLength: 12 }).map((ws) => ws.join(' '));
const COLUMNS: Column[] = [
  { head: 'severity', kind: 'token' },
  { head: 'code', kind: 'token', drop: 1 },
  { head: 'location', kind: 'tokens', max: 48 },
  { head: 'n', kind: 'token', align: 'right' },
  { head: 'message', kind: 'text', min: 12 },
];

describe('tables drawn by cli-table3', () => {
  test('the same bytes as the streamed writer, any width, colour or not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(word, word, text, fc.nat(99999), text, fc.boolean()), { maxLength: 8 }),
        fc.integer({ min: 20, max: 220 }),
        fc.boolean(),
        (raw, width, on) => {
          const c = colors(on);
          const rows: Cell[][] = raw.map(([a, b, loc, n, msg, red]) => [
            red ? { text: a, paint: c.redBold } : a,
            b,
            loc,
            n,
            msg,
          ]);
          const layout = layoutTable(COLUMNS, rows, width);
          expect(drawn(layout, rows, c.bold, c.dim)).toBe(streamed(COLUMNS, rows, width, on));
          expect(renderGrid(COLUMNS, rows, width, { head: c.bold, rule: c.dim }).text).toBe(
            streamed(COLUMNS, rows, width, on),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
  test('wide characters and combining marks: still the same bytes', () => {
    const rows: Cell[][] = [['漢字', 'e\u0301', 'a/b.jsonl:3', 1, 'wide 漢字 text and é']];
    expect(renderGrid(COLUMNS, rows, 60).text).toBe(streamed(COLUMNS, rows, 60, false));
  });
});
