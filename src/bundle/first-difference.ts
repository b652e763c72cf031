/**
 * The byte comparison behind the messages about a log that did not only grow: where an earlier version of a file
 * and a later one first differ (a capture and the live file for `--against`, two captures for `archive`).
 */

/** Where two byte strings first differ: 1-based line and byte offset, and the two lines (shortened). */
export function firstDifference(
  before: Buffer,
  after: Buffer,
): { line: number; column: number; offset: number; was: string; now: string } | undefined {
  const n = Math.min(before.length, after.length);
  let i = 0;
  while (i < n && before[i] === after[i]) i++;
  if (i === before.length && i <= after.length) return undefined;
  const lineStart = before.lastIndexOf(10, i - 1) + 1;
  let line = 1;
  for (let k = before.indexOf(10); k !== -1 && k < lineStart; k = before.indexOf(10, k + 1)) line++;
  // The text around the first differing byte of that line, in both versions.
  const from = Math.max(lineStart, i - 40);
  const lineOf = (b: Buffer): string => {
    if (i >= b.length && lineStart >= b.length) return '(end of file)';
    const nl = b.indexOf(10, from);
    const end = Math.min(nl === -1 ? b.length : nl, i + 80);
    const s = b.subarray(from, end).toString('utf8');
    const eol = nl === -1 ? b.length : nl;
    const ends = i >= end && end === eol ? ' (line ends)' : '';
    return `${from > lineStart ? '…' : ''}${s}${end < eol ? '…' : ''}${ends}`;
  };
  return { line, column: i - lineStart + 1, offset: i, was: lineOf(before), now: lineOf(after) };
}
