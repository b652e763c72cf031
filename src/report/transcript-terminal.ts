/**
 * The transcript in a terminal: one block per entry, its title and where it happened on one line, its body indented
 * under it and wrapped to the width (subagents indented once more per level). Every string from the session is
 * escaped; colour only when asked, so `less -R` shows it and a pipe gets plain text.
 */
import type { TranscriptEntry } from '../model/transcript.js';
import { colors, type Colors, type Paint } from './ansi.js';
import { escapeText } from './escape.js';
import { blockOf, type BlockOptions, type LineStyle, type Tone } from './transcript-blocks.js';
import { displayWidth, takeWidth } from './width.js';
import { wrapLines } from './wrap.js';

export interface TerminalOptions extends BlockOptions {
  width: number;
  color: boolean;
}

const MARK: Record<Tone, string> = {
  session: '■',
  user: '▶',
  agent: '◀',
  tool: '⚙',
  ok: '✓',
  bad: '✗',
  warn: '!',
  dim: '·',
  divider: '─',
};

function tonePaint(c: Colors, t: Tone): Paint {
  switch (t) {
    case 'session':
      return c.bold;
    case 'user':
      return (s) => c.bold(c.cyan(s));
    case 'agent':
      return c.bold;
    case 'tool':
      return c.yellow;
    case 'ok':
      return c.green;
    case 'bad':
      return c.redBold;
    case 'warn':
      return c.yellow;
    default:
      return c.dim;
  }
}

function stylePaint(c: Colors, s: LineStyle): Paint {
  if (s === 'add') return c.green;
  if (s === 'del') return c.red;
  if (s === 'hunk') return c.cyan;
  if (s === 'dim') return c.dim;
  return (x) => x;
}

/** A line of code cut into pieces of `w` columns, its spaces kept (indentation is meaning in code). */
function hardWrap(line: string, w: number): string[] {
  const out: string[] = [];
  let rest = line;
  while (displayWidth(rest) > w) {
    const piece = takeWidth(rest, w) || rest.slice(0, 1);
    out.push(piece);
    rest = rest.slice(piece.length);
  }
  out.push(rest);
  return out;
}

/** The lines of one entry, each ending with a newline. */
export function terminalEntry(e: TranscriptEntry, o: TerminalOptions): string {
  const c = colors(o.color);
  const b = blockOf(e, o);
  const width = Math.max(40, o.width);
  const indent = '  '.repeat(Math.min(b.depth, 8));
  const paint = tonePaint(c, b.tone);
  const title = escapeText(b.title);
  const where = escapeText(b.where);
  let out = '';
  if (b.tone === 'divider' || b.tone === 'session') {
    const lines = wrapLines(`${MARK[b.tone].repeat(2)} ${title}`, width - indent.length, 'break');
    lines.forEach((l, i) => {
      const room = width - indent.length - displayWidth(l) - 1;
      const rule =
        i === lines.length - 1 && b.tone === 'divider' && room >= 2 ? ` ${'─'.repeat(Math.min(room, 8))}` : '';
      out += `${indent}${paint(l + rule)}\n`;
    });
    if (where) for (const l of wrapLines(where, width - indent.length - 3, 'break')) out += `${indent}   ${c.dim(l)}\n`;
    return out;
  }
  const head = `${MARK[b.tone]} ${title}`;
  const headW = displayWidth(head);
  const whereW = displayWidth(where);
  if (indent.length + headW + 2 + whereW <= width) out += `${indent}${paint(head)}  ${c.dim(where)}\n`;
  else {
    for (const l of wrapLines(head, width - indent.length, 'break')) out += `${indent}${paint(l)}\n`;
    if (where) for (const l of wrapLines(where, width - indent.length - 2, 'break')) out += `${indent}  ${c.dim(l)}\n`;
  }
  const bar = b.code ? '│ ' : '  ';
  const room = width - indent.length - 2;
  for (const line of b.body) {
    const p = stylePaint(c, line.style);
    const text = escapeText(line.text).replace(/\\t/g, '  ');
    for (const l of b.code ? hardWrap(text, room) : wrapLines(text, room, 'break'))
      out += `${indent}${b.code ? c.dim(bar) : bar}${p(l)}\n`;
  }
  return out;
}
