/**
 * Terminal tables that fit the width they are given and use it: no borders (two spaces between columns, a rule
 * under the header), columns sized to their content, then narrowed where words can wrap. Three kinds of cell:
 * `text` wraps between words; `token` (an id, a code, a path) is never broken: when it cannot fit it is shortened
 * in the middle with an ellipsis, and only in a column whose full value is printed elsewhere; `tokens` is
 * unbreakable values separated by spaces (a location: `file:line @offset /pointer`), wrapped between them. A column
 * that cannot fit at all may be left out (`drop`), and the caller says so under the table. Rows can be rendered
 * one at a time with fixed widths (`TableWriter`), so a table of a million rows never sits in memory.
 */
import { clipMiddle, displayWidth, pad } from './width.js';
import { wrapLines, wrapText } from './wrap.js';
import type { Paint } from './ansi.js';

export interface Column {
  head: string;
  kind: 'text' | 'token' | 'tokens';
  align?: 'right';
  /** Narrowest the column may get (default: text 16; token and tokens: their widest value). */
  min?: number;
  /** Widest the column may get (its values are then wrapped or shortened). */
  max?: number;
  /** The column may be left out when the table cannot fit otherwise; the highest number goes first. */
  drop?: number;
}

/** A cell: its text (escaped already; `\n` starts a new line inside it) and an optional colour. */
export type Cell = string | number | { text: string; paint?: Paint };

export const GAP = 2;

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
  /** False when even at their narrowest the columns are wider than the width given. */
  fits: boolean;
}

/** Column widths for these rows in `width` terminal columns (see the file comment). */
export function layoutTable(columns: readonly Column[], rows: readonly Cell[][], width: number): Layout {
  const natural = columns.map((col, i) => {
    let w = displayWidth(col.head);
    for (const r of rows) if (r[i] !== undefined) w = Math.max(w, naturalWidth(r[i]!));
    return col.max !== undefined ? Math.min(w, Math.max(col.max, displayWidth(col.head))) : w;
  });
  const floor = columns.map((col, i) => {
    const head = displayWidth(col.head);
    if (col.kind === 'text') return Math.max(head, Math.min(natural[i]!, col.min ?? 16));
    let widest = natural[i]!;
    if (col.kind === 'tokens') {
      widest = head;
      for (const r of rows) if (r[i] !== undefined) widest = Math.max(widest, widestToken(r[i]!));
    }
    return Math.max(head, Math.min(natural[i]!, col.min ?? widest));
  });
  let kept = columns.map((_, i) => i);
  const dropped: string[] = [];
  for (;;) {
    const widths = kept.map((i) => natural[i]!);
    const total = (): number => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
    // Narrow the widest shrinkable column a column at a time: text first, then the others.
    for (const kinds of [['text'], ['tokens', 'token']]) {
      let over = total() - width;
      while (over > 0) {
        let best = -1;
        kept.forEach((ci, k) => {
          if (!kinds.includes(columns[ci]!.kind) || widths[k]! <= floor[ci]!) return;
          if (best < 0 || widths[k]! > widths[best]!) best = k;
        });
        if (best < 0) break;
        widths[best]!--;
        over--;
      }
    }
    if (total() <= width) return { columns: kept.map((i) => columns[i]!), kept, widths, dropped, fits: true };
    const droppable = kept.filter((i) => columns[i]!.drop !== undefined);
    if (droppable.length === 0) return { columns: kept.map((i) => columns[i]!), kept, widths, dropped, fits: false };
    const victim = droppable.reduce((a, b) => (columns[b]!.drop! > columns[a]!.drop! ? b : a));
    dropped.push(columns[victim]!.head);
    kept = kept.filter((i) => i !== victim);
  }
}

function cellLines(col: Column, text: string, w: number): string[] {
  if (col.kind === 'text') return wrapLines(text, w);
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (col.kind === 'token') {
      out.push(clipMiddle(line, w));
      continue;
    }
    let cur = '';
    for (const tok of line.split(' ')) {
      const t = clipMiddle(tok, w);
      if (!cur) cur = t;
      else if (displayWidth(cur) + 1 + displayWidth(t) <= w) cur += ` ${t}`;
      else {
        out.push(cur);
        cur = t;
      }
    }
    out.push(cur);
  }
  return out;
}

/** Renders the header and rows of a table with fixed column widths, one row at a time. */
export class TableWriter {
  constructor(
    readonly layout: Layout,
    private readonly headPaint: Paint = (s) => s,
    private readonly rulePaint: Paint = (s) => s,
  ) {}

  /** The width the table takes. */
  get width(): number {
    return this.layout.widths.reduce((a, b) => a + b, 0) + GAP * (this.layout.widths.length - 1);
  }

  header(): string {
    const { columns, widths } = this.layout;
    const head = columns
      .map((c, k) => this.headPaint(pad(c.head, widths[k]!, c.align === 'right')))
      .join(' '.repeat(GAP));
    const rule = widths.map((w) => this.rulePaint('─'.repeat(w))).join(' '.repeat(GAP));
    return `${head.trimEnd()}\n${rule}\n`;
  }

  /** One row (cells in the order of the columns given to layoutTable), as lines ending in `\n`. */
  row(cells: readonly Cell[]): string {
    const { columns, widths, kept } = this.layout;
    const blocks = kept.map((ci, k) => {
      const cell = cells[ci] ?? '';
      return { lines: cellLines(columns[k]!, cellText(cell), widths[k]!), paint: cellPaint(cell) };
    });
    const height = Math.max(1, ...blocks.map((b) => b.lines.length));
    let out = '';
    for (let y = 0; y < height; y++) {
      const parts = blocks.map((b, k) => {
        const text = b.lines[y] ?? '';
        const padded = pad(text, widths[k]!, columns[k]!.align === 'right');
        if (!b.paint || text === '') return padded;
        const n = padded.length - text.length;
        return columns[k]!.align === 'right'
          ? padded.slice(0, n) + b.paint(text)
          : b.paint(text) + padded.slice(text.length);
      });
      out += `${parts.join(' '.repeat(GAP)).trimEnd()}\n`;
    }
    return out;
  }
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
  let text = w.header();
  for (const r of rows) text += w.row(r);
  return { text, layout };
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
