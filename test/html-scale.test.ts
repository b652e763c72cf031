/**
 * The HTML report at the scale a reviewer meets: a root of 261 sessions (each with its timeline and tool calls, and
 * a finding or so each). Under 3 MB, interactive in under a second in headless Chromium (measured in the page: the
 * navigation's start to the report's script having run, the best of five loads in one browser), the verdict and the
 * findings first, every session collapsed until opened, and a finding that opens its session at its timeline row
 * and shows its line's bytes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { evaluateInPage, RUN } from './helpers/chromium.js';
import { cli } from './helpers/cli.js';
import { writeScaleRoot } from './helpers/scale-root.js';
import type { AuditReport } from '../src/model/report.js';

/** The size budget of the issue: 260 sessions in under 3 MB. */
const MAX_BYTES = 3_000_000;
/** Interactive within this many milliseconds of the navigation's start. */
const MAX_READY_MS = 1000;

describe.skipIf(!RUN)('the HTML report of a 261-session root in headless Chromium', () => {
  let tmp = '';
  let file = '';
  let report: AuditReport;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-html-scale-'));
    const { root, sessions } = writeScaleRoot(join(tmp, 'root'), 87);
    expect(sessions).toBe(261);
    file = join(tmp, 'report.html');
    const r = await cli(['audit', root, '--format', 'html', '-o', file, '--fail-on', 'never']);
    expect(r.stderr).toBe('');
    report = JSON.parse((await cli(['audit', root, '--format', 'json', '--fail-on', 'never'])).stdout) as AuditReport;
    expect(report.summary.sessions).toBe(261);
    expect(report.findings.length).toBeGreaterThan(250);
  }, 120_000);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test(`the page is under ${MAX_BYTES} bytes; verdict and findings come first; sessions are collapsed`, () => {
    const size = statSync(file).size;
    process.stderr.write(`html-scale: ${size} bytes for ${report.summary.sessions} sessions\n`);
    expect(size).toBeLessThan(MAX_BYTES);
    const html = readFileSync(file, 'utf8');
    const at = (s: string): number => html.indexOf(s);
    expect(at('id="verdict"')).toBeGreaterThan(0);
    expect(at('id="verdict"')).toBeLessThan(at('id="findings-section"'));
    expect(at('id="findings-section"')).toBeLessThan(at('id="by-code"'));
    expect(at('id="by-code"')).toBeLessThan(at('id="sessions"'));
    expect(html.match(/<details class="session"/g)).toHaveLength(261);
    expect(html).not.toMatch(/<details class="session"[^>]* open/);
  });

  test(`interactive in under ${MAX_READY_MS} ms; a finding opens its session at its timeline row`, async () => {
    // Loaded, then loaded again five times in the same browser: the best of those is the page's own cost (the first
    // load also pays for the renderer process; this machine's other work only ever adds to a load's time).
    const loads: number[] = [];
    const out = JSON.parse(await evaluateInPage(tmp, file, PROBE, { reloads: 5, loadTimes: loads })) as {
      readyMs: number;
      domInteractive: number;
      findingRows: number;
      eventRowsBefore: number;
      firstSeverity: string;
      lastSeverity: string;
      goto: {
        file: string;
        line: string;
        text: string;
        rowFile: string;
        rowLine: string;
        open: boolean;
        rows: number;
      } | null;
      bytes: string;
      sessionsOpen: number;
    };
    const best = Math.min(...loads);
    process.stderr.write(
      `html-scale: interactive after ${best} ms (loads: ${loads.join(', ')} ms; DOM interactive on the last ` +
        `${out.domInteractive} ms)\n`,
    );
    expect(loads).toHaveLength(5);
    expect(best).toBeLessThan(MAX_READY_MS);
    // Notes are summed up by code under the table; every error and warning is a row (one of each code in a file).
    expect(out.findingRows).toBe(report.summary.findings.error + report.summary.findings.warning);
    expect(out.eventRowsBefore).toBe(0);
    // Severity first.
    expect(out.firstSeverity).toBe('error');
    expect(out.lastSeverity).not.toBe('note');
    // The first finding that links to a timeline (a torn tail: a line with no event of its own): its session
    // opened, the last event before that line lit, and no other session opened.
    expect(out.goto).not.toBeNull();
    expect(out.goto!.text).toBe('timeline near it');
    expect(out.goto!.open).toBe(true);
    expect(out.goto!.rowFile).toBe(out.goto!.file);
    expect(Number(out.goto!.rowLine)).toBe(Number(out.goto!.line) - 1);
    expect(out.goto!.rows).toBeGreaterThan(10);
    expect(out.sessionsOpen).toBe(1);
    // Its line's bytes, escaped: the torn record as written.
    expect(out.bytes).toContain('{"timestamp":1787131900,"method":"session/upd');
  }, 90_000);
});

