/**
 * Timeline renderers, streamed: each takes events one at a time and writes as it goes, so a session of a million
 * lines costs one row of memory, not a million. Formats: table (escaped, one line per event, fitted to the
 * terminal; the first N events, then a line that says how many more and how to get them), jsonl and json (full
 * text), csv, and Timesketch JSONL.
 */
import type { TimelineEvent } from '../timeline/model.js';
import { colors } from './ansi.js';
import { escapeText } from './escape.js';
import { type Cell, type Column, GAP, layoutTable, TableWriter } from './layout.js';
import { paints } from './table.js';
import type { TimelineFormat } from './timeline-formats.js';
import { clipEnd } from './width.js';
import { wrapText } from './wrap.js';

export { TIMELINE_FORMATS, type TimelineFormat } from './timeline-formats.js';

export interface TimelineWriter {
  event(e: TimelineEvent): void;
  end(): void;
}

export interface TimelineWriterOptions {
  /** Terminal width (table). */
  width: number;
  /** The agent's Timesketch data type (e.g. session-audit:grok:event). */
  dataType: string;
  /**
   * What flag L means for this agent (its timeline rules' `lateLine`, e.g. "an ACP line written after xAI lines");
   * absent: the agent writes every line as it happens, and the legend leaves L out.
   */
  lateFlag?: string;
  color?: boolean;
  /** Table rows shown (default: all). */
  limit?: number;
  /** Timesketch: events left out of the time-based export (no timed event to place them by), told at the end. */
  onOmitted?: (count: number, why: string) => void;
}

/** Timesketch: events without a time held until the first timed one places them; past this many, counted only. */
const UNPLACED_HELD = 10_000;

type Out = (s: string) => void;

function flags(e: TimelineEvent): string {
  return [e.rewound ? 'R' : '', e.compacted ? 'C' : '', e.displaced ? 'L' : '', e.resume ? '*' : ''].join('');
}

/** The flags' legend: L only for an agent whose writer can put a line on disk late. */
const legend = (lateFlag: string | undefined): string =>
  'flags: R rewound (not on the live branch), C compacted (before the last compaction), ' +
  `${lateFlag !== undefined ? `L ${lateFlag}, ` : ''}* a new process picked the session up`;

/** Rows buffered to size the columns before the first is written. */
const SAMPLE = 200;
/** Resume evidence lines listed under the table (more are counted). */
const RESUMES = 100;
/** The time column takes the full date from this width on; below it, dates go on rows of their own. */
const FULL_TIME_WIDTH = 110;

