/**
 * `sessions` as a terminal table, fitted to the width: one line per session with every column when they all fit;
 * else the project and the path go on lines of their own under the session's row (the path whole, so it can be
 * copied); narrower still, start over end and id over agent and worst finding share columns. Ids, codes and paths
 * are never broken; every string from a session is escaped.
 */
import type { SessionRow } from '../model/session-row.js';
import { colors, type Colors } from './ansi.js';
import { escapeText } from './escape.js';
import { plural } from './human.js';
import type { DrawLine } from './draw.js';
import { type Cell, type Column, layoutTable, TableWriter } from './layout.js';
import { MIN_WIDTH, paintSeverity, paints } from './table.js';
import { displayWidth } from './width.js';
import { wrapText } from './wrap.js';

export interface SessionsTableOptions {
  width: number;
  color: boolean;
  /** Sessions found before the filters. */
  total: number;
  /** Agent homes the walk entered, with their sessions. */
  homes?: ReadonlyMap<string, number>;
}

/** A time for the table: UTC to the minute. */
const minute = (iso: string | null): string => (iso === null ? '-' : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`);

const num = (head: string): Column => ({ head, kind: 'token', align: 'right' });
const COUNTS: Column[] = [num('prompts'), num('calls'), num('failed')];

const FULL: Column[] = [
  { head: 'started', kind: 'tokens' },
  { head: 'ended', kind: 'tokens' },
  { head: 'agent', kind: 'token' },
  { head: 'session', kind: 'token' },
  ...COUNTS,
  { head: 'worst', kind: 'tokens' },
  { head: 'project', kind: 'token' },
  { head: 'path', kind: 'token' },
];
/** FULL without the project and the path, which go under the row. */
const LINE = FULL.slice(0, 8);
const NARROW: Column[] = [
  { head: 'started / ended', kind: 'tokens' },
  { head: 'session / agent, worst', kind: 'tokens' },
  ...COUNTS,
];

function worstCell(r: SessionRow, c: Colors): Cell {
  // A session whose log is gone, known to its home's history or index (the path names that file).
  if (r.gone !== undefined) return { text: 'gone: no log', paint: c.dim };
  if (!r.worst) return '-';
  return { text: `${r.worst.severity} ${escapeText(r.worst.code)}`, paint: paintSeverity(c, r.worst.severity) };
}

const counts = (r: SessionRow): Cell[] => [String(r.prompts), String(r.toolCalls), String(r.failedCalls)];

export function sessionsTable(rows: readonly SessionRow[], options: SessionsTableOptions): string {
  const c = colors(options.color);
  const width = Math.max(MIN_WIDTH, options.width);
  const p = paints(c);
  const full = rows.map((r): Cell[] => [
    minute(r.started),
    minute(r.ended),
    escapeText(r.agent),
    escapeText(r.id),
    ...counts(r),
    worstCell(r, c),
    r.project === null ? '-' : escapeText(r.project),
    escapeText(r.path),
  ]);
  let text = '';
  const fullLayout = layoutTable(FULL, full, width);
  if (rows.length && fullLayout.fits) {
    const w = new TableWriter(fullLayout, p.head, p.rule);
    text = w.header() + full.map((cells) => w.row(cells)).join('');
  } else if (rows.length) {
    const lineLayout = layoutTable(LINE, full, width);
    const narrow = !lineLayout.fits;
    const cells = narrow
      ? rows.map((r): Cell[] => {
          const worst = worstCell(r, c);
          const worstText = typeof worst === 'object' ? ` ${worst.text}` : '';
          return [
            `${minute(r.started)}\n${minute(r.ended)}`,
            `${escapeText(r.id)}\n${escapeText(r.agent)}${worstText}`,
            ...counts(r),
          ];
        })
      : full;
    const w = new TableWriter(narrow ? layoutTable(NARROW, cells, width) : lineLayout, p.head, p.rule);
    text = w.header();
    rows.forEach((r, i) => {
      text += w.row(cells[i]!);
      // Whole, on lines of their own: a path longer than the width is still one line, to be copied.
      const under: DrawLine[] = [];
      if (r.project !== null) {
        const project = escapeText(r.project);
        if (displayWidth(project) + 8 <= width) under.push({ alone: `project ${project}`, indent: 0, paint: c.dim });
        else under.push({ alone: 'project', indent: 0, paint: c.dim }, { alone: project, indent: 0 });
      }
      under.push({ alone: escapeText(r.path), indent: 0 });
      text += `${w.drawLines(under)}\n`;
    });
  }
  const shown = rows.length === options.total ? '' : ` (of ${options.total} found; the others did not match)`;
  text += `${wrapText(`${plural(rows.length, 'session')}${shown}, sorted by start; times are UTC.`, width)}\n`;
  if (options.homes?.size) {
    const homes = [...options.homes].map(([h, n]) => `${escapeText(h)} (${plural(n, 'session')})`);
    text += `${wrapText(`Entered ${plural(homes.length, 'agent home')}: ${homes.join(', ')}.`, width)}\n`;
  }
  return text;
}
