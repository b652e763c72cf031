/**
 * `activity` as a terminal text, fitted to the width: per session a heading (agent, id, path, the file most of its
 * entries are in and the working directory most commands ran in), then its commands, files touched, tools that
 * reach outside and calls that failed, each a small table. A command of several lines shows its first and how many
 * more; a cwd is shown beside a command only when it differs from the session's. When a table cannot fit, its
 * entries are written as wrapped lines. Every string from a session is escaped; no line is wider than the width.
 */
import type { ActivityFailed, ActivityFile, ActivityCommand, CallOutcome, SessionActivity } from '../model/activity.js';
import { colors, type Colors } from './ansi.js';
import { escapeText } from './escape.js';
import { plural } from './human.js';
import { type Cell, type Column, layoutTable, TableWriter } from './layout.js';
import { MIN_WIDTH, paints } from './table.js';
import { wrapText } from './wrap.js';

export interface ActivityTableOptions {
  width: number;
  color: boolean;
  /** Sessions found before the filters. */
  total: number;
}

/** A time for the table: UTC to the second. */
const second = (iso: string | null): string => (iso === null ? '-' : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`);

/** The value seen most often (first seen on a tie), or undefined for none. */
function most(values: Iterable<string | null>): string | undefined {
  const n = new Map<string, number>();
  let best: string | undefined;
  for (const v of values) {
    if (v === null) continue;
    const c = (n.get(v) ?? 0) + 1;
    n.set(v, c);
    if (best === undefined || c > n.get(best)!) best = v;
  }
  return best;
}

const fileOf = (location: string): string => location.replace(/:\d+$/, '');

/** A command on one line: its first line, escaped, and how many more it has. */
function commandLine(cmd: string | null): string {
  if (cmd === null) return '(not recorded)';
  const lines = cmd.replace(/\s+$/, '').split('\n');
  const more = lines.length > 1 ? ` (+${plural(lines.length - 1, 'line')})` : '';
  return `${escapeText(lines[0]!)}${more}`;
}

function paintStatus(c: Colors, s: CallOutcome): Cell {
  if (s === 'completed') return s;
  if (s === 'failed' || s === 'rejected') return { text: s, paint: c.red };
  return { text: s, paint: c.yellow };
}

interface Section {
  title: string;
  columns: Column[];
  rows: Cell[][];
}

const time: Column = { head: 'time', kind: 'tokens' };
const status: Column = { head: 'status', kind: 'token' };
const where: Column = { head: 'line', kind: 'text', min: 8 };

function render(s: Section, width: number, c: Colors): string {
  if (!s.rows.length) return '';
  const p = paints(c);
  let text = `${c.bold(s.title)}\n`;
  const layout = layoutTable(s.columns, s.rows, width);
  if (layout.fits) {
    const w = new TableWriter(layout, p.head, p.rule);
    text += w.header();
    for (const r of s.rows) text += w.row(r);
  } else {
    // Too narrow for columns: each entry as lines of `head: value`, wrapped.
    for (const r of s.rows) {
      const parts = s.columns.map((col, i) => {
        const cell = r[i] ?? '';
        return `${col.head} ${typeof cell === 'object' ? cell.text : String(cell)}`;
      });
      text += `${wrapText(parts.join('; ').replaceAll('\n', ' '), width)}\n`;
    }
  }
  return `${text}\n`;
}

/** `label value`, wrapped to the width as plain text, then the label painted. */
function labelled(paint: (s: string) => string, label: string, value: string, width: number): string {
  const wrapped = wrapText(`${label} ${value}`, width);
  return wrapped.startsWith(label) ? `${paint(label)}${wrapped.slice(label.length)}\n` : `${wrapped}\n`;
}

function sessionText(s: SessionActivity, width: number, c: Colors): string {
  const mainFile = most([...s.commands, ...s.files, ...s.failed].map((e) => fileOf(e.location)));
  const place = (location: string): string =>
    mainFile !== undefined && fileOf(location) === mainFile
      ? location.slice(mainFile.length + 1)
      : escapeText(location);
  const cwd = most(s.commands.map((e) => e.cwd));
  let text = labelled(c.bold, escapeText(s.agent), escapeText(s.id), width);
  text += `${wrapText(escapeText(s.path), width)}\n`;
  // The file the line numbers are in, unless the session is that file.
  if (mainFile !== undefined && !s.path.endsWith(`/${mainFile}`) && s.path !== mainFile)
    text += labelled(c.dim, 'lines of', escapeText(mainFile), width);
  if (cwd !== undefined) text += labelled(c.dim, 'commands run in', escapeText(cwd), width);
  text += '\n';
  const cmd = (e: ActivityCommand): Cell[] => [
    second(e.time),
    paintStatus(c, e.status),
    e.exitCode === null ? '-' : String(e.exitCode),
    `${commandLine(e.command)}${e.cwd !== null && e.cwd !== cwd ? `\nin ${escapeText(e.cwd)}` : ''}`,
    place(e.location),
  ];
  const file = (e: ActivityFile): Cell[] => [
    second(e.time),
    e.action,
    paintStatus(c, e.status),
    escapeText(e.path),
    place(e.location),
  ];
  const fail = (e: ActivityFailed): Cell[] => [
    second(e.time),
    escapeText(e.tool),
    paintStatus(c, e.status),
    e.error === null ? '(no result)' : escapeText(e.error),
    place(e.location),
  ];
  const sections: Section[] = [
    {
      title: `Commands (${s.commands.length})`,
      columns: [
        time,
        status,
        { head: 'exit', kind: 'token', align: 'right' },
        { head: 'command', kind: 'text' },
        where,
      ],
      rows: s.commands.map(cmd),
    },
    {
      title: `Files (${s.files.length})`,
      columns: [time, { head: 'action', kind: 'token' }, status, { head: 'path', kind: 'text' }, where],
      rows: s.files.map(file),
    },
    {
      title: `Reaching outside (${plural(
        s.tools.reduce((n, t) => n + t.calls, 0),
        'call',
      )})`,
      columns: [
        { head: 'reach', kind: 'token' },
        { head: 'tool', kind: 'text' },
        { head: 'calls', kind: 'token', align: 'right' },
        { head: 'failed', kind: 'token', align: 'right' },
      ],
      rows: s.tools.map((t) => [
        t.server !== null ? `${t.reach} ${escapeText(t.server)}` : t.reach,
        escapeText(t.tool),
        String(t.calls),
        String(t.failed),
      ]),
    },
    {
      title: `Failed, refused or never answered (${s.failed.length})`,
      columns: [time, { head: 'tool', kind: 'token', max: 16 }, status, { head: 'error', kind: 'text' }, where],
      rows: s.failed.map(fail),
    },
  ];
  const body = sections.map((sec) => render(sec, width, c)).join('');
  return text + (body || `${c.dim('nothing recorded')}\n\n`);
}

export function activityTable(sessions: readonly SessionActivity[], options: ActivityTableOptions): string {
  const c = colors(options.color);
  const width = Math.max(MIN_WIDTH, options.width);
  let text = sessions.map((s) => sessionText(s, width, c)).join('');
  const count = (f: (s: SessionActivity) => number): number => sessions.reduce((n, s) => n + f(s), 0);
  const shown = sessions.length === options.total ? '' : ` (of ${options.total} found; the others did not match)`;
  const summary =
    `${plural(sessions.length, 'session')}${shown}: ${plural(
      count((s) => s.commands.length),
      'command',
    )}, ` +
    `${plural(
      count((s) => s.files.length),
      'file action',
    )}, ` +
    `${plural(
      count((s) => s.tools.reduce((n, t) => n + t.calls, 0)),
      'call',
    )} reaching outside, ` +
    `${plural(
      count((s) => s.failed.length),
      'call',
    )} failed, refused or never answered; times are UTC.`;
  text += `${wrapText(summary, width)}\n`;
  return text;
}
