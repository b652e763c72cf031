/**
 * The report renderers: one registry, one signature. Each is a pure function of what it is given (no I/O, no
 * exit codes); all but the JSON and table renderers are loaded when asked for, so a run pays only for its format.
 */
import type { FailOn } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import type { HtmlInput } from './html-input.js';
import { renderJson } from './json.js';
import { renderTable } from './table.js';

export const REPORT_FORMATS = ['table', 'json', 'sarif', 'junit', 'markdown', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface RenderInput {
  report: AuditReport;
  failOn: FailOn;
  color: boolean;
  /** Terminal width in columns. */
  width: number;
  /** The ids of the checks run on a session of a format (JUnit's testcases). */
  checksFor(format: string): readonly string[];
  /** What the HTML page shows besides the findings (timelines, tool calls, lineage); gathered only for html. */
  html?(): HtmlInput;
}

export type Renderer = (input: RenderInput) => string;

/** Lines about the baseline, for the formats that have no field for it. */
export function baselineLines(report: AuditReport): string[] {
  const b = report.baseline;
  if (!b) return [];
  const n = b.suppressed;
  const gone = b.absent.length;
  return [
    `Baseline ${b.path}: ${n} known finding${n === 1 ? '' : 's'} suppressed; ${gone} baseline ` +
      `entr${gone === 1 ? 'y' : 'ies'} ` +
      `no longer occur${gone === 1 ? 's' : ''}.`,
  ];
}

export const RENDERERS = {
  table: async () => (i) => {
    const text = renderTable(i.report, { color: i.color, width: i.width });
    const extra = baselineLines(i.report);
    return extra.length ? `${text}${extra.join('\n')}\n` : text;
  },
  json: async () => (i) => renderJson(i.report),
  sarif: async () => {
    const { renderSarif } = await import('./sarif.js');
    return (i) => renderSarif(i.report, { notes: baselineLines(i.report) });
  },
  junit: async () => {
    const { renderJunit } = await import('./junit.js');
    return (i) => renderJunit(i.report, i.failOn, i.checksFor);
  },
  markdown: async () => {
    const { renderMarkdown } = await import('./markdown.js');
    return (i) => renderMarkdown(i.report, i.failOn, baselineLines(i.report));
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
