/**
 * What drawing a terminal table costs, in-process: a table of findings (severity, code, location, a message that
 * wraps), fitted by layout.ts and drawn by cli-table3 (draw.ts), against the same fitted lines padded and joined
 * by hand; and what loading cli-table3 costs, its first draw against the next.
 */
import type { DrawLine } from '../../src/report/draw.js';
import { type Cell, type Column, layoutTable, TableWriter } from '../../src/report/layout.js';
import { pad } from '../../src/report/width.js';

const COLUMNS: Column[] = [
  { head: 'severity', kind: 'token' },
  { head: 'code', kind: 'token' },
  { head: 'location', kind: 'tokens' },
  { head: 'message', kind: 'text', min: 24 },
];

const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

export interface TableCost {
  rows: number;
  lines: number;
  /** The first table drawn, loading cli-table3 included. */
  firstMs: number;
  loadMs: number;
  cliMs: number;
  msPer100Lines: number;
  plainMs: number;
}

export function tableCost(rows = 1000, width = 120): TableCost {
  const cells = Array.from({ length: rows }, (_, i): Cell[] => [
    i % 7 ? 'warning' : 'error',
    i % 3 ? 'TOOL_INTERRUPTED_CALL' : 'SCHEMA_VIOLATION',
    `updates.jsonl:${i + 1} @${i * 311}`,
    `call call_${i.toString(36).padStart(6, '0')} (run_command) has no result: it was in flight when the session ` +
      'stopped (the final turn never completed).',
  ]);
  const w = new TableWriter(layoutTable(COLUMNS, cells, width));
  const lines: DrawLine[] = [...w.headerLines(), ...cells.flatMap((r) => w.rowLines(r))];
  let t0 = process.hrtime.bigint();
  w.drawLines(lines.slice(0, 3));
  const firstMs = ms(t0);
  t0 = process.hrtime.bigint();
  w.drawLines(lines.slice(0, 3));
  const againMs = ms(t0);
  let cliMs = Number.POSITIVE_INFINITY;
  let plainMs = Number.POSITIVE_INFINITY;
  for (let k = 0; k < 3; k++) {
    t0 = process.hrtime.bigint();
    w.drawLines(lines);
    cliMs = Math.min(cliMs, ms(t0));
    t0 = process.hrtime.bigint();
    let out = '';
    for (const l of lines)
      out +=
        'alone' in l
          ? `${' '.repeat(l.indent)}${l.alone}\n`
          : `${l.cells
              .map((c, i) => pad(c.text, w.layout.widths[i]!, w.layout.columns[i]!.align === 'right'))
              .join('  ')
              .trimEnd()}\n`;
    plainMs = Math.min(plainMs, ms(t0));
    if (!out) throw new Error('nothing drawn');
  }
  const round = (x: number): number => Math.round(x * 10) / 10;
  return {
    rows,
    lines: lines.length,
    firstMs: round(firstMs),
    loadMs: round(firstMs - againMs),
    cliMs: round(cliMs),
    msPer100Lines: round((cliMs / lines.length) * 100),
    plainMs: round(plainMs),
  };
}
