/** The HTML report's summary header and its findings table (sortable and filterable by the page script). */
import { catalog } from '../checks/catalog.js';
import { SEVERITIES, SEVERITY_RANK, type Finding, type Severity } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import { clip, h, shortId } from './html-escape.js';
import { formatLocation } from './table.js';

/** Session display path → section anchor id (`s1`, `s2`, …), in first-seen order. */
export type SessionAnchors = ReadonlyMap<string, string>;

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Severity as a class name: only the known ones, so content never becomes a class. */
export const sevClass = (s: string): Severity | 'unknown' =>
  (SEVERITIES as readonly string[]).includes(s) ? (s as Severity) : 'unknown';

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

export function renderSummary(report: AuditReport, title: string): string {
  const s = report.summary;
  const out: string[] = [];
  out.push(`<header><h1>session-audit report${title ? `: <span class="mono">${h(title)}</span>` : ''}</h1>`);
  out.push(
    `<p class="meta">${h(report.tool.name)} ${h(report.tool.version)} · <code>${h(report.command)}</code> · report ` +
      `version ${h(report.reportVersion)}</p></header>`,
  );
  out.push('<section id="summary" aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2><div class="cards">');
  for (const sev of SEVERITIES)
    out.push(`<div class="card ${sev}"><b>${h(s.findings[sev] ?? 0)}</b>${PLURAL[sev]}</div>`);
  out.push(`<div class="card"><b>${h(s.sessions)}</b>sessions</div><div class="card"><b>${h(s.files)}</b>files</div>`);
  out.push(`<div class="card"><b>${h(mib(s.bytes))}</b>${h(s.bytes)} bytes</div></div>`);
  const codes = Object.keys(s.byCode).sort();
  if (codes.length > 0) {
    const info = new Map<string, { title: string }>(catalog().map((e) => [e.code, e]));
    out.push(
      '<h3>Findings by code</h3><table class="codes"><thead><tr><th scope="col">code</th><th ' +
        'scope="col">count</th><th scope="col">meaning</th></tr></thead><tbody>',
    );
    for (const code of codes) {
      const meaning = info.get(code)?.title ?? '';
      out.push(
        `<tr><td><button type="button" class="link code-filter mono" data-code="${h(code)}" title="show only these ` +
          `findings">${h(code)}</button></td><td>${h(s.byCode[code])}</td><td>${h(meaning)}</td></tr>`,
      );
    }
    out.push('</tbody></table>');
  }
  if (report.baseline) {
    const b = report.baseline;
    out.push(
      `<p class="baseline">Baseline <code>${h(b.path)}</code>: ${plural(b.suppressed, 'known finding')} left out, ` +
        `${b.absent.length} baseline ${b.absent.length === 1 ? 'entry' : 'entries'} no longer found.</p>`,
    );
    if (b.absent.length > 0) {
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

function options(values: ReadonlyArray<readonly [value: string, label: string]>): string {
  return values.map(([v, l]) => `<option value="${h(v)}">${h(l)}</option>`).join('');
}

export function renderFindings(report: AuditReport, anchors: SessionAnchors): string {
  const out: string[] = ['<section id="findings-section" aria-labelledby="findings-h">'];
  const n = report.findings.length;
  out.push(`<h2 id="findings-h">Findings (${n})</h2>`);
  if (n === 0) {
    out.push('<p class="empty" id="no-findings">No findings.</p></section>');
    return out.join('');
  }
  const codes = [...new Set([...Object.keys(report.summary.byCode), ...report.findings.map((f) => f.code)])].sort();
  const withFindings = new Set(report.findings.map((f) => f.sessionPath));
  const sessionOpts = [...anchors].filter(([path]) => withFindings.has(path)).map(([path, id]) => [id, path] as const);
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
  out.push(`<span id="f-shown" class="muted" aria-live="polite">${n} of ${n} findings shown</span></div>`);
  out.push(
    '<table id="findings" class="sortable findings"><caption class="muted">Click a column heading to sort.</caption>',
  );
  out.push(sortableHead([['severity', true], ['code'], ['session'], ['location'], ['message']]));
  out.push('<tbody>');
  report.findings.forEach((f, i) => {
    const sev = sevClass(f.severity);
    const sidx = anchors.get(f.sessionPath) ?? '';
    const session = sidx
      ? `<a href="#${sidx}" title="${h(f.sessionPath)}">${h(shortId(f.session))}</a>`
      : `<span title="${h(f.sessionPath)}">${h(shortId(f.session))}</span>`;
    out.push(
      `<tr class="finding" id="finding-${i + 1}" data-i="${i}" data-severity="${h(f.severity)}" ` +
        `data-code="${h(f.code)}" data-session="${h(f.session)}" data-sidx="${sidx}" ` +
        `data-fingerprint="${h(f.fingerprint)}">`,
      `<td data-v="${SEVERITY_RANK[sev as Severity] ?? 3}"><span class="sev ${sev}">${h(f.severity)}</span></td>`,
      `<td class="code mono">${h(f.code)}</td>`,
      `<td class="session mono" data-v="${h(f.sessionPath)}">${session}</td>`,
      `<td class="loc" data-v="${h(locKey(f))}">${h(formatLocation(f.location))}</td>`,
      `<td class="msg">${h(f.message)}</td></tr>`,
    );
  });
  out.push('</tbody></table></section>');
  return out.join('');
}
