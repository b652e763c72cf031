/**
 * Terminal tables that fit the width they are given and use it: no borders (two spaces between columns, a rule
 * under the header), columns sized to their content, then narrowed where words can wrap. This file is the policy;
 * draw.ts hands the fitted cells to cli-table3, which draws them. Three kinds of cell: `text` wraps at its spaces,
 * never inside a word; `token` (an id, a code, a path) is never broken, and is shortened in the middle with an
 * ellipsis only in a column given a `min` (the caller's word that its full value is printed elsewhere); `tokens`
 * is unbreakable values separated by spaces (a location: `file:line @offset /pointer`), wrapped between them. A
 * column that cannot fit at all may be left out (`drop`), and the caller says so under the table. When even the
 * narrowest columns are wider than the width, columns go narrower still, and a word or a token wider than its
 * column goes whole on a line of its own, as far left as it must to end within the width (only a token wider than
 * the whole width is wider than it). Rows can be rendered one at a time with fixed widths (`TableWriter`), so a
 * table of a million rows never sits in memory.
 */
import type { Paint } from './ansi.js';
import { type DrawColumns, type DrawLine, drawLines, GAP } from './draw.js';
import { type Cell, type Column, cellPaint, cellText, type Layout, layoutTable, total } from './fit.js';
import { clipMiddle, displayWidth } from './width.js';
import { wrapLines, wrapText } from './wrap.js';

export { GAP } from './draw.js';
export { type Cell, type Column, type Layout, layoutTable } from './fit.js';

/** A cell's lines in `w` columns: a line wider than `w` is one word or token, to go on a line of its own. */
function cellLines(col: Column, text: string, w: number): string[] {
  if (col.kind === 'text') return wrapLines(text, w);
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (col.kind === 'token' && (col.min !== undefined || displayWidth(line) <= w)) {
      out.push(col.min !== undefined ? clipMiddle(line, w) : line);
      continue;
    }
    // Tokens, or a token's value too wide for its column: between the words it holds, if any.
    let cur = '';
    for (const tok of line.split(' ')) {
      if (!cur) cur = tok;
      else if (displayWidth(cur) + 1 + displayWidth(tok) <= w) cur += ` ${tok}`;
      else {
        out.push(cur);
        cur = tok;
      }
    }
    out.push(cur);
  }
  return out;
}

/** Renders the header and rows of a table with fixed column widths, one row at a time. */
export class TableWriter {
  private readonly draw: DrawColumns;
  /** Where each column starts. */
  private readonly starts: number[];

  constructor(
    readonly layout: Layout,
    private readonly headPaint: Paint = (s) => s,
    private readonly rulePaint: Paint = (s) => s,
  ) {
    this.draw = { widths: layout.widths, right: layout.columns.map((c) => c.align === 'right') };
    let x = 0;
    this.starts = layout.widths.map((w) => {
      const at = x;
      x += w + GAP;
      return at;
    });
  }

  /** The width the table takes. */
  get width(): number {
    return total(this.layout.widths);
  }

  /** The header and its rule, as lines to draw. */
  headerLines(): DrawLine[] {
    const { columns, widths } = this.layout;
    return [
      { cells: columns.map((c) => ({ text: c.head, paint: this.headPaint })) },
      { cells: widths.map((w) => ({ text: '─'.repeat(w), paint: this.rulePaint })) },
    ];
  }

  header(): string {
    return drawLines(this.draw, this.headerLines());
  }

  /** One row's lines to draw (cells in the order of the columns given to layoutTable). */
  rowLines(cells: readonly Cell[]): DrawLine[] {
    const { columns, widths, kept } = this.layout;
    const blocks = kept.map((ci, k) => {
      const cell = cells[ci] ?? '';
      return { lines: cellLines(columns[k]!, cellText(cell), widths[k]!), paint: cellPaint(cell) };
    });
    const height = Math.max(1, ...blocks.map((b) => b.lines.length));
    const out: DrawLine[] = [];
    for (let y = 0; y < height; y++) {
      const alone: DrawLine[] = [];
      const line = blocks.map((b, k) => {
        const text = b.lines[y] ?? '';
        const tw = displayWidth(text);
        if (tw <= widths[k]!) return { text, paint: b.paint };
        // Wider than its column: whole, on a line of its own, as far right as its column or as the width allows.
        alone.push({
          alone: text,
          indent: Math.max(0, Math.min(this.starts[k]!, this.layout.width - tw)),
          paint: b.paint,
        });
        return { text: '' };
      });
      // The lone tokens where their line of the cell is, before what the other cells hold on that line; on a row's
      // first line, after it (a row starts on its own line).
      const cells = line.some((c) => c.text !== '') || alone.length === 0 ? [{ cells: line }] : [];
      out.push(...(y === 0 ? [...cells, ...alone] : [...alone, ...cells]));
    }
    return out;
  }

  /** One row (cells in the order of the columns given to layoutTable), as lines ending in `\n`. */
  row(cells: readonly Cell[]): string {
    return drawLines(this.draw, this.rowLines(cells));
  }

  /** Lines drawn with this table's columns. */
  drawLines(lines: readonly DrawLine[]): string {
    return drawLines(this.draw, lines);
  }
}

/** How many lines of their own these rows take under this layout: the fewer, the better a layout reads. */
export function linesAlone(layout: Layout, rows: readonly Cell[][]): number {
  const w = new TableWriter(layout);
  let n = 0;
  for (const r of rows) for (const l of w.rowLines(r)) if ('alone' in l) n++;
  return n;
}

/** A whole table: header and rows, laid out for `width`. */
export function renderGrid(
  columns: readonly Column[],
  rows: readonly Cell[][],
  width: number,
  paints: { head?: Paint; rule?: Paint } = {},
): { text: string; layout: Layout } {
  const layout = layoutTable(columns, rows, width);
  const w = new TableWriter(layout, paints.head, paints.rule);
  const lines = w.headerLines();
  for (const r of rows) lines.push(...w.rowLines(r));
  return { text: w.drawLines(lines), layout };
}

/** The line under a table that names the columns left out for lack of width. */
export function droppedNote(layout: Layout, width: number, fuller: string): string {
  if (layout.dropped.length === 0) return '';
  const n = layout.dropped.length;
  const note =
    `(${layout.dropped.join(', ')} not shown at ${width} columns: ${n === 1 ? 'it needs' : 'they need'} a wider ` +
    `terminal or COLUMNS; ${fuller} has everything)`;
  return `${wrapText(note, width)}\n`;
}