/** Runs in the page: timings, then a click on the first "timeline row" link of the findings table. */
const PROBE = `(async () => {
  const d = document;
  const nav = performance.getEntriesByType('navigation')[0];
  const readyMs = Number(d.documentElement.dataset.readyMs);
  const rows = Array.from(d.querySelectorAll('#findings tbody tr.finding'));
  const eventRowsBefore = d.querySelectorAll('tr.event').length;
  const link = d.querySelector('#findings a.goto');
  let goto = null;
  let bytes = '';
  if (link) {
    const tr = link.closest('tr');
    const raw = tr.querySelector('details.raw');
    if (raw) { raw.open = true; bytes = raw.querySelector('pre').textContent; }
    link.click();
    await new Promise((r) => setTimeout(r, 100));
    const det = d.getElementById(link.getAttribute('data-s'));
    const lit = d.querySelector('tr.event.hl');
    goto = {
      file: link.getAttribute('data-file'), line: link.getAttribute('data-line'), text: link.textContent,
      rowFile: lit ? lit.getAttribute('data-file') : null, rowLine: lit ? lit.getAttribute('data-line') : null,
      open: det.open && det.contains(lit), rows: det.querySelectorAll('tr.event').length,
    };
  }
  return JSON.stringify({
    readyMs, domInteractive: Math.round(nav.domInteractive), findingRows: rows.length, eventRowsBefore,
    firstSeverity: rows[0].dataset.severity, lastSeverity: rows[rows.length - 1].dataset.severity,
    goto, bytes, sessionsOpen: d.querySelectorAll('details.session[open]').length,
  });
})()`;

/**
 * 2,502 sessions with many notes (issue 31.3): the heading said "Findings (12478)" over "5000 of 5000 findings shown"
 * and the page was 9.3 MB. Now the page keeps to its budget, and its counts add up: the findings in the table (a row
 * may stand for several of one code in one file), the notes summed up by code and the findings left out make the
 * heading's count, the page script counts the same findings, and the sessions and lineage trees not in the page
 * are counted.
 */
describe.skipIf(!RUN)('the HTML report of a 2,502-session root with many notes', () => {
  let tmp = '';
  let file = '';
  let report: AuditReport;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-html-scale-big-'));
    const { root, sessions } = writeScaleRoot(join(tmp, 'root'), 834);
    expect(sessions).toBe(2502);
    // Many notes: two more unexpected files beside each one the root has (a note each), so notes outnumber errors
    // (one torn tail per copy) six to one, as on a real tree where notes drown the errors.
    for (const f of readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('notes.txt')))
      for (const extra of ['notes-2.txt', 'notes-3.txt']) writeFileSync(join(root, f, '..', extra), 'more\n');
    file = join(tmp, 'report.html');
    const json = join(tmp, 'report.json');
    const t0 = performance.now();
    const r = await cli(['audit', root, '--format', 'html', '-o', file, '--fail-on', 'never']);
    process.stderr.write(`html-scale: 2,502 sessions written in ${Math.round(performance.now() - t0)} ms\n`);
    expect(r.stderr).toBe('');
    await cli(['audit', root, '--format', 'json', '-o', json, '--fail-on', 'never']);
    report = JSON.parse(readFileSync(json, 'utf8')) as AuditReport;
    expect(report.summary.findings.note).toBeGreaterThan(report.summary.findings.error * 4);
  }, 300_000);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test(`under ${MAX_BYTES} bytes, with counts that add up to the heading's`, async () => {
    const size = statSync(file).size;
    process.stderr.write(`html-scale: ${size} bytes for ${report.summary.sessions} sessions\n`);
    expect(size).toBeLessThan(MAX_BYTES);
    const html = readFileSync(file, 'utf8');
    const n = report.findings.length;
    expect(html).toContain(`<h2 id="findings-h">Findings (${n})</h2>`);
    const c = /<p id="f-counts" [^>]*data-total="(\d+)" data-table="(\d+)" data-summed="(\d+)" data-omitted="(\d+)"/
      .exec(html)!
      .slice(1)
      .map(Number);
    const [totalCount, table, summed, omitted] = c as [number, number, number, number];
    expect(totalCount).toBe(n);
    expect(table + summed + omitted).toBe(n);
    expect(summed).toBe(report.summary.findings.note);
    expect(html).toContain(`${summed} notes summed up by code`);
    // Sessions past the list's budget are counted, and each of the others has its entry.
    const listed = html.match(/<details class="session"/g)!.length;
    const left = /(\d+) more sessions are not listed/.exec(html);
    expect(listed + (left ? Number(left[1]) : 0)).toBe(report.summary.sessions);
    // In the page: the rows' findings are the table's count, and the script says so.
    const out = JSON.parse(
      await evaluateInPage(
        tmp,
        file,
        `(async () => {
          const rows = Array.from(document.querySelectorAll('#findings tbody tr.finding'));
          return JSON.stringify({
            inRows: rows.reduce((n, r) => n + Number(r.dataset.n), 0),
            shown: document.getElementById('f-shown').textContent,
            bad: rows.filter((r) => r.dataset.severity === 'note').length,
          });
        })()`,
      ),
    ) as { inRows: number; shown: string; bad: number };
    expect(out.inRows).toBe(table);
    expect(out.shown).toBe(`${table} of ${table} findings in the table shown`);
    expect(out.bad).toBe(0);
  }, 120_000);
});
