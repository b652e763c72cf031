/** One section per session in the HTML report: its files, its timeline and its tool-call pairing table. */
import type { SessionReport } from '../model/report.js';
import type { PairRow } from '../pairing/classify.js';
import type { TimelineEvent } from '../timeline/model.js';
import type { HtmlSession } from './html-input.js';
import { plural, sortableHead } from './html-findings.js';
import { h, hPre } from './html-escape.js';

const where = (w: { file: string; line: number; byteOffset: number } | undefined): string =>
  w ? `${w.file}:${w.line} @${w.byteOffset}` : '';
const whereKey = (w: { file: string; line: number } | undefined): string =>
  w ? `${w.file} ${String(w.line).padStart(12, '0')}` : '';
/** A class-name token from an enum-like value: lowercase letters and dashes only. */
const token = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z]+/g, '-')
    .replace(/^-|-$/g, '');

const FLAGS = [
  ['rewound', 'rewound', 'a later rewind removed this event from the live branch'],
  ['compacted', 'compacted', 'before the last compaction: the model now sees only its summary'],
  ['displaced', 'late', 'written to the file after events emitted later (a buffered chunk)'],
] as const;

function eventRow(e: TimelineEvent, i: number): string {
  const cls = [
    'event',
    ...FLAGS.filter(([k]) => e[k]).map(([k]) => k),
    ...(e.resume ? ['resume'] : []),
    ...(e.depth ? [`d${Math.min(e.depth, 3)}`] : []),
  ];
  const badges = FLAGS.filter(([k]) => e[k]).map(
    ([k, label, title]) => `<span class="flag ${k}" title="${title}">${label}</span>`,
  );
  if (e.resume) badges.push('<span class="flag resume" title="a new process picked the session up here">resume</span>');
  const meta = [
    e.depth ? `subagent session ${e.session}${e.parent ? ` under ${e.parent}` : ''}` : '',
    e.eventId ? `event ${e.eventId}${e.counter !== undefined ? ` (#${e.counter})` : ''}` : '',
    `${e.rail} ${e.tag}`,
    e.toolCallId ? `tool call ${e.toolCallId}${e.toolStatus ? ` ${e.toolStatus}` : ''}` : '',
    e.subagentId ? `subagent ${e.subagentId}` : '',
    `time from ${e.timeSource}`,
  ].filter(Boolean);
  const resume = e.resume ? `<div class="resume-evidence"><b>resumed:</b> ${h(e.resume)}</div>` : '';
  const full = e.text && e.text !== e.summary ? `<pre>${hPre(e.text)}</pre>` : '';
  const what =
    `${resume}<details><summary>${h(e.summary) || '<span class="muted">(empty)</span>'}</summary><div ` +
    `class="muted">${h(meta.join(' · '))}</div>${full}</details>`;
  return [
    `<tr class="${cls.join(' ')}" data-i="${i}" data-kind="${h(e.kind)}" data-line="${e.line}">`,
    `<td class="time mono" ` +
      `data-v="${h(e.time ?? '')}">${h(e.time ? e.time.replace('T', ' ').replace('Z', '') : '')}</td>`,
    `<td data-v="${e.promptIndex ?? ''}">${e.promptIndex ?? ''}</td>`,
    `<td class="mono">${h(e.kind)}</td>`,
    `<td class="what" data-v="${h(e.summary)}">${what}</td>`,
    `<td class="loc" data-v="${h(`${e.file} ${String(e.line).padStart(12, '0')}`)}">`,
    `${h(`${e.file}:${e.line} @${e.byteOffset}`)}</td>`,
    `<td>${badges.join('')}</td></tr>`,
  ].join('');
}

function timeline(s: HtmlSession): string {
  if (s.timeline === undefined) return '';
  const more = s.timelineTruncated ? `, ${s.timelineTruncated} more not shown` : '';
  const out = [`<h4>Timeline (${plural(s.timeline.length, 'event')}${more})</h4>`];
  if (s.timeline.length === 0) return `${out[0]}<p class="empty">No events.</p>`;
  out.push(
    '<table class="sortable timeline">',
    sortableHead([['time (UTC)'], ['prompt', true], ['kind'], ['what'], ['where'], ['flags']]),
    '<tbody>',
  );
  s.timeline.forEach((e, i) => {
    out.push(eventRow(e, i));
  });
  out.push('</tbody></table>');
  if (s.timelineTruncated)
    out.push(
      `<p class="muted truncated">${h(s.timelineTruncated)} later event(s) are not shown; run <code>session-audit ` +
        `timeline</code> on this session for all of them.</p>`,
    );
  return out.join('');
}

function pairRow(r: PairRow, i: number): string {
  const called = r.call ?? r.logCall;
  const calledCell = [
    r.call ? h(where(r.call)) : '',
    r.logCall && r.call
      ? `<br><span class="muted">logged at ${h(where(r.logCall))}</span>`
      : r.logCall
        ? h(where(r.logCall))
        : '',
  ].join('');
  const answered = r.result ?? r.logTerminal;
  const answeredCell = r.result
    ? h(where(r.result))
    : r.logTerminal
      ? h(`${r.logTerminal.status} at ${where(r.logTerminal)}`)
      : '';
  const tool = [
    h(r.name),
    r.kind ? ` <span class="muted">(${h(r.kind)})</span>` : '',
    r.mutating ? ' <span class="flag mutating" title="the tool can change files or run commands">mutating</span>' : '',
    r.args ? `<details><summary>arguments</summary><pre>${hPre(r.args)}</pre></details>` : '',
  ].join('');
  return [
    `<tr class="pair ${token(r.status)}" data-i="${i}" data-status="${h(r.status)}" data-call-id="${h(r.id)}">`,
    `<td class="id">${h(r.id)}</td>`,
    `<td data-v="${h(r.name)}">${tool}</td>`,
    `<td data-v="${r.promptIndex ?? ''}">${r.promptIndex ?? ''}</td>`,
    `<td class="loc" data-v="${h(whereKey(called))}">${calledCell}</td>`,
    `<td class="loc" data-v="${h(whereKey(answered))}">${answeredCell}</td>`,
    `<td class="status">${h(r.status)}</td>`,
    `<td>${h(r.note ?? '')}</td></tr>`,
  ].join('');
}

function pairs(rows: readonly PairRow[] | undefined): string {
  if (rows === undefined) return '';
  const head = `<h4>Tool calls (${rows.length})</h4>`;
  if (rows.length === 0) return `${head}<p class="empty">No tool calls.</p>`;
  const out = [
    head,
    '<table class="sortable pairs">',
    sortableHead([['call id'], ['tool'], ['prompt', true], ['called'], ['answered'], ['status'], ['note']]),
    '<tbody>',
  ];
  rows.forEach((r, i) => {
    out.push(pairRow(r, i));
  });
  out.push('</tbody></table>');
  return out.join('');
}

function files(rep: SessionReport | undefined): string {
  if (!rep || rep.files.length === 0) return '';
  const out = [
    `<details class="files"><summary>Files (${rep.files.length})</summary><table class="files"><thead><tr><th ` +
      `scope="col">path</th><th scope="col">type</th><th scope="col">bytes</th><th scope="col">sha256 / ` +
      `note</th></tr></thead><tbody>`,
  ];
  for (const f of rep.files) {
    const note = f.sha256 ?? (f.linkTarget !== undefined ? `→ ${f.linkTarget}` : (f.readError ?? ''));
    out.push(
      `<tr class="file"><td class="loc">${h(f.path)}</td><td>${h(f.type)}</td><td>${h(f.size ?? '')}</td><td ` +
        `class="mono">${h(note)}</td></tr>`,
    );
  }
  out.push('</tbody></table></details>');
  return out.join('');
}

/** One session's section; `anchor` is its element id (`s1`, …), also what the findings filter selects by. */
export function renderSession(
  anchor: string,
  path: string,
  rep: SessionReport | undefined,
  s: HtmlSession | undefined,
): string {
  const id = rep?.id ?? s?.id ?? '';
  const format = rep?.format ?? s?.format ?? '';
  const c = rep?.findings;
  const total = c ? c.error + c.warning + c.note : 0;
  const meta = [
    `<code>${h(id)}</code>`,
    h(format),
    c ? `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.note, 'note')}` : '',
    total > 0
      ? `<button type="button" class="link session-filter" data-sidx="${anchor}">show its findings</button>`
      : '',
  ].filter(Boolean);
  return [
    `<section class="session" id="${anchor}" aria-labelledby="${anchor}-h" data-session="${h(id)}">`,
    `<h3 id="${anchor}-h" class="mono">${h(path)}</h3>`,
    `<p class="meta">${meta.join(' · ')}</p>`,
    files(rep),
    timeline(s ?? { id, path, format }),
    pairs(s?.pairs),
    s?.timeline === undefined && s?.pairs === undefined
      ? '<p class="empty">No timeline or tool-call table for this session.</p>'
      : '',
    '</section>',
  ].join('');
}
