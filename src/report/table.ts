/** The human report: findings grouped by session, one table each, every string escaped for the terminal. */
import { Chalk, type ChalkInstance } from 'chalk';
import Table from 'cli-table3';
import type { AuditReport } from '../model/report.js';
import type { Finding, Location, Severity } from '../model/finding.js';
import { escapeText } from './escape.js';
import { wrapText } from './wrap.js';

export interface TableOptions {
  color: boolean;
  /** Terminal width in columns. */
  width: number;
}

/** Borders around the table and under the header only: rows run on without separators. */
export const NO_ROW_LINES = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function counts(c: Record<Severity, number>): string {
  return `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.note, 'note')}`;
}

export function formatLocation(l: Location): string {
  let s = l.file === '' ? '.' : l.file;
  if (l.line !== undefined) s += `:${l.line}`;
  if (l.byteOffset !== undefined) s += ` @${l.byteOffset}`;
  if (l.pointer) s += ` ${l.pointer}`;
  return s;
}

function paint(c: ChalkInstance, sev: Severity, text: string): string {
  return sev === 'error' ? c.red.bold(text) : sev === 'warning' ? c.yellow(text) : c.cyan(text);
}

export function renderTable(report: AuditReport, options: TableOptions): string {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  const out: string[] = [];
  const bySession = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = bySession.get(f.sessionPath) ?? [];
    list.push(f);
    bySession.set(f.sessionPath, list);
  }
  const width = Math.max(72, options.width);
  const codeW = Math.max(6, ...report.findings.map((f) => f.code.length)) + 2;
  const sevW = 10;
  const rest = width - 5 - sevW - codeW;
  const locW = Math.min(
    Math.max(12, ...report.findings.map((f) => formatLocation(f.location).length)) + 2,
    Math.floor(rest * 0.4),
  );
  const msgW = rest - locW;
  let clean = 0;
  for (const s of report.sessions) {
    const list = bySession.get(s.path);
    if (!list?.length) {
      clean++;
      continue;
    }
    out.push(`${c.bold(escapeText(s.path))}  ${c.dim(s.format)}  ${counts(s.findings)}`);
    const table = new Table({
      head: ['severity', 'code', 'location', 'message'],
      colWidths: [sevW, codeW, locW, msgW],
      style: { head: options.color ? ['bold'] : [], border: options.color ? ['grey'] : [] },
      chars: NO_ROW_LINES,
    });
    for (const f of list) {
      table.push([
        paint(c, f.severity, f.severity),
        f.code,
        wrapText(escapeText(formatLocation(f.location)), locW - 2),
        wrapText(escapeText(f.message), msgW - 2),
      ]);
    }
    out.push(table.toString(), '');
  }
  const withFindings = report.sessions.filter((x) => x.findings.error + x.findings.warning + x.findings.note > 0);
  if (report.command !== 'verify' && withFindings.length > 1)
    out.push(sessionSummary(withFindings, width, options), '');
  if (clean > 0 && report.command !== 'verify') out.push(c.green(`${plural(clean, 'session')} with no findings.`));
  const sm = report.summary;
  const mb = (sm.bytes / (1024 * 1024)).toFixed(1);
  if (report.command === 'verify')
    out.push(`Verified ${plural(sm.files, 'file')} (${mb} MiB): ${counts(sm.findings)}.`);
  else
    out.push(
      `${report.command === 'validate' ? 'Validated' : 'Audited'} ${plural(sm.sessions, 'session')}, ` +
        `${plural(sm.files, 'file')} (${mb} MiB): ${counts(sm.findings)}.`,
    );
  for (const e of report.toolErrors)
    out.push(
      c.red(
        `internal error in check ${e.check} on session ${escapeText(e.session)}: ` +
          `${escapeText(e.message.split('\n')[0] ?? '')}`,
      ),
    );
  return `${out.join('\n')}\n`;
}

const SUMMARY_ROWS = 200;

/** Many sessions: one row per session with findings, the worst first (the tables above have the details). */
function sessionSummary(sessions: AuditReport['sessions'], width: number, options: TableOptions): string {
  const sorted = [...sessions].sort(
    (a, b) =>
      b.findings.error - a.findings.error ||
      b.findings.warning - a.findings.warning ||
      b.findings.note - a.findings.note ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  const pathW = Math.max(20, width - 4 * 10 - 6);
  const t = new Table({
    head: ['session', 'errors', 'warnings', 'notes'],
    colWidths: [pathW, 10, 10, 10],
    style: { head: options.color ? ['bold'] : [], border: options.color ? ['grey'] : [] },
    chars: NO_ROW_LINES,
  });
  for (const s of sorted.slice(0, SUMMARY_ROWS))
    t.push([wrapText(escapeText(s.path), pathW - 2), s.findings.error, s.findings.warning, s.findings.note]);
  const more =
    sorted.length > SUMMARY_ROWS
      ? `\n… and ${sorted.length - SUMMARY_ROWS} more sessions with findings (see the JSON report)`
      : '';
  return `Sessions with findings (${sorted.length}):\n${t.toString()}${more}`;
}
