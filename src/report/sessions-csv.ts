/**
 * `sessions --format csv` and `--format json`. CSV is RFC 4180 (CRLF line ends; a field with a comma, a quote or a
 * line break quoted, quotes doubled), and a cell a spreadsheet would read as a formula (it starts with = + - @, a
 * tab or a carriage return) gets a single quote in front, so opening the file never runs what a session wrote.
 * `gone`: for a session known only to a file of its agent's home (a history, an index), that file.
 */
import type { SessionRow } from '../model/session-row.js';

export const CSV_COLUMNS = [
  'id',
  'agent',
  'project',
  'started',
  'ended',
  'prompts',
  'tool_calls',
  'failed_calls',
  'worst_severity',
  'worst_code',
  'errors',
  'warnings',
  'notes',
  'path',
  'gone',
] as const;

/** One CSV field: guarded against formula injection, then quoted when RFC 4180 needs it. */
export function csvField(value: string | number | null): string {
  let s = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function sessionsCsv(rows: readonly SessionRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const cells: Array<string | number | null> = [
      r.id,
      r.agent,
      r.project,
      r.started,
      r.ended,
      r.prompts,
      r.toolCalls,
      r.failedCalls,
      r.worst?.severity ?? null,
      r.worst?.code ?? null,
      r.findings.error,
      r.findings.warning,
      r.findings.note,
      r.path,
      r.gone ?? null,
    ];
    lines.push(cells.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export function sessionsJson(rows: readonly SessionRow[]): string {
  const sessions = rows.map((r) => ({
    id: r.id,
    agent: r.agent,
    path: r.path,
    project: r.project,
    started: r.started,
    ended: r.ended,
    prompts: r.prompts,
    toolCalls: r.toolCalls,
    failedCalls: r.failedCalls,
    worst: r.worst,
    findings: r.findings,
    ...(r.gone !== undefined ? { gone: r.gone } : {}),
  }));
  return `${JSON.stringify({ sessions }, null, 2)}\n`;
}
