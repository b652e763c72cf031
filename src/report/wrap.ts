/**
 * Word wrapping that never loses text, measured in terminal columns, at spaces only: a word longer than the width
 * (an id, a path, a location, a code) goes whole on a line of its own, wider than the width, so that it can be
 * read and copied whole. Prose that may hold any run of characters (a transcript's bodies) asks for `break`: a word
 * longer than the width is then broken, after a `/` when there is one (a path breaks between its segments), else
 * after a `-`, `_`, `.`, `,` or `:`, else where it must.
 */
import { charWidth, displayWidth } from './width.js';

const SOFT = new Set(['/', '-', '_', '.', ',', ':', ';', '=', '&', '?']);

/** Split one word wider than `w` into pieces of at most `w` columns. */
function breakWord(word: string, w: number): string[] {
  const out: string[] = [];
  let cps = Array.from(word);
  while (cps.length) {
    let used = 0;
    let end = 0;
    let slash = -1;
    let soft = -1;
    while (end < cps.length) {
      const cw = charWidth(cps[end]!);
      if (used + cw > w) break;
      used += cw;
      if (cps[end] === '/') slash = end + 1;
      else if (SOFT.has(cps[end]!)) soft = end + 1;
      end++;
    }
    if (end >= cps.length) {
      out.push(cps.join(''));
      break;
    }
    // Between path segments first, then after other punctuation at least a third of the way in; else anywhere.
    const cut = slash > 0 ? slash : soft >= Math.ceil(w / 3) ? soft : Math.max(1, end);
    out.push(cps.slice(0, cut).join(''));
    cps = cps.slice(cut);
  }
  return out;
}

/** What to do with a word longer than the width: keep it whole on a line of its own, or break it. */
export type LongWords = 'whole' | 'break';

/** The lines of `text` wrapped to `width` columns (its own newlines kept). */
export function wrapLines(text: string, width: number, long: LongWords = 'whole'): string[] {
  const w = Math.max(4, width);
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    let lineW = 0;
    /** The paragraph's last word so far was a long one, on its line already. */
    let alone = false;
    for (const word of para.split(' ')) {
      const ww = displayWidth(word);
      if (ww > w && long === 'whole') {
        if (line) out.push(line);
        out.push(word);
        line = '';
        lineW = 0;
        alone = true;
        continue;
      }
      alone = false;
      if (ww > w) {
        if (line) out.push(line);
        const pieces = breakWord(word, w);
        out.push(...pieces.slice(0, -1));
        line = pieces[pieces.length - 1] ?? '';
        lineW = displayWidth(line);
        continue;
      }
      if (!line) {
        line = word;
        lineW = ww;
      } else if (lineW + 1 + ww <= w) {
        line += ` ${word}`;
        lineW += 1 + ww;
      } else {
        out.push(line);
        line = word;
        lineW = ww;
      }
    }
    if (!alone) out.push(line);
  }
  return out;
}

export function wrapText(text: string, width: number, long: LongWords = 'whole'): string {
  return wrapLines(text, width, long).join('\n');
}
