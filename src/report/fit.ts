/**
 * The widths of a terminal table's columns (layout.ts's policy, see there): sized to their content, narrowed where
 * words can wrap, then below their floors, with what does not fit a column on a line of its own.
 */
import type { Paint } from './ansi.js';
import { GAP } from './draw.js';
import { displayWidth } from './width.js';

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

export const cellText = (c: Cell): string => (typeof c === 'object' ? c.text : String(c));
export const cellPaint = (c: Cell): Paint | undefined => (typeof c === 'object' ? c.paint : undefined);

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

export const total = (widths: readonly number[]): number =>
  widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);

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
