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
import { clipMiddle, displayWidth } from './width.js';
import { wrapLines, wrapText } from './wrap.js';

export { GAP } from './draw.js';

export interface Column {
  head: string;
  kind: 'text' | 'token' | 'tokens';
  align?: 'right';
  /**
   * Narrowest the column may get before a token or a word goes on a line of its own (default: text 16; token and
   * tokens: their widest value). A token column given one is shortened in the middle below its widest value.
   */
  min?: number;
  /** Widest the column may get (its values are then wrapped; a token wider goes on a line of its own). */
  max?: number;
  /** The column may be left out when the table cannot fit otherwise; the highest number goes first. */
  drop?: number;
}

/** A cell: its text (escaped already; `\n` starts a new line inside it) and an optional colour. */
export type Cell = string | number | { text: string; paint?: Paint };

const cellText = (c: Cell): string => (typeof c === 'object' ? c.text : String(c));
const cellPaint = (c: Cell): Paint | undefined => (typeof c === 'object' ? c.paint : undefined);

function naturalWidth(c: Cell): number {
  let w = 0;
  for (const line of cellText(c).split('\n')) w = Math.max(w, displayWidth(line));
  return w;
}

function widestToken(c: Cell): number {
  let w = 0;
  for (const line of cellText(c).split('\n')) for (const t of line.split(' ')) w = Math.max(w, displayWidth(t));
  return w;
}

export interface Layout {
  columns: Column[];
  /** Index of each kept column in the columns given. */
  kept: number[];
  widths: number[];
  /** Heads of the columns left out. */
  dropped: string[];
  /**
   * False when even at their narrowest (`min`) the columns are wider than the width given: they are then narrowed
   * below it, and what does not fit a column goes on a line of its own.
   */
  fits: boolean;
  /** The width laid out for (a line of its own ends within it). */
  width: number;
}

const total = (widths: readonly number[]): number => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);

/** Narrow the widest of the columns `may` allows, a column at a time, down to `floor`, until `width` is met. */
function narrow(widths: number[], floor: (k: number) => number, may: (k: number) => boolean, width: number): void {
  let over = total(widths) - width;
  while (over > 0) {
    let best = -1;
    widths.forEach((w, k) => {
      if (!may(k) || w <= floor(k)) return;
      if (best < 0 || w > widths[best]!) best = k;
    });
    if (best < 0) return;
    widths[best]!--;
    over--;
  }
}

/** Widen the columns `may` allows, the narrowest first, a column at a time, up to `ceil`, while `width` allows. */
function grow(widths: number[], ceil: (k: number) => number, may: (k: number) => boolean, width: number): void {
  let room = width - total(widths);
  while (room > 0) {
    let best = -1;
    widths.forEach((w, k) => {
      if (!may(k) || w >= ceil(k)) return;
      if (best < 0 || w < widths[best]!) best = k;
    });
    if (best < 0) return;
    widths[best]!++;
    room--;
  }
}

/** The widest token of column `i` no wider than `room` (a token column's values; a tokens column's tokens). */
function widestWithin(col: Column, rows: readonly Cell[][], i: number, room: number): number {
  let w = 0;
  for (const r of rows) {
    if (r[i] === undefined) continue;
    for (const line of cellText(r[i]!).split('\n'))
      for (const t of col.kind === 'tokens' ? line.split(' ') : [line]) {
        const tw = displayWidth(t);
        if (tw <= room && tw > w) w = tw;
      }
  }
  return w;
}

/** Column widths for these rows in `width` terminal columns (see the file comment). */
export function layoutTable(columns: readonly Column[], rows: readonly Cell[][], width: number): Layout {
  const head = columns.map((col) => displayWidth(col.head));
  const natural = columns.map((col, i) => {
    let w = head[i]!;
    for (const r of rows) if (r[i] !== undefined) w = Math.max(w, naturalWidth(r[i]!));
    return col.max !== undefined ? Math.min(w, Math.max(col.max, head[i]!)) : w;
  });
  const floor = columns.map((col, i) => {
    if (col.kind === 'text') return Math.max(head[i]!, Math.min(natural[i]!, col.min ?? 16));
    let widest = natural[i]!;
    if (col.kind === 'tokens') {
      widest = head[i]!;
      for (const r of rows) if (r[i] !== undefined) widest = Math.max(widest, widestToken(r[i]!));
    }
    return Math.max(head[i]!, Math.min(natural[i]!, col.min ?? widest));
  });
  /** The longest word of a text column (as wide as it may get). */
  const word = columns.map((col, i) => {
    let w = 0;
    if (col.kind === 'text') for (const r of rows) if (r[i] !== undefined) w = Math.max(w, widestToken(r[i]!));
    return Math.min(w, natural[i]!);
  });
  let kept = columns.map((_, i) => i);
  const dropped: string[] = [];
  for (;;) {
    const widths = kept.map((i) => natural[i]!);
    const kind = (k: number): Column['kind'] => columns[kept[k]!]!.kind;
    const atFloor = (k: number): number => floor[kept[k]!]!;
    // Text first, while its longest word still fits; then tokens, between them; then text down to its floor, and
    // single tokens.
    narrow(
      widths,
      (k) => Math.max(atFloor(k), word[kept[k]!]!),
      (k) => kind(k) === 'text',
      width,
    );
    narrow(widths, atFloor, (k) => kind(k) === 'tokens', width);
    narrow(widths, atFloor, (k) => kind(k) === 'text', width);
    narrow(widths, atFloor, (k) => kind(k) === 'token', width);
    const layout = (fits: boolean): Layout => ({
      columns: kept.map((i) => columns[i]!),
      kept,
      widths,
      dropped,
      fits,
      width,
    });
    if (total(widths) <= width) return layout(true);
    const droppable = kept.filter((i) => columns[i]!.drop !== undefined);
    if (droppable.length === 0) {
      // Below the floors. A token column keeps room for the tokens that can fit beside the others' floors; the
      // wider ones go on lines of their own. Then down to the heads if still too wide, or what is left to the text.
      kept.forEach((ci, k) => {
        if (columns[ci]!.kind === 'text') return;
        const room = width - total(kept.map((cj, j) => (j === k ? 0 : floor[cj]!)));
        widths[k] = Math.min(widths[k]!, Math.max(head[ci]!, widestWithin(columns[ci]!, rows, ci, room)));
      });
      narrow(
        widths,
        (k) => head[kept[k]!]!,
        () => true,
        width,
      );
      grow(
        widths,
        (k) => natural[kept[k]!]!,
        (k) => kind(k) === 'text',
        width,
      );
      return layout(false);
    }
    const victim = droppable.reduce((a, b) => (columns[b]!.drop! > columns[a]!.drop! ? b : a));
    dropped.push(columns[victim]!.head);
    kept = kept.filter((i) => i !== victim);
  }
}

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
