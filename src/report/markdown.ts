/**
 * A Markdown summary for a pull-request comment or a CI step summary ($GITHUB_STEP_SUMMARY): a headline that says
 * what was found by severity (never a check mark over findings), the gate result on its own line, what the
 * configuration or baseline hid, the worst findings (severity first, then place), counts by code, and a
 * per-session table. Every string from the evidence is escaped so it cannot become markup, a link, an image or a
 * mention. Bounded: it stays under GitHub's 65,536-character comment limit however many findings there are.
 */
import type { Finding, Severity } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import type { FailOn } from '../model/finding.js';
import { escapeText } from './escape.js';
import { bySeverityThenPlace, configurationLines, hiddenCount, total, verdict, worstFirst } from './human.js';

const WORST = 50;
const SESSIONS = 100;
const CELL = 300;

/** Inline Markdown text: no markup, HTML, links, mentions or table breaks; control characters made visible. */
export function mdText(s: string, max = CELL): string {
  const t = escapeText(s.length > max ? `${s.slice(0, max - 1)}…` : s)
    .replace(/\r?\n/g, ' ')
    .replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
    .replace(/[\\`*_{}[\]()#+!|~@]/g, (c) => `\\${c}`)
    // No autolinks: break `scheme://` and `www.` (GitHub links them even without markup).
    .replace(/:\/\//g, '\\:\\/\\/')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, -1)}\\.`);
  return t;
}

const ICON: Record<Severity, string> = { error: '🔴 error', warning: '🟡 warning', note: '🔵 note' };

const location = (f: Finding): string => {
  const l = f.location;
  const line = l.line !== undefined ? `:${l.line}` : '';
  const offset = l.byteOffset !== undefined ? ` @${l.byteOffset}` : '';
  return `${l.file === '' ? '.' : l.file}${line}${offset}${l.pointer ? ` ${l.pointer}` : ''}`;
};

export function renderMarkdown(report: AuditReport, failOn: FailOn): string {
  const s = report.summary;
  const v = verdict(report, failOn);
  const out: string[] = [`## session-audit ${report.command}: ${v.icon ? `${v.icon} ` : ''}${v.headline}`, ''];
  out.push(`**Gate: ${v.gate.state}**: ${v.gate.text}.`, '');
  out.push(
    `${s.sessions} session${s.sessions === 1 ? '' : 's'}, ${s.files} files (${(s.bytes / 1048576).toFixed(1)} ` +
      `MiB): **${s.findings.error}** errors, **${s.findings.warning}** warnings, **${s.findings.note}** notes.`,
    '',
  );
  for (const e of configurationLines(report)) out.push(`${mdText(e, 1000)}`, '');
  if (report.findings.length) {
    const worst = [...report.findings].sort(bySeverityThenPlace).slice(0, WORST);
    const all = worst.length === report.findings.length;
    out.push(`### ${all ? 'Findings' : `The ${worst.length} most severe of ${report.findings.length} findings`}`, '');
    out.push('| severity | code | session | location | message |', '|---|---|---|---|---|');
    for (const f of worst)
      out.push(
        `| ${ICON[f.severity]} | \`${f.code}\` | ${mdText(f.session, 80)} | ${mdText(location(f), 120)} | ` +
          `${mdText(f.message)} |`,
      );
    out.push('');
  }
  const codes = Object.entries(s.byCode).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  if (codes.length) {
    out.push(
      '### By code',
      '',
      '| code | count |',
      '|---|---:|',
      ...codes.slice(0, 40).map(([c, n]) => `| \`${c}\` | ${n} |`),
    );
    if (codes.length > 40) out.push(`| … ${codes.length - 40} more codes | |`);
    out.push('');
  }
  const withFindings = report.sessions.filter((x) => total(x.findings) > 0).sort(worstFirst);
  if (report.sessions.length > 1 || withFindings.length) {
    out.push('### Sessions', '', '| session | format | errors | warnings | notes |', '|---|---|---:|---:|---:|');
    for (const x of withFindings.slice(0, SESSIONS))
      out.push(
        `| ${mdText(x.path, 160)} | ${mdText(x.format, 40)} | ${x.findings.error} | ${x.findings.warning} | ` +
          `${x.findings.note} |`,
      );
    if (withFindings.length > SESSIONS)
      out.push(`| … ${withFindings.length - SESSIONS} more sessions with findings | | | | |`);
    const clean = report.sessions.length - withFindings.length;
    if (clean)
      out.push(
        `| ${clean} session${clean === 1 ? '' : 's'} with no findings${hiddenCount(report) ? ' shown' : ''} ` +
          '| | 0 | 0 | 0 |',
      );
    out.push('');
  }
  for (const e of report.toolErrors)
    out.push(
      `> internal error in check \`${mdText(e.check, 60)}\` on ${mdText(e.session, 80)}: ` +
        `${mdText(e.message.split('\n')[0] ?? '')}`,
      '',
    );
  out.push(
    `<sub>session-audit ${report.tool.version} · the JSON report has every finding with its exact byte location</sub>`,
    '',
  );
  return out.join('\n');
}
