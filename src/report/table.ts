/**
 * The human report for a terminal: one table per session with findings, the worst sessions first and, in each,
 * severity first, then place; every string escaped. Tables fit the width given and never break inside a code, a
 * location or a path: a session's full path is its table's title line; at narrow widths the code and location
 * share a column.
 */
import type { AuditReport } from '../model/report.js';
import type { Finding, Severity } from '../model/finding.js';
import { colors, type Colors } from './ansi.js';
import { escapeText } from './escape.js';
import {
  bySeverityThenPlace,
  configurationLines,
  counts,
  formatLocation,
  hiddenCount,
  plural,
  titleFile,
  total,
  worstFirst,
} from './human.js';
import { type FindingRow, GROUP_FROM, groupRows, noteSummary, rowMessage } from './group-findings.js';
import { type Cell, type Column, type Layout, layoutTable, linesAlone, renderGrid, TableWriter } from './layout.js';
import { displayWidth } from './width.js';
import { wrapLines, wrapText } from './wrap.js';

export { counts, formatLocation } from './human.js';

export interface TableOptions {
  color: boolean;
  /** Terminal width in columns. */
  width: number;
  /** Every note as a row of its own (`--notes`); else a session's notes are one line, by code. */
  notes?: boolean;
  /** false: no count of files and findings at the end (verify --store says its own). */
  summary?: boolean;
}

/** The narrowest width tables are laid out for. */
export const MIN_WIDTH = 40;

export function paintSeverity(c: Colors, sev: Severity): (s: string) => string {
  return sev === 'error' ? c.redBold : sev === 'warning' ? c.yellow : c.cyan;
}

const WIDE: Column[] = [
  { head: 'severity', kind: 'token' },
  { head: 'code', kind: 'token' },
  { head: 'location', kind: 'tokens' },
  { head: 'message', kind: 'text', min: 24 },
];
const NARROW: Column[] = [
  { head: 'severity', kind: 'token' },
  { head: 'code / location', kind: 'tokens' },
  { head: 'message', kind: 'text', min: 20 },
];

/**
 * The findings of one session as a table: four columns when the message gets room, else code over location.
 * `title`: the file the table's title names, whose locations are given by line alone.
 */
export function findingsTable(
  list: readonly Finding[],
  width: number,
  c: Colors,
  grouped = false,
  title?: string,
): string {
  const rows: FindingRow[] = grouped ? groupRows(list) : list.map((finding) => ({ finding, count: 1 }));
  const sev = (f: Finding): Cell => ({ text: f.severity, paint: paintSeverity(c, f.severity) });
  const loc = (f: Finding): string => escapeText(formatLocation(f.location, title));
  const msg = (r: FindingRow): string => escapeText(rowMessage(r, r.finding.message));
  const wide = rows.map((r): Cell[] => [sev(r.finding), r.finding.code, loc(r.finding), msg(r)]);
  const layout = layoutTable(WIDE, wide, width);
  const msgW = layout.widths[3] ?? 0;
  const narrow = rows.map((r): Cell[] => [sev(r.finding), `${r.finding.code}\n${loc(r.finding)}`, msg(r)]);
  // Four columns when the message gets room there, unless code over location fits where they do not, or puts
  // fewer words on lines of their own.
  const narrowLayout = layoutTable(NARROW, narrow, width);
  const score = (l: Layout, rows: Cell[][]): number => (l.fits ? 0 : 1_000_000) + linesAlone(l, rows);
  if (msgW >= Math.min(48, Math.floor(width / 3)) && score(layout, wide) <= score(narrowLayout, narrow))
    return renderGrid(WIDE, wide, width, paints(c)).text;
  return renderGrid(NARROW, narrow, width, paints(c)).text;
}

export const paints = (c: Colors) => ({ head: c.bold, rule: c.grey });

