/**
 * What every human-readable report says the same way: the order findings are shown in (severity first, then place;
 * the JSON keeps its own documented order), the counts, the baseline, and what the configuration hid or changed.
 */
import { SEVERITY_RANK, type FailOn, type Finding, type Location, type Severity } from '../model/finding.js';
import type { AuditReport, SessionReport } from '../model/report.js';
import { byteOrder } from '../model/order.js';

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function counts(c: Record<Severity, number>): string {
  return `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.note, 'note')}`;
}

/**
 * A finding's place: `file:line @offset /pointer`. Under a title that names the file itself (a session stored as
 * one file: see `titleFile`), a place on a line of it is just `:line @offset /pointer`.
 */
export function formatLocation(l: Location, titleFile?: string): string {
  const inTitle = titleFile !== undefined && l.file === titleFile && l.line !== undefined;
  let s = inTitle ? '' : l.file === '' ? '.' : l.file;
  if (l.line !== undefined) s += `:${l.line}`;
  if (l.byteOffset !== undefined) s += ` @${l.byteOffset}`;
  if (l.pointer) s += ` ${l.pointer}`;
  return s;
}

/**
 * The file a session's title (its path) names, when the session is stored as files beside others (`dir`) and its
 * path is one of them: locations in it are then given by line alone.
 */
export function titleFile(s: { path: string; dir?: string | undefined }): string | undefined {
  if (s.dir === undefined) return undefined;
  const slash = s.path.lastIndexOf('/');
  const name = s.path.slice(slash + 1);
  return name && s.path.slice(0, Math.max(0, slash)) === s.dir.replace(/\/+$/, '') ? name : undefined;
}

/** Severity first, then place: session path, file, byte offset, line, code. */
export function bySeverityThenPlace(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    byteOrder(a.sessionPath, b.sessionPath) ||
    byteOrder(a.location.file, b.location.file) ||
    (a.location.byteOffset ?? -1) - (b.location.byteOffset ?? -1) ||
    (a.location.line ?? 0) - (b.location.line ?? 0) ||
    byteOrder(a.code, b.code) ||
    byteOrder(a.message, b.message)
  );
}

/** The worst sessions first (most errors, then warnings, then notes), then by path. */
export function worstFirst(a: SessionReport, b: SessionReport): number {
  return (
    b.findings.error - a.findings.error ||
    b.findings.warning - a.findings.warning ||
    b.findings.note - a.findings.note ||
    byteOrder(a.path, b.path)
  );
}

export const total = (c: Record<Severity, number>): number => c.error + c.warning + c.note;

/** Findings the run does not show: suppressed by the baseline, hidden by ignores. */
export function hiddenCount(report: AuditReport): number {
  const ignored = (report.configuration?.ignore ?? []).reduce((n, i) => n + i.hidden, 0);
  return ignored + (report.baseline?.suppressed ?? 0);
}

/** Lines about the baseline and the configuration: what they hid or changed, and where each setting came from. */
export function configurationLines(report: AuditReport): string[] {
  const out: string[] = [];
  const c = report.configuration;
  const b = report.baseline;
  if (c?.skipped)
    out.push(
      `${c.skipped} was not read: it lies inside an input (evidence never configures its own audit; name it with ` +
        '--config to use it).',
    );
  const named = (from: string): string => (from === 'config' ? `config ${c?.file ?? ''}` : 'the command line');
  for (const from of ['config', 'option'] as const) {
    const ign = (c?.ignore ?? []).filter((i) => i.from === from);
    const hidden = ign.reduce((n, i) => n + i.hidden, 0);
    if (ign.length)
      out.push(
        `${plural(hidden, 'finding')} hidden by ${named(from)} (ignore ${ign
          .map((i) => `${i.code}${i.hidden ? ` ×${i.hidden}` : ''}`)
          .join(', ')}).`,
      );
    const sev = (c?.severity ?? []).filter((s) => s.from === from);
    if (sev.length)
      out.push(
        `Severity set by ${named(from)}: ${sev
          .map((s) => `${s.code}=${s.severity}${s.findings ? ` (${plural(s.findings, 'finding')})` : ''}`)
          .join(', ')}.`,
      );
  }
  if (c?.failOnFrom === 'config') out.push(`--fail-on ${c.failOn} set by ${named('config')}.`);
  if (b) {
    const gone = b.absent.length;
    out.push(
      `Baseline ${b.path}${c?.baseline?.from === 'config' ? ` (set by ${named('config')})` : ''}: ` +
        `${plural(b.suppressed, 'known finding')} suppressed; ${gone} baseline ${gone === 1 ? 'entry' : 'entries'} ` +
        `no longer occur${gone === 1 ? 's' : ''}.`,
    );
    if (b.matchedBy === 'place')
      out.push(
        'The baseline predates fingerprint version 2: its entries are matched by code, session, file and line, so a ' +
          'finding whose line moved shows as new. Write the baseline again to match by fingerprint.',
      );
  }
  return out;
}

export interface Verdict {
  /** 🔴 errors, 🟡 warnings only, 🔵 notes only, ✅ nothing found and nothing hidden, ❌ internal error; else none. */
  icon: string;
  /** What was found, by severity (and what was hidden): never "all clear" over findings, shown or hidden. */
  headline: string;
  /** The gate, on its own: what the exit code says. */
  gate: { state: 'failed' | 'passed' | 'none'; text: string };
}

export function verdict(report: AuditReport, failOn: FailOn): Verdict {
  const c = report.summary.findings;
  const hidden = hiddenCount(report);
  const found = c.error + c.warning + c.note;
  let icon = found === 0 ? (hidden ? '' : '✅') : c.error ? '🔴' : c.warning ? '🟡' : '🔵';
  let headline =
    found === 0
      ? hidden
        ? `no findings shown, ${plural(hidden, 'finding')} hidden (see below)`
        : 'no findings'
      : `${counts(c)}${hidden ? `, ${hidden} hidden` : ''}`;
  if (report.toolErrors.length) {
    icon = '❌';
    headline = `internal error: the audit is incomplete; ${headline}`;
  }
  let gate: Verdict['gate'];
  if (report.toolErrors.length) gate = { state: 'failed', text: 'internal error (exit 3)' };
  else if (failOn === 'never')
    gate = { state: 'none', text: 'the findings do not fail the run (`--fail-on never`, exit 0)' };
  else {
    const limit = SEVERITY_RANK[failOn];
    const failing = report.findings.filter((f) => SEVERITY_RANK[f.severity] <= limit).length;
    gate = failing
      ? { state: 'failed', text: `${plural(failing, 'finding')} at or above \`${failOn}\` (exit 1)` }
      : { state: 'passed', text: `no finding at or above \`${failOn}\` (exit 0)` };
  }
  return { icon, headline, gate };
}
