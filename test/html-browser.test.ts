/**
 * The HTML report in a real headless Chromium: its own script runs under its CSP, hostile session content does
 * not, and the rows, timeline and lineage graph are there. Driven from the command line only (--dump-dom,
 * --screenshot), plus the DevTools protocol over --remote-debugging-pipe to click headers and filters.
 * Chromium: $CHROMIUM, else chromium / chromium-browser / google-chrome on PATH. Without one the test is
 * skipped, except under CI, where it fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  accessSync,
  appendFileSync,
  constants,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { renderHtml } from '../src/report/html.js';
import type { HtmlInput } from '../src/report/html-input.js';
import { CORPORA } from './helpers/corpora.js';
import { htmlInputFromCli } from './helpers/html-input.js';

const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function findChromium(): string | undefined {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of CANDIDATES) {
    for (const dir of (process.env.PATH ?? '').split(delimiter)) {
      if (!dir) continue;
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

const CHROME = findChromium();
const IN_CI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
const RUN = CHROME !== undefined || IN_CI;
if (!RUN)
  process.stderr.write(
    `\nhtml-browser.test: SKIPPED: no Chromium found (${CANDIDATES.join(', ')} on PATH, or set ` +
      `CHROMIUM=/path/to/chrome). Install one, e.g. apt-get install -y chromium.\n`,
  );

const SCREENSHOT = fileURLToPath(new URL('../reports/html-report.png', import.meta.url));
const RUN_TIMEOUT_MS = 40_000;
const BASE_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-extensions',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--mute-audio',
];

/** One Chromium run with its own profile directory; its stdout. */
function chromium(tmp: string, args: string[]): string {
  if (!CHROME)
    throw new Error(`Chromium is required under CI but none was found (${CANDIDATES.join(', ')}; or set CHROMIUM)`);
  const profile = mkdtempSync(join(tmp, 'profile-'));
  const r = spawnSync(CHROME, [...BASE_FLAGS, `--user-data-dir=${profile}`, ...args], {
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (r.error) throw new Error(`${CHROME}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${CHROME} exited with ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`);
  return r.stdout;
}

const dumpDom = (tmp: string, file: string): string =>
  chromium(tmp, ['--virtual-time-budget=5000', '--dump-dom', pathToFileURL(file).href]);

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
    writeFileSync(reportFile, renderHtml(input));
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
    expect(count(dom, /<tr class="event[ "]/g)).toBe(events);
    expect(count(dom, /<tr class="pair[ "]/g)).toBeGreaterThan(0);
    expect(dom).toMatch(/<svg id="lineage"/);
    expect(dom).toMatch(/<path class="edge widened"/);
    expect(dom).toContain(`${input.report.findings.length} of ${input.report.findings.length} findings shown`);
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
    };
    expect(r.ready).toBe('1');
    const rank = (s: string): number => ['error', 'warning', 'note'].indexOf(s);
    expect(r.sevAsc.map(rank)).toEqual([...r.sevAsc.map(rank)].sort((a, b) => a - b));
    expect(r.sevDesc.map(rank)).toEqual([...r.sevDesc.map(rank)].sort((a, b) => b - a));
    expect(r.codeRows).toBe(input.report.findings.filter((f) => f.code === r.code).length);
    expect(r.codeOthers).toBe(0);
    expect(r.shown).toBe(`${r.codeRows} of ${r.total} findings shown`);
    expect(r.text).toBeGreaterThan(0);
    expect(r.text).toBeLessThan(r.total);
    expect(r.sessionRows).toBeGreaterThan(0);
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
  return JSON.stringify({ ready, sevAsc, sevDesc, code, codeRows, codeOthers, shown, text, total, sessionRows });
})()`;

/**
 * Opens `file` in headless Chromium and evaluates `expression` (a promise of a string) in it, over the DevTools
 * protocol on --remote-debugging-pipe (fd 3 in, fd 4 out; NUL-separated JSON). No dependencies.
 */
async function evaluateInPage(tmp: string, file: string, expression: string): Promise<string> {
  if (!CHROME) throw new Error('Chromium is required under CI but none was found');
  const profile = mkdtempSync(join(tmp, 'profile-'));
  const child = spawn(
    CHROME,
    [...BASE_FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-pipe', pathToFileURL(file).href],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  const toChrome = child.stdio[3] as NodeJS.WritableStream;
  const fromChrome = child.stdio[4] as NodeJS.ReadableStream;
  toChrome.on('error', () => undefined); // EPIPE once Chromium is gone: the exit is reported instead
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  });
  const pending = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  let buf = '';
  fromChrome.on('data', (b: Buffer) => {
    buf += b.toString('utf8');
    let nul: number;
    while ((nul = buf.indexOf('\0')) >= 0) {
      const msg = JSON.parse(buf.slice(0, nul)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      buf = buf.slice(nul + 1);
      const p = msg.id !== undefined ? pending.get(msg.id) : undefined;
      if (!p) continue;
      pending.delete(msg.id!);
      if (msg.error) p.reject(new Error(msg.error.message));
      else p.resolve(msg.result ?? {});
    }
  });
  let next = 0;
  const send = (
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      toChrome.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const exited = new Promise<never>((_, reject) =>
    child.on('exit', (code, signal) => reject(new Error(`Chromium exited early (${code ?? signal}): ${stderr}`))),
  );
  exited.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Chromium did not answer within ${RUN_TIMEOUT_MS} ms: ${stderr}`)),
      RUN_TIMEOUT_MS,
    );
  });
  try {
    const run = async (): Promise<string> => {
      let target: { targetId: string; type: string; url: string } | undefined;
      for (let i = 0; i < 100 && !target; i++) {
        const { targetInfos } = (await send('Target.getTargets')) as {
          targetInfos: Array<{ targetId: string; type: string; url: string }>;
        };
        target = targetInfos.find((t) => t.type === 'page' && t.url.startsWith('file:'));
        if (!target) await new Promise((r) => setTimeout(r, 100));
      }
      if (!target) throw new Error('no page target');
      const { sessionId } = (await send('Target.attachToTarget', { targetId: target.targetId, flatten: true })) as {
        sessionId: string;
      };
      // Wait until the report has loaded and its script has run (the page may still be navigating from about:blank).
      for (let i = 0; ; i++) {
        const probe = (await send(
          'Runtime.evaluate',
          {
            expression: `document.readyState === 'complete' && document.documentElement.dataset.ready === '1'`,
            returnByValue: true,
          },
          sessionId,
        ).catch(() => ({ result: {} }))) as { result: { value?: unknown } };
        if (probe.result.value === true) break;
        if (i >= 200) throw new Error('the report never set data-ready');
        await new Promise((r) => setTimeout(r, 50));
      }
      const res = (await send(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
        sessionId,
      )) as { result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } };
      if (res.exceptionDetails)
        throw new Error(`in page: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`);
      return String(res.result.value);
    };
    return await Promise.race([run(), exited, timeout]);
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      try {
        toChrome.write(`${JSON.stringify({ id: ++next, method: 'Browser.close' })}\0`);
      } catch {
        // already closed
      }
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(t);
    }
  }
}
