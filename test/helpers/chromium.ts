/**
 * Headless Chromium for the HTML report's tests: found on PATH (or $CHROMIUM), run from the command line (--dump-dom,
 * --screenshot), or driven over the DevTools protocol on --remote-debugging-pipe to evaluate code in the page. Without
 * a Chromium the tests are skipped, except under CI, where they fail.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

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

export const CHROME = findChromium();
export const IN_CI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
export const RUN = CHROME !== undefined || IN_CI;
if (!RUN)
  process.stderr.write(
    `\nhtml-browser.test: SKIPPED: no Chromium found (${CANDIDATES.join(', ')} on PATH, or set ` +
      `CHROMIUM=/path/to/chrome). Install one, e.g. apt-get install -y chromium.\n`,
  );

export const RUN_TIMEOUT_MS = 40_000;
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
export function chromium(tmp: string, args: string[]): string {
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

export const dumpDom = (tmp: string, file: string): string =>
  chromium(tmp, ['--virtual-time-budget=5000', '--dump-dom', pathToFileURL(file).href]);

/**
 * Opens `file` in headless Chromium and evaluates `expression` (a promise of a string) in it, over the DevTools
 * protocol on --remote-debugging-pipe (fd 3 in, fd 4 out; NUL-separated JSON). No dependencies.
 */
export async function evaluateInPage(
  tmp: string,
  file: string,
  expression: string,
  opts: { reload?: boolean; reloads?: number; loadTimes?: number[] } = {},
): Promise<string> {
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
      const waitReady = async (condition: string): Promise<void> => {
        for (let i = 0; ; i++) {
          const probe = (await send(
            'Runtime.evaluate',
            {
              expression:
                `${condition} && document.readyState === 'complete' && ` +
                `document.documentElement.dataset.ready === '1'`,
              returnByValue: true,
            },
            sessionId,
          ).catch(() => ({ result: {} }))) as { result: { value?: unknown } };
          if (probe.result.value === true) break;
          if (i >= 400) throw new Error('the report never set data-ready');
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      await waitReady('true');
      // Loads again in the same browser: the page's own cost, without the renderer process starting up. Each load's
      // time to the report's script having run (data-ready-ms) goes into `loadTimes`.
      const reloads = opts.reloads ?? (opts.reload ? 1 : 0);
      for (let k = 0; k < reloads; k++) {
        const origin = (await send(
          'Runtime.evaluate',
          { expression: 'performance.timeOrigin', returnByValue: true },
          sessionId,
        )) as { result: { value: number } };
        await send('Runtime.evaluate', { expression: 'location.reload()' }, sessionId);
        await waitReady(`performance.timeOrigin !== ${origin.result.value}`);
        const t = (await send(
          'Runtime.evaluate',
          { expression: 'Number(document.documentElement.dataset.readyMs)', returnByValue: true },
          sessionId,
        )) as { result: { value: number } };
        opts.loadTimes?.push(t.result.value);
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
