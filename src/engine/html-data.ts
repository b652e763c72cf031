/**
 * What the HTML report shows besides the findings: each session's timeline and tool-call pairs, and the lineage views.
 */
import { formatOf } from '../formats/registry.js';
import { lineageView } from '../lineage/view.js';
import type { LineageGraph } from '../lineage/graph.js';
import type { AuditReport } from '../model/report.js';
import type { FoundSession } from '../model/found.js';
import { DEFAULT_MAX_LINE_BYTES } from '../model/records.js';
import { fsSource } from '../read/source.js';
import type { HtmlInput, HtmlSession } from '../report/html-input.js';
import { buildTimeline } from './timeline.js';
import type { TimelineEvent } from '../timeline/model.js';
import { findSessions } from './tree.js';
import { pairRows } from './session.js';
import { opaque } from '../model/found.js';

/** Events kept per session: the page stays usable; the JSONL timeline has them all. */
export const HTML_TIMELINE_CAP = 5000;

function sessionExtras(
  found: FoundSession,
  maxLineBytes: number,
): Pick<HtmlSession, 'timeline' | 'timelineTruncated' | 'pairs'> {
  if (opaque(found)) return {};
  const source = fsSource(found);
  const format = formatOf(found);
  const events: TimelineEvent[] = [];
  let dropped = 0;
  const { hasLog } = buildTimeline({ source, format }, { limits: { maxLineBytes } }, (e) => {
    if (events.length < HTML_TIMELINE_CAP) events.push(e);
    else dropped++;
  });
  const pairs = pairRows(found);
  // A session with neither a log nor a conversation has nothing to show but its findings.
  if (!hasLog && pairs.length === 0) return {};
  const out: Pick<HtmlSession, 'timeline' | 'timelineTruncated' | 'pairs'> = { pairs };
  if (events.length) out.timeline = events;
  if (dropped) out.timelineTruncated = dropped;
  return out;
}

export function htmlInput(
  paths: readonly string[],
  report: AuditReport,
  graphs: ReadonlyMap<string, LineageGraph>,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  formatHint?: string,
): HtmlInput {
  const found = new Map(findSessions(paths, formatHint).map((f) => [f.display, f]));
  const sessions: HtmlSession[] = report.sessions.map((s) => {
    const f = found.get(s.path);
    return { id: s.id, path: s.path, format: s.format, ...(f ? sessionExtras(f, maxLineBytes) : {}) };
  });
  const lineage = [...graphs]
    .filter(([, g]) => g.nodes.length > 1 || g.edges.length > 0)
    .map(([root, g]) => lineageView(shownRoot(root, g, report), g, report.findings));
  return { report, sessions, lineage, title: paths.join(' ') };
}

/** A root as the user's paths name it (the display path of one of its sessions, two levels up). */
function shownRoot(root: string, g: LineageGraph, report: AuditReport): string {
  const node = g.nodes.find((n) => report.sessions.some((s) => s.path === n.path));
  return node ? node.path.split('/').slice(0, -2).join('/') || root : root;
}
