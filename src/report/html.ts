/**
 * The HTML report: one self-contained file (inline CSS, one inline script, inline SVG; no network, no external
 * assets). Everything is rendered server-side with every input string HTML-escaped; the script only sorts and
 * filters rows already in the page. A Content-Security-Policy admits exactly that stylesheet and that script by
 * their sha256 hashes, so even a failure of escaping could not run or load anything. Output is deterministic
 * (no dates, no randomness) and built by array joins, linear in the size of the input.
 */
import type { HtmlInput } from './html-input.js';
import { CSS, SCRIPT, cspHash } from './html-assets.js';
import { h } from './html-escape.js';
import { renderFindings, renderSummary, type SessionAnchors } from './html-findings.js';
import { renderLineageSvg } from './html-lineage-svg.js';
import { renderSession } from './html-session.js';

export type { HtmlInput, HtmlSession } from './html-input.js';

/** The page's Content-Security-Policy: nothing but the one stylesheet and the one script. */
export function contentSecurityPolicy(css: string = CSS, script: string = SCRIPT): string {
  return [
    `default-src 'none'`,
    `style-src ${cspHash(css)}`,
    `script-src ${cspHash(script)}`,
    `img-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
  ].join('; ');
}

/** Every session path in report order, then any only the HTML input or the findings know, each with its anchor. */
function anchorsOf(input: HtmlInput): SessionAnchors {
  const anchors = new Map<string, string>();
  const add = (path: string): void => {
    if (!anchors.has(path)) anchors.set(path, `s${anchors.size + 1}`);
  };
  for (const s of input.report.sessions) add(s.path);
  for (const s of input.sessions) add(s.path);
  for (const f of input.report.findings) add(f.sessionPath);
  return anchors;
}

function renderSessions(input: HtmlInput, anchors: SessionAnchors): string {
  const reports = new Map(input.report.sessions.map((s) => [s.path, s]));
  const extras = new Map(input.sessions.map((s) => [s.path, s]));
  const out = ['<section id="sessions" aria-labelledby="sessions-h">'];
  const shown = [...anchors].filter(([path]) => reports.has(path) || extras.has(path));
  out.push(`<h2 id="sessions-h">Sessions (${shown.length})</h2>`);
  if (shown.length === 0) out.push('<p class="empty" id="no-sessions">No sessions were audited.</p>');
  else {
    out.push('<nav aria-label="sessions"><ul class="session-index">');
    for (const [path, anchor] of shown) out.push(`<li><a href="#${anchor}" class="mono">${h(path)}</a></li>`);
    out.push('</ul></nav>');
  }
  for (const [path, anchor] of shown) out.push(renderSession(anchor, path, reports.get(path), extras.get(path)));
  out.push('</section>');
  return out.join('');
}

function renderLineage(input: HtmlInput): string {
  const svg = renderLineageSvg(input.lineage);
  if (!svg) return '';
  return [
    '<section id="lineage-section" aria-labelledby="lineage-h"><h2 id="lineage-h">Lineage</h2>',
    '<p class="legend muted">Sessions (shortened id, kind, sandbox profile) and the edges they came from. ',
    '<span class="bad">Red dashed: WIDENED</span> (more access than its origin) or <span ' +
      'class="bad">DROPPED</span> (the origin recorded a profile, this session none); ',
    '<span class="changed">orange dashed: changed</span>. Hover a node for its details.</p>',
    `<div class="scroll">${svg}</div></section>`,
  ].join('');
}

export function renderHtml(input: HtmlInput): string {
  const anchors = anchorsOf(input);
  const title = input.title ? `session-audit: ${input.title}` : 'session-audit report';
  return [
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light ' +
      'dark"><meta name="referrer" content="no-referrer">',
    `<title>${h(title)}</title>`,
    `<style>${CSS}</style></head>\n<body><main>`,
    renderSummary(input.report, input.title),
    renderFindings(input.report, anchors),
    renderLineage(input),
    renderSessions(input, anchors),
    `</main><script>${SCRIPT}</script></body></html>\n`,
  ].join('');
}
