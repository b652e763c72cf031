/**
 * What an agent's home keeps beside the logs (`model/home-view.ts`) as lines of a terminal report, for `inspect`
 * and `lineage`: each section under its title, its items grouped by the file they are in, one item a line (wrapped
 * at spaces under itself), every string escaped.
 */
import type { HomeView } from '../model/home-view.js';
import { escapeText } from './escape.js';
import { displayWidth } from './width.js';
import { wrapLines } from './wrap.js';

/** The view's lines, `indent` before each, within `width` columns (a word wider than the room stays whole). */
export function homeViewLines(view: HomeView, width: number, indent = '  '): string[] {
  const out: string[] = [];
  const line = (s: string, pad: string, hang = ''): void => {
    const lines = wrapLines(s, width - pad.length - hang.length);
    out.push(...lines.map((l, i) => `${pad}${i ? hang : ''}${l}`.trimEnd()));
  };
  for (const s of view.sections) {
    const n = s.items.length + (s.more ?? 0);
    line(`${escapeText(s.title.charAt(0).toUpperCase() + s.title.slice(1))} (${n}):`, indent);
    let file: string | undefined;
    for (const item of s.items) {
      if (item.file !== file) {
        file = item.file;
        line(`in ${escapeText(file)}`, `${indent}  `);
      }
      const at = item.line !== undefined ? `line ${item.line}  ` : '';
      const hang = ' '.repeat(Math.min(displayWidth(at), 12));
      line(`${at}${escapeText(item.text)}`, `${indent}    `, hang);
    }
    if (s.more) line(`and ${s.more} more, not listed`, `${indent}    `);
  }
  return out;
}
