/**
 * `--jobs N` starts auditing while discovery still walks (engine/parallel/pool.ts): sessions reach the workers in
 * walk order, the report lists them sorted by path, and a session given twice is audited once. Whatever the order
 * the threads met them in, the report is the one `--jobs 1` writes.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';
import { isBuilt } from './helpers/built.js';

const built = isBuilt('src/engine/parallel/worker.js');
const scratch = mkdtempSync(join(tmpdir(), 'sa-pdisc-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * `a/b/…` is walked before `a-b/…` (a directory's names in byte order), but sorts after it as a path ('-' before
 * '/'): the walk order and the report order differ. 20 copies of the clean Grok group in each: 120 sessions, enough
 * for the batches sent during discovery.
 */
function tree(): string {
  const root = join(scratch, 'root');
  for (const at of ['a/b', 'a-b'])
    for (let i = 0; i < 20; i++) {
      const dir = join(root, at, `g${String(i).padStart(2, '0')}`);
      mkdirSync(dir, { recursive: true });
      cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), dir, { recursive: true });
    }
  return root;
}

describe('sessions audited while discovery walks', () => {
  const root = tree();
  const json = ['--format', 'json', '--fail-on', 'never'];

  test.skipIf(!built)('walk order is not report order, and --jobs 2 and 3 give the --jobs 1 report', async () => {
    const one = await cli(['audit', root, ...json, '--jobs', '1']);
    const paths: string[] = JSON.parse(one.stdout).sessions.map((s: { path: string }) => s.path);
    expect(paths).toHaveLength(120);
    expect(paths[0]).toContain('/a-b/');
    expect(paths.at(-1)).toContain('/a/b/');
    for (const jobs of ['2', '3']) {
      const many = await cli(['audit', root, ...json, '--jobs', jobs]);
      expect(many.stdout).toBe(one.stdout);
      expect(many.code).toBe(one.code);
    }
  });

  test.skipIf(!built)('a session under two arguments is audited once, in the first argument’s place', async () => {
    const args = [join(root, 'a-b'), root];
    const one = await cli(['audit', ...args, ...json, '--jobs', '1']);
    expect(JSON.parse(one.stdout).sessions).toHaveLength(120);
    expect((await cli(['audit', ...args, ...json, '--jobs', '2'])).stdout).toBe(one.stdout);
  });

  test.skipIf(!built)('a shard holds the same sessions, however many threads', async () => {
    const one = await cli(['audit', root, ...json, '--shard', '2/3', '--jobs', '1']);
    const n = JSON.parse(one.stdout).sessions.length;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(120);
    expect((await cli(['audit', root, ...json, '--shard', '2/3', '--jobs', '2'])).stdout).toBe(one.stdout);
  });
});

describe('a worker that fails', () => {
  test.skipIf(!built)(
    'one that exits mid-run ends the audit with an error saying so, not a hang or a crash',
    async () => {
      const { AuditPool } = await import('../src/engine/parallel/pool.js');
      const { auditOne, findSessions } = await import('../src/engine/tree.js');
      const options = { command: 'audit' as const };
      const pool = new AuditPool(options, 1);
      const found = findSessions([join(CORPORA, 'grok')], undefined, (s) => pool.offer(s));
      let calls = 0;
      const run = pool.finish(found, (f) => {
        // The worker is ended while this thread audits its own share (as if it ran out of memory).
        if (++calls === 1)
          void (pool as unknown as { jobs: Array<{ worker: { terminate(): unknown } }> }).jobs[0]!.worker.terminate();
        return auditOne(f, options);
      });
      await expect(run).rejects.toThrow(/a worker exited \(code \d+\) before finishing/);
    },
  );
});
