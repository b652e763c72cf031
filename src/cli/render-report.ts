/** An audit report in the format asked for. */
import { checkIdsFor, type AuditOptions, type FailOn } from '../audit.js';
import type { LineageGraph } from '../lineage/graph.js';
import type { AuditReport } from '../model/report.js';
import { renderHtml } from '../report/html.js';
import { renderJson } from '../report/json.js';
import { renderJunit } from '../report/junit.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderSarif } from '../report/sarif.js';
import { renderTable } from '../report/table.js';
import { htmlInput } from './html-data.js';

export interface RenderContext {
  format: string;
  report: AuditReport;
  options: AuditOptions;
  failOn: FailOn;
  paths: readonly string[];
  graphs: ReadonlyMap<string, LineageGraph>;
  color: boolean;
  width: number;
  /** --format-hint, so the HTML report finds the same sessions the audit read. */
  formatHint?: string;
}

/** Lines about the baseline, for the formats that have no field for it. */
export function baselineLines(report: AuditReport): string[] {
  const b = report.baseline;
  if (!b) return [];
  return [`Baseline ${b.path}: ${b.suppressed} known finding${b.suppressed === 1 ? '' : 's'} suppressed; ${b.absent.length} baseline entr${b.absent.length === 1 ? 'y' : 'ies'} no longer occur${b.absent.length === 1 ? 's' : ''}.`];
}

export function renderReport(c: RenderContext): string {
  switch (c.format) {
    case 'json':
      return renderJson(c.report);
    case 'sarif':
      return renderSarif(c.report, { notes: baselineLines(c.report) });
    case 'junit':
      return renderJunit(c.report, c.failOn, (format) => checkIdsFor(c.options, format));
    case 'markdown':
      return renderMarkdown(c.report, c.failOn, baselineLines(c.report));
    case 'html':
      return renderHtml(htmlInput(c.paths, c.report, c.graphs, c.options.maxLineBytes, c.formatHint));
    default: {
      const text = renderTable(c.report, { color: c.color, width: c.width });
      const extra = baselineLines(c.report);
      return extra.length ? `${text}${extra.join('\n')}\n` : text;
    }
  }
}
