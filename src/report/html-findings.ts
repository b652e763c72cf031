/**
 * The HTML report's verdict and its findings: what was found by severity and the gate (first, as in every human
 * output), then the findings, severity first, sortable and filterable by the page script, each with a link to its
 * timeline row and the bytes of the line it points at (escaped, the first KiB shown, more on request), then the
 * counts by code.
 */
import { catalog } from '../checks/catalog.js';
import { SEVERITIES, SEVERITY_RANK, type FailOn, type Finding, type Severity } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import { byteSegments, cutAtCharacter } from './bytes-text.js';
import { clip, h, shortId } from './html-escape.js';
import type { FindingBytes } from './html-input.js';
import type { TimelineCover } from './html-session.js';
import { type FindingRow, GROUP_FROM, groupRows, noteSummary, rowMessage } from './group-findings.js';
import { bySeverityThenPlace, configurationLines, formatLocation, plural, verdict } from './human.js';

export { plural } from './human.js';

/** Session display path → section anchor id (`s1`, `s2`, …), in first-seen order. */
export type SessionAnchors = ReadonlyMap<string, string>;

/** Severity as a class name: only the known ones, so content never becomes a class. */
export const sevClass = (s: string): Severity | 'unknown' =>
  (SEVERITIES as readonly string[]).includes(s) ? (s as Severity) : 'unknown';

/** Findings rendered as rows; past this the page says how many more the JSON report has. */
export const FINDING_ROWS = 5000;
/** Bytes of a finding's line shown at first; the rest (up to what was read) behind "more". */
const FIRST_BYTES = 1024;
/** Bytes of lines embedded over the whole page. */
const PAGE_LINE_BYTES = 384 * 1024;

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Sort key for a location: file, then line and byte offset as zero-padded numbers. */
function locKey(f: Finding): string {
  const l = f.location;
  return (
    `${l.file} ${String(l.line ?? 0).padStart(12, '0')} ${String(l.byteOffset ?? 0).padStart(15, '0')} ` +
    `${l.pointer ?? ''}`
  );
}

/** Where a baseline entry that no longer occurs was. */
const absentAt = (a: { file?: string; line?: number }): string =>
  a.file !== undefined ? `${a.file}${a.line !== undefined ? `:${a.line}` : ''}` : '';

const PLURAL = { error: 'errors', warning: 'warnings', note: 'notes' } as const;

export function sortableHead(cols: ReadonlyArray<readonly [label: string, numeric?: boolean]>): string {
  const th = ([label, num]: readonly [string, boolean?]): string =>
    `<th scope="col"${num ? ' data-type="num"' : ''}><button type="button">${h(label)}</button></th>`;
  return `<thead><tr>${cols.map(th).join('')}</tr></thead>`;
}

export function renderHeader(report: AuditReport, title: string): string {
  return (
    `<header><h1>session-audit report${title ? `: <span class="mono">${h(title)}</span>` : ''}</h1>` +
    `<p class="meta">${h(report.tool.name)} ${h(report.tool.version)} · <code>${h(report.command)}</code> · report ` +
    `version ${h(report.reportVersion)}</p></header>`
  );
}

/** The verdict: what was found by severity, the gate on its own line, what the configuration hid, the counts. */
export function renderVerdict(report: AuditReport, failOn: FailOn): string {
  const s = report.summary;
  const v = verdict(report, failOn);
  const worst = s.findings.error ? 'error' : s.findings.warning ? 'warning' : s.findings.note ? 'note' : 'none';
  const out: string[] = ['<section id="verdict" aria-labelledby="verdict-h">'];
  out.push(
    `<h2 id="verdict-h" class="headline ${worst}">${h(v.headline[0]!.toUpperCase() + v.headline.slice(1))}</h2>`,
    `<p class="gate ${v.gate.state}"><b>Gate: ${h(v.gate.state)}</b>: ${h(v.gate.text.replaceAll('`', ''))}.</p>`,
  );
  const lines = configurationLines(report);
  if (lines.length) out.push(`<ul class="config">${lines.map((l) => `<li>${h(l)}</li>`).join('')}</ul>`);
  out.push('<div class="cards">');
  for (const sev of SEVERITIES)
    out.push(`<div class="card ${sev}"><b>${h(s.findings[sev] ?? 0)}</b>${PLURAL[sev]}</div>`);
  out.push(`<div class="card"><b>${h(s.sessions)}</b>sessions</div><div class="card"><b>${h(s.files)}</b>files</div>`);
  out.push(`<div class="card"><b>${h(mib(s.bytes))}</b>${h(s.bytes)} bytes</div></div>`);
  if (report.baseline && report.baseline.absent.length > 0) {
    const b = report.baseline;
    out.push(
      `<details class="baseline-absent"><summary>Baseline entries no longer found (${b.absent.length})</summary><ul>`,
    );
    for (const a of b.absent)
      out.push(
        `<li><code>${h(a.code)}</code> ${h([a.sessionPath, absentAt(a)].filter(Boolean).join(' '))} ` +
          `<span class="muted mono">${h(a.fingerprint)}</span></li>`,
      );
    out.push('</ul></details>');
  }
  if (report.toolErrors.length > 0) {
    out.push(`<h3>Internal errors (${report.toolErrors.length})</h3><ul class="tool-errors">`);
    for (const e of report.toolErrors)
      out.push(
        `<li>check <code>${h(e.check)}</code> on session <code>${h(e.session)}</code>: <pre>${h(e.message)}</pre></li>`,
      );
    out.push('</ul>');
  }
  out.push('</section>');
  return out.join('');
}

