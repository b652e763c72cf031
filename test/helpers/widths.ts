/** What a terminal table may not do: be wider than the terminal, or break a token across lines. */
import { displayWidth } from '../../src/report/width.js';

/** Every line fits `width`, or is one token wider than the width, alone on its line from its first column. */
export function overWidth(text: string, width: number): string[] {
  // A token wider than the width stands alone on its line (a shell command's continued line keeps its indent and its
  // trailing ` \`, so that it still pastes).
  const alone = (l: string): boolean => {
    const t = l.endsWith(' \\') ? l.slice(0, -2).trimStart() : l;
    return t.length > 0 && !t.includes(' ');
  };
  return text.split('\n').filter((l) => displayWidth(l) > width && !alone(l));
}

/** Tokens split across two lines: a line holding a start of the token as a word, the next line holding its rest. */
export function splitTokens(text: string, tokens: Iterable<string>): string[] {
  const lines = text.split('\n').map((l) => new Set(l.split(' ').filter(Boolean)));
  const at = new Map<string, number[]>();
  lines.forEach((words, i) => {
    for (const w of words) at.set(w, [...(at.get(w) ?? []), i]);
  });
  const split: string[] = [];
  for (const t of new Set(tokens)) {
    if (t.length < 6) continue;
    for (let k = 2; k <= t.length - 2; k++) {
      const rest = t.slice(k);
      if ((at.get(t.slice(0, k)) ?? []).some((i) => lines[i + 1]?.has(rest))) split.push(`${t.slice(0, k)} | ${rest}`);
    }
  }
  return split;
}