function tableWriter(out: Out, o: TimelineWriterOptions): TimelineWriter {
  const c = colors(o.color ?? false);
  const width = Math.max(40, o.width);
  const limit = o.limit ?? Number.POSITIVE_INFINITY;
  const fullTime = width >= FULL_TIME_WIDTH;
  const columns: Column[] = [
    { head: 'time (UTC)', kind: 'token' },
    { head: 'turn', kind: 'token', align: 'right' },
    { head: 'kind', kind: 'token' },
    { head: 'line', kind: 'token', align: 'right', min: 7 },
    { head: 'flags', kind: 'token' },
    { head: 'what', kind: 'token' },
  ];
  const sample: TimelineEvent[] = [];
  let writer: TableWriter | undefined;
  let whatW = 0;
  let lastDate = '';
  /** The file of the last row written, and whether the rows name their file (a timeline of several files). */
  let lastFile: string | undefined;
  let namedFiles = false;
  let seen = 0;
  let shown = 0;
  const resumes: string[] = [];
  let moreResumes = 0;
  const time = (e: TimelineEvent): string => {
    if (!e.time) return '';
    const t = e.time.replace('T', ' ').replace('Z', '');
    return fullTime ? t : t.slice(11);
  };
  /** Whether a row recalled from a database (no line) was shown: the legend then says what `row` means. */
  let rows = false;
  const lineCell = (e: TimelineEvent): string => {
    if (e.row === undefined) return String(e.line);
    rows = true;
    return 'row';
  };
  const cells = (e: TimelineEvent): Cell[] => [
    time(e),
    e.promptIndex ?? '',
    e.kind,
    lineCell(e),
    { text: flags(e), paint: e.rewound ? c.red : c.yellow },
    '',
  ];
  const what = (e: TimelineEvent): string => {
    const indent = e.depth ? `${'  '.repeat(e.depth - 1)}↳ ` : '';
    return clipEnd(escapeText(`${indent}${e.resume ? '[resumed] ' : ''}${e.summary}`), whatW);
  };
  const start = (): void => {
    // Sized by the first rows, with room for what later rows need: seven-digit lines, the longer kinds.
    const l = layoutTable(columns.slice(0, 5), sample.map(cells), Number.POSITIVE_INFINITY);
    const widths = [
      fullTime ? 23 : 12,
      Math.max(4, l.widths[1]!),
      Math.max(17, l.widths[2]!),
      Math.max(7, l.widths[3]!),
      5,
    ];
    const used = widths.reduce((a, b) => a + b, 0) + GAP * widths.length;
    whatW = Math.max(16, width - used);
    writer = new TableWriter(
      { columns, kept: [0, 1, 2, 3, 4, 5], widths: [...widths, whatW], dropped: [], fits: true, width },
      paints(c).head,
      paints(c).rule,
    );
    out(writer.header());
    // Line numbers are each file's own: when the rows come from several files, each file's rows are headed by it.
    namedFiles = sample.some((e) => e.file !== sample[0]!.file);
    for (const e of sample) write(e);
    sample.length = 0;
  };
  const write = (e: TimelineEvent): void => {
    if (e.file !== lastFile) {
      const before = lastFile;
      lastFile = e.file;
      if (before !== undefined && !namedFiles) {
        // The first rows had no heading (one file so far): say which file they were from.
        namedFiles = true;
        out(`${c.dim(wrapText(`── ${escapeText(e.file)} (the rows above: ${escapeText(before)})`, width))}\n`);
        lastDate = '';
      } else if (namedFiles) {
        out(`${c.dim(wrapText(`── ${escapeText(e.file)}`, width))}\n`);
        lastDate = '';
      }
    }
    if (!fullTime && e.time) {
      const date = e.time.slice(0, 10);
      if (date !== lastDate) {
        lastDate = date;
        out(writer!.drawLines([{ alone: `── ${date} ──`, indent: 0, paint: c.dim }]));
      }
    }
    const row = cells(e);
    row[5] = what(e);
    out(writer!.row(row));
  };
  return {
    event(e) {
      seen++;
      if (e.resume) {
        if (resumes.length < RESUMES)
          resumes.push(
            `* line ${e.line}${e.depth ? ` (subagent ${escapeText(e.session)})` : ''}: ${escapeText(e.resume)}`,
          );
        else moreResumes++;
      }
      if (shown >= limit) return;
      shown++;
      if (writer) write(e);
      else {
        sample.push(e);
        if (sample.length >= SAMPLE) start();
      }
    },
    end() {
      if (!writer) start();
      const tail = [legend(o.lateFlag), ...resumes];
      if (namedFiles) tail.push('line: the line in the file named above the row (each file is numbered from 1).');
      if (rows) tail.push('row: recalled from a database, which has no lines (`--format jsonl` names the row).');
      if (moreResumes) tail.push(`… and ${moreResumes} more resume boundaries (--format jsonl lists them all)`);
      if (seen > shown)
        tail.push(
          `${shown} of ${seen} events shown; ${seen - shown} more not shown: \`--limit 0\` shows them all, ` +
            '`--format jsonl` gives every event with its full text.',
        );
      else tail.push(`${seen} event(s).`);
      out(`${tail.map((t) => wrapText(t, width)).join('\n')}\n`);
    },
  };
}

const CSV_COLUMNS = [
  'session',
  'depth',
  'parent',
  'file',
  'line',
  'byteOffset',
  'time',
  'timeSource',
  'eventId',
  'counter',
  'rail',
  'kind',
  'tag',
  'promptIndex',
  'toolCallId',
  'toolStatus',
  'subagentId',
  'rewound',
  'compacted',
  'displaced',
  'resume',
  'summary',
  'text',
] as const;

