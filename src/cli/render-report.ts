/** An audit report in the format asked for: the command's context turned into the renderers' one input. */
import { checkIdsFor, type AuditOptions } from '../engine/audit-session.js';
import type { LineageGraph } from '../lineage/graph.js';
import type { FailOn } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import { render, type ReportFormat } from '../report/registry.js';
import type { SarifPlaces } from '../report/sarif-places.js';

export interface RenderContext {
  format: ReportFormat;
  report: AuditReport;
  options: AuditOptions;
  failOn: FailOn;
  paths: readonly string[];
  graphs: ReadonlyMap<string, LineageGraph>;
  color: boolean;
  width: number;
  /** --notes: every note and finding a row of its own in the table. */
  notes?: boolean;
  /** --format-hint, so the HTML report finds the same sessions the audit read. */
  formatHint?: string;
  /** SARIF: where the inputs are. */
  sarif?: SarifPlaces;
}

export async function renderReport(c: RenderContext): Promise<string> {
  // The HTML page reads the sessions again (timelines, tool calls): loaded only for it.
  const htmlInput = c.format === 'html' ? (await import('../engine/html-data.js')).htmlInput : undefined;
  return render(c.format, {
    report: c.report,
    failOn: c.failOn,
    color: c.color,
    width: c.width,
    ...(c.notes ? { notes: true } : {}),
    checksFor: (format) => checkIdsFor(c.options, format),
    ...(c.sarif ? { sarif: c.sarif } : {}),
    ...(htmlInput
      ? { html: () => htmlInput(c.paths, c.report, c.graphs, c.options.maxLineBytes, c.formatHint, c.failOn, c.notes) }
      : {}),
  });
}
