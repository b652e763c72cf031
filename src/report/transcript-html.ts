/**
 * The transcript as one self-contained HTML page, written as it goes: the report's stylesheet (html-assets.ts) and a
 * few rules of its own, no script, a Content-Security-Policy that admits only that stylesheet. Every string from the
 * session goes through the report's escaping (`h`, `hPre`); thinking shown with `--thinking` is folded in a
 * <details>; subagents are indented. Printed, every entry is kept whole where it fits (`break-inside: avoid`).
 */
import type { TranscriptEntry } from '../model/transcript.js';
import { CSS, cspHash } from './html-assets.js';
import { h, hPre } from './html-escape.js';
import { blockOf, type BlockOptions } from './transcript-blocks.js';

const OWN_CSS = `
.t-entry { margin: 10px 0; padding: 4px 10px; border-left: 3px solid var(--line); break-inside: avoid; }
.t-head { font-weight: 600; }
.t-where { color: var(--muted); font-weight: 400; margin-left: .6em; font-size: 12.5px; }
.t-user { border-color: var(--accent); }
.t-tool { border-color: var(--changed); }
.t-ok { border-color: var(--ok); } .t-ok .t-head { color: var(--ok); }
.t-bad { border-color: var(--bad); background: var(--err-bg); } .t-bad .t-head { color: var(--err); }
.t-warn { border-color: var(--changed); background: var(--warn-bg); } .t-warn .t-head { color: var(--warn); }
.t-dim { color: var(--muted); }
.t-divider { border: 0; border-top: 2px dashed var(--line); padding-top: 6px; color: var(--muted); }
.t-session { border: 0; }
.t-text { white-space: pre-wrap; overflow-wrap: anywhere; margin: 4px 0; }
.t-add { color: var(--ok); } .t-del { color: var(--bad); }
.t-hunk { color: var(--accent); } .t-note { color: var(--muted); }
${[1, 2, 3, 4, 5, 6, 7, 8].map((d) => `.t-d${d} { margin-left: ${d * 24}px; }`).join('\n')}
@media print { pre { max-height: none; overflow: visible; } .t-entry { break-inside: avoid; } }
`;
const STYLE = CSS + OWN_CSS;

const CSP = [
  `default-src 'none'`,
  `style-src ${cspHash(STYLE)}`,
  `img-src 'none'`,
  `base-uri 'none'`,
  `form-action 'none'`,
].join('; ');

/** The page's start, up to the first entry. */
export function htmlStart(title: string): string {
  return (
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light ' +
    'dark"><meta name="referrer" content="no-referrer">' +
    `<title>${h(title)}</title><style>${STYLE}</style></head>\n<body><main>\n<h1>${h(title)}</h1>\n`
  );
}

export const htmlEnd = (): string => '</main></body></html>\n';

/** One entry of the page. */
export function htmlEntry(e: TranscriptEntry, o: BlockOptions): string {
  const b = blockOf(e, o);
  // Subagents indented by a class (the CSP admits no style attribute).
  const d = b.depth > 0 ? ` t-d${Math.min(b.depth, 8)}` : '';
  const where = b.where ? `<span class="t-where">${h(b.where)}</span>` : '';
  if (b.kind === 'session')
    return (
      `<section class="t-entry t-session${d}"><h2>${h(b.title)}</h2>` + `<p class="meta">${h(b.where)}</p></section>\n`
    );
  let body = '';
  if (b.body.length) {
    if (b.code)
      body = `<pre>${b.body
        .map((l) => `<span class="t-${l.style === 'dim' ? 'note' : l.style}">${hPre(l.text)}</span>`)
        .join('\n')}</pre>`;
    else body = `<div class="t-text">${b.body.map((l) => hPre(l.text)).join('\n')}</div>`;
  }
  if (b.kind === 'thinking' && b.body.length)
    return (
      `<details class="t-entry t-dim${d}"><summary class="t-head">${h(b.title)}${where}</summary>` +
      `${body}</details>\n`
    );
  return `<div class="t-entry t-${b.tone}${d}"><div class="t-head">${h(b.title)}${where}</div>${body}</div>\n`;
}