/** RFC 4180 quoting; cells that a spreadsheet would run as a formula get a leading apostrophe. */
function csvCell(v: unknown): string {
  if (v === undefined || v === null) return '';
  // Control characters and bidi overrides are shown as escapes (a spreadsheet or a terminal would act on them);
  // newlines inside a cell stay (quoted), as RFC 4180 allows.
  let s = String(v)
    .split('\n')
    .map((part) => escapeText(part))
    .join('\n');
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** `timed`: the event whose time `e` takes (itself when it has one); `next`: it comes after `e`. */
function timesketchLine(e: TimelineEvent, timed: TimelineEvent | undefined, dataType: string, next = false): string {
  const ms = timed?.timeMs ?? 0;
  const desc =
    e.timeMs === null
      ? `No timestamp (time of the ${next ? 'next' : 'previous'} event)`
      : e.timeSource === 'agentTimestampMs'
        ? 'Agent event time'
        : 'Log write time';
  return `${JSON.stringify({
    message: `[${e.kind}] ${e.summary}`,
    datetime: new Date(ms).toISOString(),
    timestamp: ms * 1000,
    timestamp_desc: desc,
    data_type: dataType,
    session_id: e.session,
    source_file: e.file,
    source_line: e.line,
    byte_offset: e.byteOffset,
    event_id: e.eventId,
    kind: e.kind,
    tag: e.tag,
    prompt_index: e.promptIndex,
    tool_call_id: e.toolCallId,
    rewound: e.rewound,
    compacted: e.compacted,
    text: e.text,
  })}\n`;
}

/** A streaming writer for one format. */
export function timelineWriter(format: TimelineFormat, out: Out, o: TimelineWriterOptions): TimelineWriter {
  switch (format) {
    case 'table':
      return tableWriter(out, o);
    case 'jsonl':
      return { event: (e) => out(`${JSON.stringify(e)}\n`), end: () => {} };
    case 'json': {
      // The same bytes as JSON.stringify(events, null, 2), one element at a time.
      let n = 0;
      return {
        event(e) {
          out(`${n++ ? ',\n' : '[\n'}  ${JSON.stringify(e, null, 2).replaceAll('\n', '\n  ')}`);
        },
        end: () => out(n ? '\n]\n' : '[]\n'),
      };
    }
    case 'csv': {
      let started = false;
      return {
        event(e) {
          if (!started) out(`${CSV_COLUMNS.join(',')}\r\n`);
          started = true;
          out(`${CSV_COLUMNS.map((col) => csvCell(e[col])).join(',')}\r\n`);
        },
        end() {
          if (!started) out(`${CSV_COLUMNS.join(',')}\r\n`);
        },
      };
    }
    case 'timesketch': {
      // An event without a time takes the previous timed event's; those before the first timed event take its
      // time, and a timeline with no time at all is left out (counted): never a row at 1970-01-01.
      let last: TimelineEvent | undefined;
      const held: TimelineEvent[] = [];
      let dropped = 0;
      return {
        event(e) {
          if (e.timeMs === null && !last) {
            if (held.length < UNPLACED_HELD) held.push(e);
            else dropped++;
            return;
          }
          if (e.timeMs !== null) {
            for (const h of held) out(timesketchLine(h, e, o.dataType, true));
            held.length = 0;
            if (dropped) o.onOmitted?.(dropped, `more than ${UNPLACED_HELD} came before the first timed event`);
            dropped = 0;
            last = e;
          }
          out(timesketchLine(e, e.timeMs !== null ? e : last, o.dataType));
        },
        end: () => {
          if (held.length + dropped) o.onOmitted?.(held.length + dropped, 'no event of the timeline has a time');
        },
      };
    }
  }
}

/** A whole timeline at once (bags, tests). */
export function renderTimeline(
  format: TimelineFormat,
  events: Iterable<TimelineEvent>,
  o: TimelineWriterOptions,
): string {
  const parts: string[] = [];
  const w = timelineWriter(format, (s) => parts.push(s), o);
  for (const e of events) w.event(e);
  w.end();
  return parts.join('');
}

export const renderTimelineTable = (events: readonly TimelineEvent[], width: number): string =>
  renderTimeline('table', events, { width, dataType: '' });

export const renderTimelineJsonl = (events: readonly TimelineEvent[]): string =>
  renderTimeline('jsonl', events, { width: 0, dataType: '' });

export const renderTimelineCsv = (events: readonly TimelineEvent[]): string =>
  renderTimeline('csv', events, { width: 0, dataType: '' });
