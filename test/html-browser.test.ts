/**
 * The HTML report in a real headless Chromium: its own script runs under its CSP, hostile session content does
 * not, and the rows, timeline and lineage graph are there. Driven from the command line only (--dump-dom,
 * --screenshot), plus the DevTools protocol over --remote-debugging-pipe to click headers and filters.
 * Chromium: $CHROMIUM, else chromium / chromium-browser / google-chrome on PATH. Without one the test is
 * skipped, except under CI, where it fails.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderHtml } from '../src/report/html.js';
import type { HtmlInput } from '../src/report/html-input.js';
import { chromium, dumpDom, evaluateInPage, RUN } from './helpers/chromium.js';
import { CORPORA } from './helpers/corpora.js';
import { htmlInputFromCli } from './helpers/html-input.js';

const SCREENSHOT = fileURLToPath(new URL('../reports/html-report.png', import.meta.url));

const HOSTILE =
  `<script>document.documentElement.dataset.pwned='1'</script><img src=x ` +
  `onerror="document.documentElement.dataset.pwned='2'">`;

/** A copy of the clean corpus under a hostile directory name, with a hostile agent message appended to a session. */
function hostileCopy(tmp: string): string {
  const root = join(tmp, `evil"<svg onload=document.documentElement.dataset.pwned=4>`);
  cpSync(join(CORPORA, 'grok', 'clean'), root, { recursive: true });
  const id = '019a3f2c-1d00-7a3e-8000-00000000a001';
  const line = {
    timestamp: 1787131881,
    method: 'session/update',
    params: {
      sessionId: id,
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: {
          type: 'text',
          text:
            `Done. ${HOSTILE}\n<a href="javascript:document.documentElement.dataset.pwned='3'">click</a> ` +
            `\u202Egnp.exe`,
        },
      },
      _meta: { eventId: `${id}-51`, agentTimestampMs: 1787131881000, promptId: 'prompt-a001-3' },
    },
  };
  appendFileSync(join(root, 'sessions', '%2Fhome%2Fdev%2Fproj', id, 'updates.jsonl'), `${JSON.stringify(line)}\n`);
  return root;
}

const count = (s: string, re: RegExp): number => s.match(re)?.length ?? 0;

