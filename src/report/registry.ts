/**
 * The report renderers: one registry, one signature. Each is a pure function of what it is given (no I/O, no
 * exit codes); all but the JSON renderer are loaded when asked for, so a run pays only for its format.
 */
import type { FailOn } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import type { HtmlInput } from './html-input.js';
import type { SarifPlaces } from './sarif-places.js';
import { renderJson } from './json.js';

import type { ReportFormat } from './report-formats.js';

export { REPORT_FORMATS, type ReportFormat } from './report-formats.js';

export interface RenderInput {
  report: AuditReport;
  failOn: FailOn;
  color: boolean;
  /** Terminal width in columns. */
  width: number;
  /** The table lists every note and finding on a row of its own (--notes). */
  notes?: boolean;
  /** The ids of the checks run on a session of a format (JUnit's testcases). */
  checksFor(format: string): readonly string[];
  /** What the HTML page shows besides the findings (timelines, tool calls, lineage); gathered only for html. */
  html?(): HtmlInput;
  /** SARIF: the inputs as given, the working directory, and `--sarif-root` (see sarif.ts). */
  sarif?: SarifPlaces;
}

export type Renderer = (input: RenderInput) => string;

export const RENDERERS = {
  table: async () => {
    const { renderTable } = await import('./table.js');
    return (i) => renderTable(i.report, { color: i.color, width: i.width, ...(i.notes ? { notes: true } : {}) });
  },
  json: async () => (i) => renderJson(i.report),
  sarif: async () => {
    const { renderSarif } = await import('./sarif.js');
    return (i) => renderSarif(i.report, i.sarif ? { places: i.sarif } : {});
  },
  junit: async () => {
    const { renderJunit } = await import('./junit.js');
    return (i) => renderJunit(i.report, i.failOn, i.checksFor);
  },
  markdown: async () => {
    const { renderMarkdown } = await import('./markdown.js');
    return (i) => renderMarkdown(i.report, i.failOn);
  },
  html: async () => {
    const { renderHtml } = await import('./html.js');
    return (i) => {
      if (!i.html) throw new Error('the HTML report needs its input');
      return renderHtml(i.html());
    };
  },
} satisfies Record<ReportFormat, () => Promise<Renderer>>;

export async function render(format: ReportFormat, input: RenderInput): Promise<string> {
  return (await RENDERERS[format]())(input);
}
