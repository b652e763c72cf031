/**
 * The store under crashes and concurrency: an `archive` child process killed with SIGKILL at moments spread over
 * its run always leaves a store that verifies, and the next run completes it (one record per session, no
 * duplicate); two runs at once leave a valid store, the one that did not get the lock saying so in one line.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runStoreVerify } from '../../src/engine/archive.js';
import { readState } from '../../src/store/open.js';
import { BIN, BUILT } from '../helpers/cli-child.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-store-crash-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Every agent's corpora (a dozen of Grok's): about a hundred sessions, a run of a second or so.
const root = join(work, 'src');
for (const agent of ['codex', 'claude']) cpSync(join(CORPORA, agent), join(root, agent), { recursive: true });
for (const c of readdirSync(join(CORPORA, 'grok')).sort().slice(0, 12))
  cpSync(join(CORPORA, 'grok', c), join(root, 'grok', c), { recursive: true });

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function archive(store: string, killAfterMs?: number): Promise<Run> {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [BIN, 'archive', root, '--store', store], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = killAfterMs !== undefined ? setTimeout(() => child.kill('SIGKILL'), killAfterMs) : undefined;
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      done({ code, signal, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

const errorsOf = (store: string): string[] =>
  runStoreVerify(store, undefined)
    .report.findings.filter((f) => f.severity === 'error')
    .map((f) => `${f.code} ${f.location.file}: ${f.message}`);

/** The captures the index holds, each once, and how many it could not index (its runs were killed or raced). */
function indexed(store: string): { captures: number; distinct: number; failed: number } {
  const db = new Database(join(store, 'index.sqlite'), { readonly: true });
  try {
    const r = db
      .prepare(
        'SELECT count(*) AS captures, count(DISTINCT seq) AS distinct_, ' +
          "sum(not_indexed IS NOT NULL AND not_indexed NOT LIKE 'a group%' " +
          "AND not_indexed NOT LIKE 'an agent home%') AS failed FROM captures",
      )
      .get() as { captures: number; distinct_: number; failed: number | null };
    return { captures: r.captures, distinct: r.distinct_, failed: r.failed ?? 0 };
  } finally {
    db.close();
  }
}

describe.skipIf(!BUILT)('the store survives crashes and concurrent runs (needs npm run build)', () => {
  let sessions = 0;
  let fullMs = 0;

  test('a complete run, for reference', async () => {
    const store = join(work, 'reference');
    const r = await archive(store);
    expect(r.code, r.stderr).toBe(0);
    fullMs = r.ms;
    sessions = readState(store).heads.size;
    expect(sessions).toBeGreaterThan(50);
  }, 60_000);

  test('a run killed at any moment leaves a store that verifies, and the next run completes it', async () => {
    const kills = 6;
    for (let i = 0; i < kills; i++) {
      const store = join(work, `killed-${i}`);
      // Moments spread over the run, from its start-up to its end, a little jittered.
      const at = Math.round((fullMs * (i + 0.5 + (Math.random() - 0.5) * 0.5)) / kills);
      const killed = await archive(store, at);
      if (existsSync(join(store, 'store.json'))) expect(errorsOf(store), `killed at ${at} ms`).toEqual([]);
      else expect(existsSync(join(store, 'captures')), `killed at ${at} ms`).toBe(false);
      const next = await archive(store);
      expect(next.code, `after a kill at ${at} ms (${killed.signal ?? killed.code}): ${next.stderr}`).toBe(0);
      expect(errorsOf(store)).toEqual([]);
      const state = readState(store);
      // One record per session: nothing a killed run wrote is written again.
      expect([state.heads.size, state.records.length], `killed at ${at} ms`).toEqual([sessions, sessions]);
      expect(readdirSync(join(store, 'tmp'))).toEqual([]);
      // The index (written after the captures, so often what the kill hit) is complete after the next run.
      expect(indexed(store), `killed at ${at} ms`).toEqual({ captures: sessions, distinct: sessions, failed: 0 });
    }
  }, 300_000);

  test('two runs at once leave a valid store; a run that finds the lock taken says so in one line', async () => {
    const store = join(work, 'concurrent');
    const [a, b] = await Promise.all([archive(store), archive(store)]);
    for (const r of [a, b]) {
      if (r.code === 2) expect(r.stderr).toMatch(/^session-audit: the store .* is in use by process \d+ .*\n$/);
      else expect(r.code, r.stderr).toBe(0);
    }
    expect(errorsOf(store)).toEqual([]);
    const state = readState(store);
    expect([state.heads.size, state.records.length]).toEqual([sessions, sessions]);
    expect(indexed(store)).toEqual({ captures: sessions, distinct: sessions, failed: 0 });
  }, 120_000);
});
