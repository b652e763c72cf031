/**
 * The built CLI in a child process, for what the in-process helper cannot do: a hard timeout (a read that
 * blocks the event loop on a FIFO or a device cannot be interrupted in-process), a memory cap
 * (--max-old-space-size), another user (reads denied to root are only denied to someone else), peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isBuilt } from './built.js';

export const BIN = fileURLToPath(new URL('../../bin/session-audit.js', import.meta.url));
const PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));
/** The tests that need it are skipped (with the reason in their name) when `npm run build` has not run. */
export const BUILT = isBuilt('src/cli/main.js');

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Peak resident set size in MiB (with `rss: true`). */
  peakRssMb?: number;
  ms: number;
}

export interface ChildOptions {
  timeoutMs?: number;
  maxOldSpaceMb?: number;
  uid?: number;
  gid?: number;
  cwd?: string;
  /** Run through test/helpers/rss-probe.mjs and report the peak RSS. */
  rss?: boolean;
  env?: NodeJS.ProcessEnv;
}

export function runBuilt(args: readonly string[], o: ChildOptions = {}): ChildResult {
  const node = [...(o.maxOldSpaceMb ? [`--max-old-space-size=${o.maxOldSpaceMb}`] : []), o.rss ? PROBE : BIN];
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [...node, ...args], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    timeout: o.timeoutMs ?? 60_000,
    killSignal: 'SIGKILL',
    env: { ...process.env, CI: '1', ...o.env },
    ...(o.cwd ? { cwd: o.cwd } : {}),
    ...(o.uid !== undefined ? { uid: o.uid } : {}),
    ...(o.gid !== undefined ? { gid: o.gid } : {}),
  });
  const ms = Date.now() - t0;
  const timedOut = (r.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  if (r.error && !timedOut) throw r.error;
  const out: ChildResult = {
    code: r.status,
    signal: r.signal,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    timedOut,
    ms,
  };
  if (o.rss) {
    const m = /\nMAXRSS_KB (\d+)\n?$/.exec(out.stderr);
    if (m) {
      out.peakRssMb = Number(m[1]) / 1024;
      out.stderr = out.stderr.slice(0, m.index);
    }
  }
  return out;
}
