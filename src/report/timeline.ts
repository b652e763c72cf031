/** Timeline renderers: table (escaped, truncated), jsonl and json (full text), csv, and Timesketch JSONL. */
import Table from 'cli-table3';
import type { TimelineEvent } from '../timeline/model.js';
import { escapeText } from './escape.js';
import { NO_ROW_LINES } from './table.js';

export const TIMELINE_FORMATS = ['table', 'jsonl', 'json', 'csv', 'timesketch'] as const;
export type TimelineFormat = (typeof TIMELINE_FORMATS)[number];

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function flags(e: TimelineEvent): string {
  return [e.rewound ? 'R' : '', e.compacted ? 'C' : '', e.displaced ? 'L' : '', e.resume ? '*' : ''].join('');
}

export function renderTimelineTable(events: readonly TimelineEvent[], width: number): string {
  const w = Math.max(90, width);
  const summaryW = w - 5 - 25 - 8 - 22 - 8 - 7 - 2;
  const t = new Table({
    head: ['time (UTC)', 'prompt', 'kind', 'line', 'flags', 'what'],
    style: { head: [], border: [] },
    chars: NO_ROW_LINES,
    colWidths: [25, 8, 22, 8, 7, summaryW + 2],
  });
  for (const e of events) {
    const indent = e.depth ? `${'  '.repeat(e.depth - 1)}↳ ` : '';
    const what = escapeText(clip(`${indent}${e.resume ? `[resumed] ` : ''}${e.summary}`, summaryW));
    t.push([
      e.time ? e.time.replace('T', ' ').replace('Z', '') : '',
      e.promptIndex ?? '',
      e.kind,
      String(e.line),
      flags(e),
      what,
    ]);
  }
  const legend =
    'flags: R rewound (not on the live branch), C compacted (before the last compaction), L written late (buffered ' +
    'chunk), * a new process picked the session up';
  const resumes = events
    .filter((e) => e.resume)
    .map((e) => `* line ${e.line}${e.depth ? ` (subagent ${escapeText(e.session)})` : ''}: ${escapeText(e.resume!)}`);
  return `${t.toString()}\n${legend}\n${resumes.length ? `${resumes.join('\n')}\n` : ''}${events.length} event(s).\n`;
}

export const renderTimelineJsonl = (events: readonly TimelineEvent[]): string =>
  events.map((e) => `${JSON.stringify(e)}\n`).join('');

export const renderTimelineJson = (events: readonly TimelineEvent[]): string => `${JSON.stringify(events, null, 2)}\n`;

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

export function renderTimelineCsv(events: readonly TimelineEvent[]): string {
  const rows = events.map((e) => CSV_COLUMNS.map((c) => csvCell(e[c])).join(','));
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

/** Timesketch JSONL: `message`, `datetime`, `timestamp_desc` (required) and `timestamp` in microseconds. */
/** `dataType`: the agent's Timesketch data type (e.g. session-audit:grok:event). */
export function renderTimesketch(events: readonly TimelineEvent[], dataType: string): string {
  let last: TimelineEvent | undefined;
  return events
    .map((e) => {
      const timed = e.timeMs !== null ? e : last;
      if (e.timeMs !== null) last = e;
      const ms = timed?.timeMs ?? 0;
      const desc =
        e.timeMs === null
          ? 'No timestamp (time of the previous event)'
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
    })
    .join('');
}

export interface TimelineRenderInput {
  events: readonly TimelineEvent[];
  width: number;
  /** The agent's Timesketch data type. */
  dataType: string;
}

/** The timeline renderers: one signature each. */
export const TIMELINE_RENDERERS = {
  table: (i) => renderTimelineTable(i.events, i.width),
  jsonl: (i) => renderTimelineJsonl(i.events),
  json: (i) => renderTimelineJson(i.events),
  csv: (i) => renderTimelineCsv(i.events),
  timesketch: (i) => renderTimesketch(i.events, i.dataType),
} satisfies Record<TimelineFormat, (i: TimelineRenderInput) => string>;
