/**
 * How many terminal columns a string takes: wide (CJK, fullwidth, emoji) characters take two, combining marks and
 * zero-width characters none, everything else one. Strings reach the tables escaped (escape.ts), so no control
 * character is left to measure. Also: cutting to a width, at the end or in the middle.
 */

const ZERO = /[\p{Mn}\p{Me}\u200b-\u200f\u2060-\u2064]|\p{Variation_Selector}/u;
const wideSource = (): RegExp =>
  new RegExp(
    `[${[
      '\\u1100-\\u115f\\u231a\\u231b\\u2329\\u232a\\u23e9-\\u23ec\\u23f0\\u23f3\\u25fd\\u25fe\\u2614\\u2615',
      '\\u2648-\\u2653\\u267f\\u2693\\u26a1\\u26aa\\u26ab\\u26bd\\u26be\\u26c4\\u26c5\\u26ce\\u26d4\\u26ea\\u26f2',
      '\\u26f3\\u26f5\\u26fa\\u26fd\\u2705\\u270a\\u270b\\u2728\\u274c\\u274e\\u2753-\\u2755\\u2757\\u2795-\\u2797',
      '\\u27b0\\u27bf\\u2b1b\\u2b1c\\u2b50\\u2b55\\u2e80-\\u303e\\u3041-\\u33ff\\u3400-\\u4dbf\\u4e00-\\u9fff',
      '\\ua000-\\ua4cf\\ua960-\\ua97f\\uac00-\\ud7a3\\uf900-\\ufaff\\ufe10-\\ufe19\\ufe30-\\ufe6f\\uff00-\\uff60',
      '\\uffe0-\\uffe6\\u{16fe0}-\\u{18cff}\\u{1b000}-\\u{1b2ff}\\u{1f004}\\u{1f0cf}\\u{1f18e}',
      '\\u{1f191}-\\u{1f19a}\\u{1f200}-\\u{1f251}\\u{1f300}-\\u{1f64f}\\u{1f680}-\\u{1f6ff}\\u{1f7e0}-\\u{1f7eb}',
      '\\u{1f90c}-\\u{1f9ff}\\u{1fa70}-\\u{1faff}\\u{20000}-\\u{3fffd}',
    ].join('')}]`,
    'u',
  );
let WIDE: RegExp | undefined;
const ASCII = /^[\x20-\x7e]*$/;

/** The width of one code point. */
export function charWidth(ch: string): number {
  if (ch.length === 1 && ch < '\u0300') return 1;
  if (ZERO.test(ch)) return 0;
  WIDE ??= wideSource();
  return WIDE.test(ch) ? 2 : 1;
}

/** Terminal columns of a single-line string. */
export function displayWidth(s: string): number {
  if (ASCII.test(s)) return s.length;
  let w = 0;
  for (const ch of s) w += charWidth(ch);
  return w;
}

/** The longest prefix that fits in `w` columns. */
export function takeWidth(s: string, w: number): string {
  if (ASCII.test(s)) return s.slice(0, Math.max(0, w));
  let out = '';
  let used = 0;
  for (const ch of s) {
    const cw = charWidth(ch);
    if (used + cw > w) break;
    out += ch;
    used += cw;
  }
  return out;
}

/** The longest suffix that fits in `w` columns. */
function takeWidthEnd(s: string, w: number): string {
  const cps = Array.from(s);
  let used = 0;
  let i = cps.length;
  while (i > 0) {
    const cw = charWidth(cps[i - 1]!);
    if (used + cw > w) break;
    used += cw;
    i--;
  }
  return cps.slice(i).join('');
}

/** Cut to `w` columns with an ellipsis at the end (`w` >= 1). */
export function clipEnd(s: string, w: number): string {
  if (displayWidth(s) <= w) return s;
  return `${takeWidth(s, w - 1)}…`;
}

/**
 * Cut to `w` columns by leaving out the middle: an id or a path keeps its start and its end (`019a3f2c…00a001`), so
 * what tells it apart stays visible. Never used where the full value is not printed somewhere else.
 */
export function clipMiddle(s: string, w: number): string {
  if (displayWidth(s) <= w) return s;
  if (w <= 1) return '…'.slice(0, w);
  const head = Math.ceil((w - 1) / 2);
  return `${takeWidth(s, head)}…${takeWidthEnd(s, w - 1 - head)}`;
}

/** Pad with spaces to `w` columns (left-aligned, or right-aligned for numbers). */
export function pad(s: string, w: number, right = false): string {
  const n = w - displayWidth(s);
  if (n <= 0) return s;
  return right ? ' '.repeat(n) + s : s + ' '.repeat(n);
}