describe.skipIf(!RUN)('the HTML report in headless Chromium', () => {
  let tmp = '';
  let input: HtmlInput;
  let reportFile = '';
  let events = 0;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-html-browser-'));
    const evil = hostileCopy(tmp);
    const lineageRoot = join(CORPORA, 'grok', 'lineage');
    input = await htmlInputFromCli(
      [join(CORPORA, 'grok', 'tool-interrupted-call'), evil, lineageRoot],
      lineageRoot,
      `report for ${HOSTILE}`,
    );
    events = input.sessions.reduce((n, s) => n + (s.timeline?.length ?? 0), 0);
    expect(input.report.findings.length).toBeGreaterThan(0);
    expect(events).toBeGreaterThan(0);
    expect(JSON.stringify(input.sessions)).toContain("dataset.pwned='2'"); // the hostile text made it into the input
    reportFile = join(tmp, 'report.html');
    // --notes: every finding a row of its own (the rows of a code's many in a file: test/html-scale.test.ts).
    writeFileSync(reportFile, renderHtml({ ...input, notes: true }));
  }, 60_000);

  afterAll(() => {
    // SA_HTML_KEEP=1 keeps the rendered report for a look in a real browser.
    if (process.env.SA_HTML_KEEP) process.stderr.write(`html-browser.test: report kept at ${reportFile}\n`);
    else if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('the report script runs under the CSP; hostile content does not; rows and lineage are there', () => {
    const dom = dumpDom(tmp, reportFile);
    expect(dom).toMatch(/<html[^>]*\sdata-ready="1"/);
    expect(dom).not.toMatch(/data-pwned/);
    expect(dom).not.toMatch(/<img/i);
    expect(dom).toContain("document.documentElement.dataset.pwned='2'"); // shown as text
    expect(count(dom, /<tr class="finding"/g)).toBe(input.report.findings.length);
    // Sessions are collapsed and drawn when opened: no timeline or pair row yet.
    expect(count(dom, /<tr class="event[ "]/g)).toBe(0);
    expect(count(dom, /<tr class="pair[ "]/g)).toBe(0);
    expect(count(dom, /<details class="session"/g)).toBe(input.report.sessions.length);
    expect(dom).toMatch(/<svg id="lineage"/);
    expect(dom).toMatch(/<path class="edge widened"/);
    const n = input.report.findings.length;
    expect(dom).toContain(`${n} of ${n} findings in the table shown`);
  }, 60_000);

  test('defence in depth: markup injected past the escaping still cannot run under the CSP', () => {
    const tampered = join(tmp, 'tampered.html');
    const injected =
      `<script>document.documentElement.dataset.pwned='5'</script><img src=x ` +
      `onerror="document.documentElement.dataset.pwned='6'"><div onclick="x()" id="injected">x</div>`;
    writeFileSync(tampered, readFileSync(reportFile, 'utf8').replace('<main>', `<main>${injected}`));
    const dom = dumpDom(tmp, tampered);
    expect(dom).toContain('id="injected"'); // the injection is in the page…
    expect(dom).toMatch(/<html[^>]*\sdata-ready="1"/); // …the report's own script still runs…
    expect(dom).not.toMatch(/data-pwned/); // …and the injected ones do not.
  }, 60_000);

  test('sorting and filtering work in the browser (DevTools protocol over a pipe)', async () => {
    const result = await evaluateInPage(tmp, reportFile, INTERACT);
    const r = JSON.parse(result) as {
      ready: string;
      sevAsc: string[];
      sevDesc: string[];
      code: string;
      codeRows: number;
      codeOthers: number;
      shown: string;
      text: number;
      total: number;
      sessionRows: number;
      eventRows: number;
      pairRows: number;
      hostileText: boolean;
      pwned: boolean;
    };
    expect(r.ready).toBe('1');
    const rank = (s: string): number => ['error', 'warning', 'note'].indexOf(s);
    expect(r.sevAsc.map(rank)).toEqual([...r.sevAsc.map(rank)].sort((a, b) => a - b));
    expect(r.sevDesc.map(rank)).toEqual([...r.sevDesc.map(rank)].sort((a, b) => b - a));
    expect(r.codeRows).toBe(input.report.findings.filter((f) => f.code === r.code).length);
    expect(r.codeOthers).toBe(0);
    expect(r.shown).toBe(`${r.codeRows} of ${r.total} findings in the table shown`);
    expect(r.text).toBeGreaterThan(0);
    expect(r.text).toBeLessThan(r.total);
    expect(r.sessionRows).toBeGreaterThan(0);
    // Every session opened: each draws its rows from its data, and hostile content stays text.
    expect(r.eventRows).toBe(events);
    expect(r.pairRows).toBe(input.sessions.reduce((n, s) => n + (s.pairs?.length ?? 0), 0));
    expect(r.hostileText).toBe(true);
    expect(r.pwned).toBe(false);
  }, 60_000);

  test("a line of the file a table's heading names: its line and offset alone (issue 31.1)", async () => {
    const out = JSON.parse(
      await evaluateInPage(
        tmp,
        reportFile,
        `(async () => {
          const d = document;
          for (const s of d.querySelectorAll('details.session')) s.open = true;
          await new Promise((r) => setTimeout(r, 100));
          const tables = [];
          for (const h of d.querySelectorAll('details.session h4')) {
            const t = h.nextElementSibling;
            if (!t || t.tagName !== 'TABLE') continue;
            const col = t.classList.contains('pairs') ? 3 : 4;
            const where = Array.from(t.tBodies[0].rows).map((r) => r.cells[col].textContent);
            tables.push({ head: h.textContent, where });
          }
          return JSON.stringify(tables);
        })()`,
      ),
    ) as Array<{ head: string; where: string[] }>;
    const timelines = out.filter((t) => t.head.startsWith('Timeline of '));
    expect(timelines.length).toBeGreaterThan(0);
    for (const t of timelines) {
      const file = /^Timeline of (.+) \(/.exec(t.head)![1]!;
      expect(
        t.where.some((w) => /^:\d+ @\d+$/.test(w)),
        t.head,
      ).toBe(true);
      for (const w of t.where) expect(w.startsWith(`${file}:`), `${t.head}: ${w}`).toBe(false);
    }
    // Tool calls name their file only when every call and result is in it (these span two files: named in full).
    for (const t of out.filter((x) => x.head.startsWith('Tool calls in '))) {
      const file = /^Tool calls in (.+) \(/.exec(t.head)![1]!;
      for (const w of t.where) expect(w.startsWith(`${file}:`), `${t.head}: ${w}`).toBe(false);
    }
  }, 60_000);

  test('screenshot for reports/html-report.png', () => {
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    rmSync(SCREENSHOT, { force: true });
    chromium(tmp, [
      '--virtual-time-budget=5000',
      '--hide-scrollbars',
      `--screenshot=${SCREENSHOT}`,
      '--window-size=1400,1000',
      pathToFileURL(reportFile).href,
    ]);
    const png = readFileSync(SCREENSHOT);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.length).toBeGreaterThan(10_000);
  }, 60_000);
});

/** Runs in the page: click the severity header twice, filter by a code, by text, by a session button. Returns JSON. */
const INTERACT = `(async () => {
  const d = document;
  const rows = () => Array.from(d.querySelectorAll('#findings tbody tr.finding'));
  const visible = () => rows().filter((r) => !r.hidden);
  const head = d.querySelector('#findings thead th button');
  head.click();
  const sevAsc = rows().map((r) => r.dataset.severity);
  head.click();
  const sevDesc = rows().map((r) => r.dataset.severity);
  const sel = d.getElementById('f-code');
  const code = sel.options[sel.options.length - 1].value;
  sel.value = code;
  sel.dispatchEvent(new Event('change'));
  const codeRows = visible().length;
  const codeOthers = visible().filter((r) => r.dataset.code !== code).length;
  const shown = d.getElementById('f-shown').textContent;
  sel.value = '';
  sel.dispatchEvent(new Event('change'));
  const q = d.getElementById('f-text');
  q.value = rows()[0].querySelector('td.msg').textContent.slice(0, 25);
  q.dispatchEvent(new Event('input'));
  const text = visible().length;
  q.value = '';
  q.dispatchEvent(new Event('input'));
  d.querySelector('button.session-filter').click();
  const sessionRows = visible().length;
  const ready = d.documentElement.dataset.ready;
  const total = rows().length;
  for (const s of d.querySelectorAll('details.session')) s.open = true;
  await new Promise((r) => setTimeout(r, 100));
  const eventRows = d.querySelectorAll('tr.event').length;
  const pairRows = d.querySelectorAll('tr.pair').length;
  const hostileText = Array.from(d.querySelectorAll('tr.event td.what')).some((x) =>
    (x.textContent || '').includes("dataset.pwned='2'"));
  const pwned = d.documentElement.dataset.pwned !== undefined || d.querySelectorAll('img').length > 0;
  return JSON.stringify({ ready, sevAsc, sevDesc, code, codeRows, codeOthers, shown, text, total, sessionRows,
    eventRows, pairRows, hostileText, pwned });
})()`;