export function renderTable(report: AuditReport, options: TableOptions): string {
  const c = colors(options.color);
  const width = Math.max(MIN_WIDTH, options.width);
  const out: string[] = [];
  const bySession = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = bySession.get(f.sessionPath);
    if (list) list.push(f);
    else bySession.set(f.sessionPath, [f]);
  }
  const sessions = [...report.sessions].sort(worstFirst);
  let clean = 0;
  let summed = 0;
  const notesOnly: Finding[] = [];
  // verify's findings are few and each one a verdict on a file: never grouped.
  const grouped = report.command !== 'verify' && !options.notes;
  for (const s of sessions) {
    const list = bySession.get(s.path);
    if (!list?.length) {
      if (s.kind !== 'home') clean++;
      continue;
    }
    const notes = grouped ? list.filter((f) => f.severity === 'note') : [];
    const rows = grouped ? list.filter((f) => f.severity !== 'note') : list;
    summed += notes.length;
    if (!rows.length) {
      // Notes alone: summed up below with every other session's.
      notesOnly.push(...notes);
      continue;
    }
    const what = s.kind === 'home' ? `${s.format} home: its own files beside its sessions` : s.format;
    out.push(c.bold(escapeText(s.path)), `${c.dim(what)}  ${counts(s.findings)}`);
    out.push(findingsTable([...rows].sort(bySeverityThenPlace), width, c, grouped, titleFile(s)));
    if (notes.length)
      out.push(...wrapLines(`${plural(notes.length, 'note')}: ${escapeText(noteSummary(notes))}`, width), '');
  }
  if (notesOnly.length) {
    const n = new Set(notesOnly.map((f) => f.sessionPath)).size;
    out.push(
      ...wrapLines(
        `${plural(n, 'session')} with notes only, ${plural(notesOnly.length, 'note')}: ` +
          `${escapeText(noteSummary(notesOnly))}`,
        width,
      ),
      '',
    );
  }
  // Summed up, notes do not make a session one to look at first.
  const withFindings = sessions.filter(
    (x) => (grouped ? x.findings.error + x.findings.warning : total(x.findings)) > 0,
  );
  if (report.command !== 'verify' && withFindings.length > 1) out.push(sessionSummary(withFindings, width, c), '');
  const hidden = hiddenCount(report);
  if (clean > 0 && report.command !== 'verify')
    out.push(
      ...wrapLines(
        hidden
          ? `${plural(clean, 'session')} with no findings left to show ` +
              `(${plural(hidden, 'finding')} hidden: see below).`
          : `${plural(clean, 'session')} with no findings.`,
        width,
      ),
    );
  const sm = report.summary;
  const mb = (sm.bytes / (1024 * 1024)).toFixed(1);
  const tally = `${counts(sm.findings)}${hidden ? ` shown, ${hidden} hidden` : ''}`;
  if (options.summary === false) {
    /* the caller says it */
  } else if (report.command === 'verify')
    out.push(...wrapLines(`Verified ${plural(sm.files, 'file')} (${mb} MiB): ${tally}.`, width));
  else
    out.push(
      ...wrapLines(
        `${report.command === 'validate' ? 'Validated' : 'Audited'} ${plural(sm.sessions, 'session')}` +
          `${sm.homes ? ` and ${plural(sm.homes, 'agent home')}` : ''}, ${plural(sm.files, 'file')} (${mb} MiB): ` +
          `${tally}.`,
        width,
      ),
    );
  if (summed)
    out.push(
      ...wrapLines(
        `${plural(summed, 'note')} summed up by code (--notes lists each; the JSON, SARIF and JUnit reports have ` +
          `every finding); ${GROUP_FROM} or more findings of one code in one file are one row.`,
        width,
      ),
    );
  const homes = homesEntered(report.sessions);
  if (homes) out.push(...wrapLines(escapeText(homes), width));
  out.push(...configurationLines(report).map(escapeText));
  for (const e of report.toolErrors)
    out.push(
      c.red(
        `internal error in check ${e.check} on session ${escapeText(e.session)}: ` +
          `${escapeText(e.message.split('\n')[0] ?? '')}`,
      ),
    );
  return `${out.join('\n')}\n`;
}

const HOMES_SHOWN = 10;

/** The agents' homes the walk entered (dot-directories it passes over otherwise), with their sessions. */
export function homesEntered(sessions: AuditReport['sessions']): string | undefined {
  const by = new Map<string, number>();
  for (const s of sessions) if (s.home !== undefined) by.set(s.home, (by.get(s.home) ?? 0) + 1);
  if (!by.size) return undefined;
  const list = [...by].slice(0, HOMES_SHOWN).map(([h, n]) => `${h} (${plural(n, 'session')})`);
  const more = by.size > HOMES_SHOWN ? `, and ${by.size - HOMES_SHOWN} more (the JSON report names each)` : '';
  return `Entered ${plural(by.size, 'agent home')}: ${list.join(', ')}${more}.`;
}

const SUMMARY_ROWS = 200;

/**
 * Many sessions: one row per session with findings, the worst first. Counts, then the full path: when a path does
 * not fit beside the counts it goes on its own line below them, whole, so it can be copied.
 */
function sessionSummary(sessions: AuditReport['sessions'], width: number, c: Colors): string {
  const cols: Column[] = [
    { head: 'errors', kind: 'token', align: 'right' },
    { head: 'warnings', kind: 'token', align: 'right' },
    { head: 'notes', kind: 'token', align: 'right' },
    { head: 'session', kind: 'token' },
  ];
  const shown = sessions.slice(0, SUMMARY_ROWS);
  const cells = shown.map((s): Cell[] => [
    s.findings.error ? { text: String(s.findings.error), paint: c.redBold } : '0',
    String(s.findings.warning),
    String(s.findings.note),
    escapeText(s.path),
  ]);
  const counts3 = cols.slice(0, 3);
  const numbers = layoutTable(counts3, cells, width);
  const pathRoom = width - numbers.widths.reduce((a, b) => a + b, 0) - 3 * 2;
  const widest = Math.max(...cells.map((r) => displayWidth(r[3] as string)));
  const w = new TableWriter(
    {
      ...numbers,
      columns: [...counts3, cols[3]!],
      kept: [0, 1, 2, 3],
      widths: [...numbers.widths, Math.max(7, Math.min(pathRoom, widest))],
      width,
    },
    c.bold,
    c.grey,
  );
  let text = `${wrapText(`Sessions with findings (${sessions.length}), worst first:`, width)}\n${w.header()}`;
  // Beside the counts when every path fits there; else every path on a line of its own, under its counts.
  const beside = widest <= pathRoom;
  shown.forEach((s, i) => {
    text += beside ? w.row(cells[i]!) : `${w.row([...cells[i]!.slice(0, 3), ''])}${escapeText(s.path)}\n`;
  });
  if (sessions.length > SUMMARY_ROWS)
    text += `… and ${sessions.length - SUMMARY_ROWS} more sessions with findings (the JSON report has them all)\n`;
  return text.trimEnd();
}
