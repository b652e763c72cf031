/** An audit report in the format asked for. */
import { checkIdsFor, type AuditOptions, type FailOn } from '../audit.js';
import type { LineageGraph } from '../lineage/graph.js';
import type { AuditReport } from '../model/report.js';
import { renderJson } from '../report/json.js';
import { renderTable } from '../report/table.js';

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

/** Render the report; the renderers other than JSON and the table are loaded when asked for. */
export async function renderReport(c: RenderContext): Promise<string> {
  switch (c.format) {
    case 'json':
      return renderJson(c.report);
    case 'sarif':
      return (await import('../report/sarif.js')).renderSarif(c.report, { notes: baselineLines(c.report) });
    case 'junit':
      return (await import('../report/junit.js')).renderJunit(c.report, c.failOn, (format) => checkIdsFor(c.options, format));
    case 'markdown':
      return (await import('../report/markdown.js')).renderMarkdown(c.report, c.failOn, baselineLines(c.report));
    case 'html': {
      const [{ renderHtml }, { htmlInput }] = await Promise.all([import('../report/html.js'), import('./html-data.js')]);
      return renderHtml(htmlInput(c.paths, c.report, c.graphs, c.options.maxLineBytes, c.formatHint));
    }
    default: {
      const text = renderTable(c.report, { color: c.color, width: c.width });
      const extra = baselineLines(c.report);
      return extra.length ? `${text}${extra.join('\n')}\n` : text;
    }
  }
}
