/**
 * The transcript in Markdown: a heading per session, a bold title with where it happened per entry, prose as
 * escaped paragraphs (no markup, HTML or links from the session reaches the page) and commands, outputs and diffs in
 * fenced blocks whose fence is longer than any run of backticks inside.
 */
import type { TranscriptEntry } from '../model/transcript.js';
import { escapeText } from './escape.js';
import { mdText } from './markdown.js';
import { blockOf, type BlockOptions } from './transcript-blocks.js';

const fenceFor = (lines: readonly string[]): string => {
  let n = 3;
  for (const l of lines) for (const m of l.matchAll(/`{3,}|~{3,}/g)) n = Math.max(n, m[0].length + 1);
  return '`'.repeat(n);
};

const ICON = { bad: '❌ ', warn: '⚠️ ', ok: '✅ ' } as Record<string, string>;

/** One entry as Markdown, ending with a blank line. */
export function markdownEntry(e: TranscriptEntry, o: BlockOptions): string {
  const b = blockOf(e, o);
  const quote = '> '.repeat(Math.min(b.depth, 6));
  const q = (s: string): string =>
    s
      .split('\n')
      .map((l) => (quote ? `${quote}${l}`.trimEnd() : l))
      .join('\n');
  const where = b.where ? ` · ${mdText(b.where, 1000)}` : '';
  if (b.kind === 'session') return `${q(`## ${mdText(b.title, 1000)}\n\n${mdText(b.where, 1000)}`)}\n\n`;
  if (b.kind === 'divider')
    return `${q(`---\n\n**${mdText(b.title, 1000)}**${b.where ? ` (${mdText(b.where)})` : ''}\n\n---`)}\n\n`;
  const title = `${ICON[b.tone] ?? ''}**${mdText(b.title, 1000)}**${where}`;
  if (!b.body.length) return `${q(title)}\n\n`;
  if (!b.code) {
    const text = b.body.map((l) => (l.text.trim() === '' ? '' : mdText(l.text, 100_000))).join('  \n');
    return `${q(`${title}\n\n${text}`)}\n\n`;
  }
  const lines = b.body.map((l) => escapeText(l.text).replace(/\\t/g, '\t'));
  const fence = fenceFor(lines);
  return `${q(`${title}\n\n${fence}${b.lang ?? 'text'}\n${lines.join('\n')}\n${fence}`)}\n\n`;
}
