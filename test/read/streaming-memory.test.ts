/**
 * The reader streams: peak memory does not grow with file size. The built CLI audits a 32 MB and a 320 MB
 * session in child processes; their peak RSS must be close, and well under the 256 MB bar of DESIGN §8.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { writeLargeSession } from '../../scripts/bench/generate.js';
import { isBuilt } from '../helpers/built.js';

const probe = fileURLToPath(new URL('../helpers/rss-probe.mjs', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'sa-rss-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MB = 1024 * 1024;

function peakRssMb(bytes: number): number {
  const root = join(scratch, String(bytes));
  writeLargeSession(root, bytes);
  // A capped old space makes growth with file size a hard failure (out of memory), not a noisy RSS difference.
  const r = spawnSync(process.execPath, ['--max-old-space-size=128', probe, 'audit', root, '--format', 'json'], {
    encoding: 'utf8',
    maxBuffer: 64 * MB,
  });
  rmSync(root, { recursive: true, force: true });
  const m = /MAXRSS_KB (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`audit failed (${r.status}): ${r.stderr}`);
  return Number(m[1]) / 1024;
}

test.skipIf(!isBuilt('src/cli/main.js'))('peak RSS stays flat from 32 MB to 320 MB (run `npm run build` first)', () => {
  const small = peakRssMb(32 * MB);
  const large = peakRssMb(320 * MB);
  console.log(`peak RSS: 32 MB session ${small.toFixed(0)} MB, 320 MB session ${large.toFixed(0)} MB`);
  expect(large).toBeLessThan(small + 80);
  expect(large).toBeLessThan(256);
});