/** The counts by code, collapsed, after the findings; each code filters the findings table. */
export function renderByCode(report: AuditReport): string {
  const s = report.summary;
  const codes = Object.keys(s.byCode).sort();
  if (codes.length === 0) return '';
  const info = new Map<string, { title: string }>(catalog().map((e) => [e.code, e]));
  const out = [
    `<details id="by-code"><summary>Findings by code (${codes.length} codes)</summary><table class="codes"><thead>` +
      '<tr><th scope="col">code</th><th scope="col">count</th><th scope="col">meaning</th></tr></thead><tbody>',
  ];
  for (const code of codes)
    out.push(
      `<tr><td><button type="button" class="link code-filter mono" data-code="${h(code)}" title="show only these ` +
        `findings">${h(code)}</button></td><td>${h(s.byCode[code])}</td>` +
        `<td>${h(info.get(code)?.title ?? '')}</td></tr>`,
    );
  out.push('</tbody></table></details>');
  return out.join('');
}

function options(values: ReadonlyArray<readonly [value: string, label: string]>): string {
  return values.map(([v, l]) => `<option value="${h(v)}">${h(l)}</option>`).join('');
}

/** Bytes as escaped text, invalid UTF-8 bytes marked. */
function bytesHtml(b: Uint8Array): string {
  return byteSegments(b)
    .map((seg) =>
      'text' in seg
        ? h(seg.text)
        : `<span class="inv" title="not UTF-8">\\x${seg.invalid.toString(16).padStart(2, '0')}</span>`,
    )
    .join('');
}

/** The bytes a finding points at: the first KiB, then the rest behind "more", then how to see all of it. */
function rawBytes(f: Finding, raw: FindingBytes, dir: string, budget: { bytes: number }): string {
  const room = Math.max(FIRST_BYTES, Math.min(raw.bytes.length, budget.bytes));
  const kept = raw.bytes.subarray(0, cutAtCharacter(raw.bytes, room));
  budget.bytes -= kept.length;
  const first = cutAtCharacter(kept, FIRST_BYTES);
  const total = raw.length;
  const out = [
    `<details class="raw"><summary>${f.location.byteLength !== undefined ? 'the bytes' : 'the line'} ` +
      `(${total !== undefined ? plural(total, 'byte') : `over ${kept.length} bytes`})</summary>`,
    `<pre class="bytes">${bytesHtml(kept.subarray(0, first))}</pre>`,
  ];
  if (kept.length > first)
    out.push(
      `<details class="more"><summary>${plural(kept.length - first, 'more byte')}</summary>` +
        `<pre class="bytes">${bytesHtml(kept.subarray(first))}</pre></details>`,
    );
  if (total === undefined || total > kept.length) {
    const file = `${dir}/${f.location.file}`;
    const cmd =
      total !== undefined
        ? `dd if=${file} bs=1 skip=${f.location.byteOffset} count=${total} status=none`
        : `tail -c +${f.location.byteOffset! + 1} ${file} | head -n 1`;
    out.push(`<p class="muted">Not all of it is in the page: <code>${h(cmd)}</code></p>`);
  }
  out.push('</details>');
  return out.join('');
}

export interface FindingsContext {
  anchors: SessionAnchors;
  /** Per finding (same index as `report.findings`). */
  lines?: ReadonlyArray<FindingBytes | undefined>;
  /** For each session path: what its embedded timeline covers (a finding there links to its row, or near it). */
  timelines: ReadonlyMap<string, TimelineCover> | 'every row';
  /** The directory a session's files are relative to. */
  dirOf: (sessionPath: string) => string;
  /** --notes: every finding a row of its own (else notes are summed up by code, a code's many in a file one row). */
  notes?: boolean;
  /** Most bytes the section takes (its rows stop there, and it says how many findings it left out). */
  budget?: number;
  /** The sessions with an entry in the page (a finding links to its session only then); default: every one. */
  listed?: ReadonlySet<string>;
}

