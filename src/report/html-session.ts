/**
 * The sessions of the HTML report, collapsed: one line per session (worst first) that opens to its files, timeline
 * and tool-call pairs. What a session shows is embedded as inert JSON (`<script type="application/json">`, never
 * executed, `<` escaped so it cannot end its element) and turned into table rows by the page script only when the
 * session is opened, with text nodes, never markup: a page of hundreds of sessions loads as fast as its verdict.
 * Every string is escaped for the terminal-safety rules (escape.ts; lone surrogates too) before it is embedded.
 */
import type { SessionReport } from '../model/report.js';
import { type PairRow, statusWord } from '../pairing/pairing-result.js';
import type { TimelineEvent } from '../timeline/model.js';
import { displayPre, displayText, h } from './html-escape.js';
import type { HtmlSession } from './html-input.js';
import { plural, total, worstFirst } from './human.js';

const e = displayText;

/** JSON that is safe inside a `<script type="application/json">` element. */
export function jsonIsland(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The whole page: everything else first, session data in what is left (the page stays near it whatever the input). */
export const PAGE_BYTES = 2_750_000;
/**
 * Most bytes of session data a page embeds (the worst sessions first); past it, less. Whatever the rest of the page
 * takes, the sessions keep at least the floor: their files and tool calls for the worst of them.
 */
export const PAGE_DATA_BYTES = 2.2 * 1024 * 1024;
/** The sessions section's bytes at least (its list and its data), whatever the rest of the page takes. */
const SECTION_FLOOR = 0.9 * 1024 * 1024;
/** The share of the section the list of sessions may take (worst first); the sessions past it are counted. */
const LIST_SHARE = 0.5;
/** The share of the session data that timelines may take (so that every session keeps its files and tool calls). */
const TIMELINE_SHARE = 1.5 / 2.2;
/** Session data is not embedded in less room than this (the session says so). */
const DATA_MIN = 512;

/** Bytes the sessions section may take beside `rest` bytes of everything else in the page. */
export function sessionsRoom(rest: number): number {
  return Math.max(SECTION_FLOOR, PAGE_BYTES - rest - 16 * 1024);
}

/** Flag bits of an event row, as the page script reads them. */
export const FLAG = { rewound: 1, compacted: 2, displaced: 4, resume: 8 } as const;

type Where = { file: string; line: number; byteOffset: number } | undefined;

/**
 * An event's details beyond its tag: an id that is the session id and the counter (Grok's) by its counter alone,
 * the tool call, the subagent, where its time comes from. The rail and tag go in a table of their own.
 */
function eventMeta(ev: TimelineEvent): string {
  const id =
    ev.eventId === undefined
      ? ''
      : ev.counter !== undefined && ev.eventId === `${ev.session}-${ev.counter}`
        ? `event #${ev.counter}`
        : `event ${ev.eventId}${ev.counter !== undefined ? ` (#${ev.counter})` : ''}`;
  return [
    ev.depth ? `subagent session ${ev.session}${ev.parent ? ` under ${ev.parent}` : ''}` : '',
    id,
    ev.toolCallId ? `tool call ${ev.toolCallId}${ev.toolStatus ? ` ${ev.toolStatus}` : ''}` : '',
    ev.subagentId ? `subagent ${ev.subagentId}` : '',
    ev.timeSource !== 'agentTimestampMs' ? `time from ${ev.timeSource}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * A session's timeline as compact rows: `[time delta, prompt, kind, file, line, offset, flags, depth, summary, text,
 * tag, meta, resume]`, kinds, files and tags as indexes into tables. A summary that is the start of the text cut
 * with an ellipsis is stored as its length (the page cuts the text again).
 */
function timelineData(s: HtmlSession): unknown {
  if (s.timelineOmitted) return { omitted: true };
  if (s.timeline === undefined) return null;
  const kinds: string[] = [];
  const files: string[] = [];
  const tags: string[] = [];
  const index = (list: string[], v: string): number => {
    let i = list.indexOf(v);
    if (i < 0) i = list.push(v) - 1;
    return i;
  };
  // Times as the difference from the previous event's (the first from 0): short numbers.
  let last = 0;
  const delta = (ms: number | null): number | null => {
    if (ms === null) return null;
    const d = ms - last;
    last = ms;
    return d;
  };
  const events = s.timeline.map((ev) => {
    const text = ev.text && ev.text !== ev.summary ? displayPre(ev.text) : '';
    const summary = e(ev.summary);
    const cut = summary.endsWith('…') && text.startsWith(summary.slice(0, -1)) ? summary.length - 1 : summary;
    return [
      delta(ev.timeMs),
      ev.promptIndex ?? null,
      index(kinds, ev.kind),
      index(files, e(ev.file)),
      ev.line,
      ev.byteOffset,
      (ev.rewound ? FLAG.rewound : 0) |
        (ev.compacted ? FLAG.compacted : 0) |
        (ev.displaced ? FLAG.displaced : 0) |
        (ev.resume ? FLAG.resume : 0),
      ev.depth,
      cut,
      text,
      index(tags, e(`${ev.rail} ${ev.tag}`)),
      e(eventMeta(ev)),
      ev.resume ? e(ev.resume) : '',
    ];
  });
  // The file most events are lines of names the table (its heading); their "where" is then `:line @offset`.
  const per = new Map<number, number>();
  for (const ev of events) per.set(ev[3] as number, (per.get(ev[3] as number) ?? 0) + 1);
  const main = [...per].sort(([a, x], [b, y]) => y - x || a - b)[0]?.[0];
  return { kinds, files, tags, e: events, more: s.timelineTruncated ?? 0, ...(main !== undefined ? { m: main } : {}) };
}

/** The one file every call and result of a session is in, if there is one (the table's heading names it). */
function pairsFile(rows: readonly PairRow[]): string | undefined {
  const files = new Set<string>();
  for (const r of rows) for (const w of [r.call, r.result, r.logCall, r.logTerminal]) if (w) files.add(w.file);
  return files.size === 1 ? [...files][0] : undefined;
}

function pairData(r: PairRow, oneFile?: string): unknown[] {
  const where = (w: Where): string => (w ? `${w.file === oneFile ? '' : w.file}:${w.line} @${w.byteOffset}` : '');
  const called = r.call ?? r.logCall;
  return [
    e(r.id),
    e(r.name),
    r.kind ? e(r.kind) : '',
    r.mutating ? 1 : 0,
    r.promptIndex ?? null,
    e(statusWord(r)),
    e(r.call && r.logCall ? `${where(r.call)} (logged at ${where(r.logCall)})` : where(called)),
    e(r.result ? where(r.result) : r.logTerminal ? `${r.logTerminal.status} at ${where(r.logTerminal)}` : ''),
    e(r.note ?? ''),
    r.args ? displayPre(r.args) : '',
  ];
}

function fileData(rep: SessionReport | undefined): unknown[] {
  return (rep?.files ?? []).map((f) => [
    e(f.path),
    f.type,
    f.size ?? null,
    e(f.sha256 ?? (f.linkTarget !== undefined ? `→ ${f.linkTarget}` : (f.readError ?? ''))),
  ]);
}

/** What a session's embedded timeline covers, for the findings' links: its files, and each `file:line` row. */
export interface TimelineCover {
  files: Set<string>;
  rows: Set<string>;
}

/** What the sessions section drew: the links the findings may make (rows of timelines, sessions listed). */
export interface SessionsSection {
  html: string;
  cover: Map<string, TimelineCover>;
  /** The sessions with an entry in the page (the others are counted). */
  listed: Set<string>;
}

/**
 * The sessions section in `room` bytes or about: all collapsed, worst first; `anchors` gives each its element id.
 * The list takes at most half the room (the least bad sessions past it are counted), the data what is left, the
 * worst sessions' first; a session's timeline and tool calls are read (`load`) only when there is room for them.
 */
export function renderSessions(
  reports: readonly SessionReport[],
  extras: ReadonlyMap<string, HtmlSession>,
  anchors: ReadonlyMap<string, string>,
  room: number = PAGE_DATA_BYTES * 1.5,
): SessionsSection {
  const cover = new Map<string, TimelineCover>();
  const listed = new Set<string>();
  const byPath = new Map(reports.map((s) => [s.path, s]));
  const known = [...anchors.keys()].filter((p) => byPath.has(p) || extras.has(p));
  const ordered = known.sort((a, b) => {
    const x = byPath.get(a);
    const y = byPath.get(b);
    return x && y ? worstFirst(x, y) : x ? -1 : y ? 1 : 0;
  });
  const out = ['<section id="sessions" aria-labelledby="sessions-h">'];
  out.push(`<h2 id="sessions-h">Sessions (${ordered.length})</h2>`);
  if (ordered.length === 0) {
    out.push('<p class="empty" id="no-sessions">No sessions were audited.</p></section>');
    return { html: out.join(''), cover, listed };
  }
  out.push(
    '<p class="muted">Worst first. Open a session for its files, its timeline and its tool calls (drawn when ' +
      'opened).</p>',
  );
  // Each session's line first, worst first, in at most the list's share of the room.
  const entries: Array<{ path: string; open: string; close: string }> = [];
  let listBytes = 0;
  for (const path of ordered) {
    const entry = sessionEntry(path, anchors.get(path)!, byPath.get(path), extras.get(path));
    const size = entry.open.length + entry.close.length;
    if (listBytes + size > room * LIST_SHARE && entries.length > 0) break;
    listBytes += size;
    entries.push(entry);
    listed.add(path);
  }
  let dataRoom = Math.min(PAGE_DATA_BYTES, room - listBytes);
  let timelineRoom = Math.floor(dataRoom * TIMELINE_SHARE);
  for (const { path, open, close } of entries) {
    const rep = byPath.get(path);
    let json = '';
    if (dataRoom >= DATA_MIN) {
      const listedSession = extras.get(path);
      const s = listedSession?.load ? { ...listedSession, ...listedSession.load() } : listedSession;
      const built = sessionData(rep, s, timelineRoom);
      timelineRoom -= built.timelineBytes;
      if (built.cover) cover.set(path, built.cover);
      json = jsonIsland(built.data);
      if (json.length > dataRoom) {
        json = '';
        cover.delete(path);
      }
      dataRoom -= json.length;
    }
    // No data: the page script says it was not embedded.
    out.push(open, json ? `<script type="application/json" id="sd-${anchors.get(path)!}">${json}</script>` : '', close);
  }
  const left = ordered.length - entries.length;
  if (left) {
    const rest = ordered.slice(entries.length).map((p) => byPath.get(p));
    const clean = rest.filter((r) => !r || total(r.findings) === 0).length;
    out.push(
      `<p class="muted truncated" id="sessions-left">${plural(left, 'more session')} ${left === 1 ? 'is' : 'are'} ` +
        `not listed (the page keeps to its size budget; the least bad ${left === 1 ? 'is' : 'are'} left out, ` +
        `${clean} of them with no findings); the JSON report (<code>--format json</code>) lists every one.</p>`,
    );
  }
  out.push('</section>');
  return { html: out.join(''), cover, listed };
}

const filterButton = (anchor: string): string =>
  ` · <button type="button" class="link session-filter" data-sidx="${anchor}">show its findings</button>`;

/** A session's line in the list and its body, around where its data goes. */
function sessionEntry(
  path: string,
  anchor: string,
  rep: SessionReport | undefined,
  s: HtmlSession | undefined,
): { path: string; open: string; close: string } {
  const id = rep?.id ?? s?.id ?? '';
  const c = rep?.findings;
  const n = c ? total(c) : 0;
  const counts = c
    ? `<span class="counts">${c.error ? `<span class="sev error">${plural(c.error, 'error')}</span> ` : ''}` +
      `${c.warning ? `<span class="sev warning">${plural(c.warning, 'warning')}</span> ` : ''}` +
      `${c.note ? `<span class="sev note">${plural(c.note, 'note')}</span>` : ''}${n ? '' : 'no findings'}</span>`
    : '';
  return {
    path,
    open:
      `<details class="session" id="${anchor}" data-session="${h(id)}"><summary><span class="mono path">${h(path)}` +
      `</span> <span class="muted">${h(rep?.format ?? s?.format ?? '')}</span> ${counts}</summary>` +
      `<div class="body"><p class="meta"><code>${h(id)}</code>${n ? filterButton(anchor) : ''}</p>` +
      '<div class="slot"></div></div>',
    close: '</details>',
  };
}

/**
 * A session's data in `timelineRoom` bytes of timeline at most: the later sessions keep the start of their
 * timeline, or none of it.
 */
function sessionData(
  rep: SessionReport | undefined,
  s: HtmlSession | undefined,
  timelineRoom: number,
): { data: unknown; timelineBytes: number; cover?: TimelineCover } {
  const oneFile = s?.pairs ? pairsFile(s.pairs) : undefined;
  const data: { f: unknown[]; t: unknown; p: unknown[] | null; pf?: string } = {
    f: fileData(rep),
    t: s ? timelineData(s) : null,
    p: s?.pairs ? s.pairs.map((r) => pairData(r, oneFile)) : null,
    ...(oneFile !== undefined ? { pf: e(oneFile) } : {}),
  };
  const t = data.t as { e?: unknown[][]; more: number } | null;
  if (!t?.e) return { data, timelineBytes: 0 };
  let used = 0;
  let fit = 0;
  while (fit < t.e.length) {
    const n = jsonIsland(t.e[fit]).length + 1;
    if (used + n > timelineRoom) break;
    used += n;
    fit++;
  }
  if (fit === 0 && t.e.length > 0) data.t = { omitted: true };
  else if (fit < t.e.length) {
    t.more += t.e.length - fit;
    t.e = t.e.slice(0, fit);
  }
  // What the page will draw for this session (top-level events only: a subagent's lines are its own files).
  const embedded = s!.timeline!.slice(0, fit).filter((ev) => ev.depth === 0);
  return {
    data,
    timelineBytes: used,
    ...(embedded.length
      ? {
          cover: {
            files: new Set(embedded.map((ev) => ev.file)),
            rows: new Set(embedded.map((ev) => `${ev.file}\u0000${ev.line}`)),
          },
        }
      : {}),
  };
}
