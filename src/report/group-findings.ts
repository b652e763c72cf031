/**
 * What a human report shows of many findings: the findings of one code, severity and file of a session, five or
 * more, are one row (the first, with how many and the last line), and notes are summed up by code unless asked for
 * one by one. JSON, SARIF and JUnit keep every finding; this is for the table (and what reads like it).
 */
import type { Finding } from '../model/finding.js';

export interface FindingRow {
  finding: Finding;
  /** Findings of the same code, severity and file this row stands for (1: itself alone). */
  count: number;
  /** The last line among them, when they have lines and it differs from the first's. */
  lastLine?: number;
}

/** Findings of one code in one file fewer than this stay rows of their own: a few calls or secrets are each a row. */
export const GROUP_FROM = 5;

const keyOf = (f: Finding): string => `${f.sessionPath}\u0000${f.code}\u0000${f.severity}\u0000${f.location.file}`;

/** Rows in the order of `sorted`: each group (of GROUP_FROM findings or more) where its first finding is. */
export function groupRows(sorted: readonly Finding[]): FindingRow[] {
  const sizes = new Map<string, number>();
  for (const f of sorted) sizes.set(keyOf(f), (sizes.get(keyOf(f)) ?? 0) + 1);
  const rows: FindingRow[] = [];
  const at = new Map<string, FindingRow>();
  for (const f of sorted) {
    const key = keyOf(f);
    if (sizes.get(key)! < GROUP_FROM) {
      rows.push({ finding: f, count: 1 });
      continue;
    }
    const row = at.get(key);
    if (!row) {
      const r: FindingRow = { finding: f, count: 1 };
      at.set(key, r);
      rows.push(r);
      continue;
    }
    row.count++;
    const line = f.location.line;
    if (line !== undefined && line !== row.finding.location.line && (row.lastLine === undefined || line > row.lastLine))
      row.lastLine = line;
  }
  return rows;
}

/** The message of a row: the first finding's, and what the others add. */
export function rowMessage(r: FindingRow, message: string): string {
  if (r.count === 1) return message;
  const lines = r.lastLine !== undefined ? `, the last at line ${r.lastLine}` : '';
  return `${message} (and ${r.count - 1} more of this code in this file${lines})`;
}

/** Notes by code, most frequent first: `TIME_FILE_ORDER ×3, PI_VERSION_OLD ×1`. */
export function noteSummary(notes: readonly Finding[]): string {
  const by = new Map<string, number>();
  for (const f of notes) by.set(f.code, (by.get(f.code) ?? 0) + 1);
  return [...by]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([code, n]) => `${code} ×${n}`)
    .join(', ');
}