/** The findings section's bytes at most (rows, with their lines' bytes): the page keeps to its budget. */
export const FINDINGS_BYTES = 1_100_000;

/** What the findings table holds of the report's findings, and what it says it left out; these add up. */
export interface FindingsTally {
  /** Every finding of the report (the heading's count). */
  total: number;
  /** Findings the table's rows stand for (a row of a code's many in a file stands for all of them). */
  inTable: number;
  rows: number;
  /** Notes summed up by code under the table (not rows). */
  summed: number;
  /** Findings past the page's budget (the least severe), in no row and no summary. */
  omitted: number;
}

export function renderFindings(report: AuditReport, ctx: FindingsContext): string {
  return findingsSection(report, ctx).html;
}

export function findingsSection(report: AuditReport, ctx: FindingsContext): { html: string; tally: FindingsTally } {
  const out: string[] = ['<section id="findings-section" aria-labelledby="findings-h">'];
  const n = report.findings.length;
  out.push(`<h2 id="findings-h">Findings (${n})</h2>`);
  if (n === 0) {
    const hidden = report.baseline?.suppressed ?? 0;
    out.push(
      `<p class="empty" id="no-findings">${
        hidden ? 'No findings left to show (see the verdict for what was hidden).' : 'No findings.'
      }</p></section>`,
    );
    return { html: out.join(''), tally: { total: 0, inTable: 0, rows: 0, summed: 0, omitted: 0 } };
  }
  // As the table does: notes summed up by code and a code's many findings in a file one row, unless --notes
  // (verify's findings are each a verdict on a file: never grouped).
  const grouped = !ctx.notes && report.command !== 'verify';
  const sorted = report.findings.map((f, i) => ({ f, i })).sort((a, b) => bySeverityThenPlace(a.f, b.f) || a.i - b.i);
  const index = new Map(sorted.map(({ f, i }) => [f, i]));
  const notes = grouped ? sorted.filter(({ f }) => f.severity === 'note').map(({ f }) => f) : [];
  const listed = grouped ? sorted.filter(({ f }) => f.severity !== 'note').map(({ f }) => f) : sorted.map((x) => x.f);
  const allRows: FindingRow[] = grouped ? groupRows(listed) : listed.map((finding) => ({ finding, count: 1 }));
  const codes = [...new Set([...Object.keys(report.summary.byCode), ...report.findings.map((f) => f.code)])].sort();
  const budget = ctx.budget ?? FINDINGS_BYTES;
  // The rows first (they decide which sessions the filter offers), then the filters above them.
  const body: string[] = [];
  let used = 0;
  let kept = 0;
  let inTable = 0;
  const bytes = { bytes: PAGE_LINE_BYTES };
  // A shortened id that two sessions share would mislead: those are shown whole.
  const shortOf = new Map<string, Set<string>>();
  for (const { finding: f } of allRows.slice(0, FINDING_ROWS))
    shortOf.set(shortId(f.session), (shortOf.get(shortId(f.session)) ?? new Set()).add(f.session));
  const shown = (id: string): string => ((shortOf.get(shortId(id))?.size ?? 0) > 1 ? id : shortId(id));
  for (const r of allRows) {
    if (kept >= FINDING_ROWS) break;
    const row = findingRow(r, index.get(r.finding)!, kept, ctx, shown, bytes);
    if (used + row.length > budget && kept > 0) break;
    used += row.length;
    body.push(row);
    kept++;
    inTable += r.count;
  }
  const tally: FindingsTally = {
    total: n,
    inTable,
    rows: kept,
    summed: notes.length,
    omitted: n - inTable - notes.length,
  };
  const withRows = new Set(allRows.slice(0, kept).map((r) => r.finding.sessionPath));
  const sessionOpts = [...ctx.anchors]
    .filter(([path]) => withRows.has(path) && (!ctx.listed || ctx.listed.has(path)))
    .map(([path, id]) => [id, path] as const);
  out.push(findingsSaid(tally, notes));
  out.push('<div class="filters" role="search">');
  out.push(
    `<label>severity<select id="f-severity"><option ` +
      `value="">all</option>${options(SEVERITIES.map((s) => [s, s]))}</select></label>`,
  );
  out.push(
    `<label>code<select id="f-code"><option value="">all</option>${options(codes.map((c) => [c, c]))}</select></label>`,
  );
  out.push(
    `<label>session<select id="f-session"><option ` +
      `value="">all</option>${options(sessionOpts.map(([id, path]) => [id, clip(path, 120)]))}</select></label>`,
  );
  out.push('<label>text<input id="f-text" type="search" placeholder="filter findings" autocomplete="off"></label>');
  out.push(
    `<span id="f-shown" class="muted" aria-live="polite">${inTable} of ${inTable} findings in the table shown</span>` +
      '</div>',
  );
  out.push(
    '<table id="findings" class="sortable findings"><caption class="muted">Severity first, then place. Click a ' +
      'column heading to sort.</caption>',
  );
  out.push(sortableHead([['severity', true], ['code'], ['session'], ['location'], ['message']]));
  out.push('<tbody>', ...body, '</tbody></table>');
  if (tally.omitted)
    out.push(
      `<p class="muted truncated">${plural(tally.omitted, 'less severe finding')} ${
        tally.omitted === 1 ? 'is' : 'are'
      } not in the page (it keeps to its size budget); the JSON report (<code>--format json</code>) has every one.</p>`,
    );
  out.push('</section>');
  return { html: out.join(''), tally };
}

