/**
 * Bounded terminal tables drawn by cli-table3: layout.ts decides the widths and each cell's lines (wrapped between
 * words, ids and paths never broken), cli-table3 pads and joins them, borderless (two spaces between columns, the
 * header and its rule given as rows). Where cli-table3 measures a line differently from layout.ts (a character
 * string-width 4 counts otherwise), it would misalign or cut it: that table is drawn by `TableWriter` instead,
 * which draws the same bytes as cli-table3 (test/cli-table.test.ts).
 */
import Table from 'cli-table3';
import utils from 'cli-table3/src/utils.js';
import type { Paint } from './ansi.js';
import { type Cell, cellLines, type Column, GAP, type Layout, layoutTable, TableWriter } from './layout.js';
import { displayWidth, pad } from './width.js';

const NONE = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: ' '.repeat(GAP),
};

/** The table's text, or undefined when cli-table3 would measure one of its lines otherwise than the layout. */
export function drawn(layout: Layout, rows: readonly Cell[][], head: Paint, rule: Paint): string | undefined {
  const { columns, widths, kept } = layout;
  const table = new Table({
    chars: NONE,
    colWidths: widths,
    colAligns: columns.map((c) => (c.align === 'right' ? 'right' : 'left')),
    wordWrap: false,
    style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [], compact: true },
  });
  table.push(columns.map((c, k) => head(pad(c.head, widths[k]!, c.align === 'right'))));
  table.push(widths.map((w) => rule('─'.repeat(w))));
  for (const r of rows) {
    const cells: string[] = [];
    for (const [k, ci] of kept.entries()) {
      const cell = r[ci] ?? '';
      const text = typeof cell === 'object' ? cell.text : String(cell);
      const paint = typeof cell === 'object' ? cell.paint : undefined;
      const lines = cellLines(columns[k]!, text, widths[k]!);
      for (const line of lines) if (utils.strlen(line) !== displayWidth(line)) return undefined;
      cells.push(lines.map((l) => (paint && l !== '' ? paint(l) : l)).join('\n'));
    }
    table.push(cells);
  }
  return `${table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
}

/** Header, rule and rows of a laid-out table. */
export function drawTable(
  layout: Layout,
  rows: readonly Cell[][],
  head: Paint = (s) => s,
  rule: Paint = (s) => s,
): string {
  const text = drawn(layout, rows, head, rule);
  if (text !== undefined) return text;
  const w = new TableWriter(layout, head, rule);
  let out = w.header();
  for (const r of rows) out += w.row(r);
  return out;
}

/** A whole table: header and rows, laid out for `width` by layout.ts, drawn by cli-table3. */
export function renderGrid(
  columns: readonly Column[],
  rows: readonly Cell[][],
  width: number,
  paints: { head?: Paint; rule?: Paint } = {},
): { text: string; layout: Layout } {
  const layout = layoutTable(columns, rows, width);
  return { text: drawTable(layout, rows, paints.head, paints.rule), layout };
}
