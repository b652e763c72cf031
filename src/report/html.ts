/**
 * The HTML report: one self-contained file (inline CSS, one inline script, inline SVG; no network, no external
 * assets). In the order a reviewer needs it: the verdict (what was found by severity, the gate), the findings
 * (severity first, filterable, sortable; each with its line's bytes and a link to its timeline row), the counts by
 * code, the lineage of the sessions that have edges, and every session collapsed, drawn only when opened. Every
 * string from the input is escaped; a Content-Security-Policy admits exactly the one stylesheet and the one script
 * by their sha256 hashes, so even a failure of escaping could not run or load anything. Output is deterministic
 * (no dates, no randomness) and bounded: events, bytes and rows per page are capped, and the page says so.
 */
import type { HtmlInput } from './html-input.js';
import { CSS, SCRIPT, cspHash } from './html-assets.js';
import { h } from './html-escape.js';
import {
  type FindingsContext,
  renderByCode,
  renderFindings,
  renderHeader,
  renderVerdict,
  type SessionAnchors,
} from './html-findings.js';
import { LINEAGE_BYTES, lineageSvg, sessionsWithoutEdges } from './html-lineage-svg.js';
import { renderSessions, sessionsRoom } from './html-session.js';
import { plural } from './human.js';

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

function renderLineage(input: HtmlInput): string {
  const { svg, left } = lineageSvg(input.lineage, LINEAGE_BYTES);
  if (!svg) return '';
  const alone = sessionsWithoutEdges(input.lineage);
  return [
    '<section id="lineage-section" aria-labelledby="lineage-h"><h2 id="lineage-h">Lineage</h2>',
    '<p class="legend muted">Sessions (shortened id, kind, sandbox profile) and the edges they came from. ',
    '<span class="bad">Red dashed: WIDENED</span> (more access than its origin) or <span ' +
      'class="bad">DROPPED</span> (the origin recorded a profile, this session none); ',
    `<span class="changed">orange dashed: changed</span>. Hover a node for its details.${
      alone ? ` ${h(plural(alone, 'session'))} with no lineage edge ${alone === 1 ? 'is' : 'are'} not drawn.` : ''
    }${
      left.trees
        ? ` ${h(plural(left.trees, 'more tree'))} of ${h(plural(left.sessions, 'session'))} ${
            left.trees === 1 ? 'is' : 'are'
          } not drawn (the page keeps to its size budget): <code>session-audit lineage</code> shows every one.`
        : ''
    }</p>`,
    `<div class="scroll">${svg}</div></section>`,
  ].join('');
}

export function renderHtml(input: HtmlInput): string {
  const anchors = anchorsOf(input);
  const title = input.title ? `session-audit: ${input.title}` : 'session-audit report';
  const dirs = new Map(input.report.sessions.map((s) => [s.path, s.dir ?? s.path]));
  const failOn = input.failOn ?? input.report.configuration?.failOn ?? 'error';
  const findings = (timelines: FindingsContext['timelines'], listed?: ReadonlySet<string>): string =>
    renderFindings(input.report, {
      anchors,
      ...(input.lines ? { lines: input.lines } : {}),
      ...(input.notes ? { notes: true } : {}),
      ...(listed ? { listed } : {}),
      timelines,
      dirOf: (p) => dirs.get(p) ?? p,
    });
  const header = renderHeader(input.report, input.title);
  const verdict = renderVerdict(input.report, failOn);
  const byCode = renderByCode(input.report);
  const lineage = renderLineage(input);
  // Sessions first, out of order: what each embeds decides where the findings can link. They get what the page's
  // budget leaves once everything else is in (the findings sized as if each linked to its timeline row).
  const rest =
    header.length +
    verdict.length +
    findings('every row').length +
    byCode.length +
    lineage.length +
    CSS.length +
    SCRIPT.length;
  const sessions = renderSessions(
    input.report.sessions,
    new Map(input.sessions.map((s) => [s.path, s])),
    anchors,
    sessionsRoom(rest),
  );
  return [
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light ' +
      'dark"><meta name="referrer" content="no-referrer">',
    `<title>${h(title)}</title>`,
    `<style>${CSS}</style></head>\n<body><main>`,
    header,
    verdict,
    findings(sessions.cover, sessions.listed),
    byCode,
    lineage,
    sessions.html,
    `</main><script>${SCRIPT}</script></body></html>\n`,
  ].join('');
}