/** Under the heading: what the table holds, what is summed up, what is left out; the three add up to the heading. */
function findingsSaid(t: FindingsTally, notes: readonly Finding[]): string {
  const parts = [
    `${plural(t.inTable, 'finding')} in the table${
      t.rows !== t.inTable
        ? ` (${plural(t.rows, 'row')}: ${GROUP_FROM} or more of one code in one file are one row)`
        : ''
    }`,
  ];
  if (t.summed)
    parts.push(
      `${plural(t.summed, 'note')} summed up by code: ${h(noteSummary(notes))} (<code>--notes</code> lists each)`,
    );
  if (t.omitted) parts.push(`${plural(t.omitted, 'less severe finding')} not in the page`);
  return `<p id="f-counts" class="muted" data-total="${t.total}" data-table="${t.inTable}" data-summed="${
    t.summed
  }" data-omitted="${t.omitted}">${parts.join('; ')}.</p>`;
}

function findingRow(
  r: FindingRow,
  i: number,
  rank: number,
  ctx: FindingsContext,
  shown: (id: string) => string,
  budget: { bytes: number },
): string {
  const f = r.finding;
  const sev = sevClass(f.severity);
  const sidx = ctx.listed && !ctx.listed.has(f.sessionPath) ? '' : (ctx.anchors.get(f.sessionPath) ?? '');
  const session = sidx
    ? `<a href="#${sidx}" title="${h(f.sessionPath)}">${h(shown(f.session))}</a>`
    : `<span title="${h(f.sessionPath)}">${h(shown(f.session))}</span>`;
  // 'every row' sizes the section as if every finding linked to its timeline row (the page's budget).
  const all = ctx.timelines === 'every row';
  const cover = all ? undefined : (ctx.timelines as ReadonlyMap<string, TimelineCover>).get(f.sessionPath);
  const line = f.location.line;
  const exact = line !== undefined && (all || cover?.rows.has(`${f.location.file}\u0000${line}`));
  // A line with no event of its own (a damaged one) links to the event before it.
  const goto =
    sidx && line !== undefined && (all || cover?.files.has(f.location.file))
      ? ` <a class="goto" href="#${sidx}" data-s="${sidx}" data-file="${h(f.location.file)}" ` +
        `data-line="${line}">${exact ? 'timeline row' : 'timeline near it'}</a>`
      : '';
  const raw = ctx.lines?.[i];
  return (
    `<tr class="finding" id="finding-${i + 1}" data-i="${rank}" data-severity="${h(f.severity)}" ` +
    `data-code="${h(f.code)}" data-session="${h(f.session)}" data-sidx="${sidx}" ` +
    `data-fingerprint="${h(f.fingerprint)}" data-n="${r.count}">` +
    `<td data-v="${SEVERITY_RANK[sev as Severity] ?? 3}"><span class="sev ${sev}">${h(f.severity)}</span></td>` +
    `<td class="code mono">${h(f.code)}</td>` +
    `<td class="session mono" data-v="${h(f.sessionPath)}">${session}</td>` +
    `<td class="loc" data-v="${h(locKey(f))}">${h(formatLocation(f.location))}${goto}</td>` +
    `<td class="msg">${h(rowMessage(r, f.message))}${
      raw ? rawBytes(f, raw, ctx.dirOf(f.sessionPath), budget) : ''
    }</td></tr>`
  );
}
