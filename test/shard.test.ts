/** `audit --shard k/n` then `merge`: the merged report equals the unsharded one byte for byte, whatever n. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { shardOf } from '../src/engine/tree.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-shard-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test.each([1, 2, 3, 5])('%i shards merge into the unsharded report (json and table)', async (n) => {
  const root = join(CORPORA, 'grok');
  const lineage = join(CORPORA, 'grok', 'lineage');
  const args = [root, '--sandbox-config', join(lineage, 'sandbox.toml')];
  const full = await cli(['audit', ...args, '--format', 'json', '--fail-on', 'never']);
  const files: string[] = [];
  for (let k = n; k >= 1; k--) {
    const f = join(scratch, `n${n}-s${k}.json`);
    const r = await cli(['audit', ...args, '--shard', `${k}/${n}`, '-o', f, '--fail-on', 'never']);
    expect(r.stderr).toBe('');
    files.push(f);
  }
  const merged = await cli(['merge', ...files, '--format', 'json', '--fail-on', 'never']);
  expect(merged.stderr).toBe('');
  expect(merged.stdout).toBe(full.stdout);
  const table = await cli(['merge', ...files]);
  expect(table.stdout).toBe((await cli(['audit', ...args])).stdout);
  expect(table.code).toBe(full.code === 0 ? (JSON.parse(full.stdout).summary.findings.error ? 1 : 0) : full.code);
});

test('shards are a stable partition by session id', () => {
  const ids = Array.from({ length: 2000 }, (_, i) => `019b0000-0000-7000-8000-${i.toString(16).padStart(12, '0')}`);
  const counts = [0, 0, 0, 0];
  for (const id of ids) counts[shardOf(id, 4) - 1]!++;
  for (const c of counts) expect(c).toBeGreaterThan(400);
  expect(shardOf(ids[7]!, 4)).toBe(shardOf(ids[7]!, 4));
});

test('merge refuses incomplete, duplicate or mismatched shards in one line', async () => {
  const root = join(CORPORA, 'grok', 'clean');
  const s = (k: number, n: number, ...extra: string[]): string => {
    const f = join(scratch, `m-${k}-${n}-${extra.join('')}.json`);
    return f;
  };
  const f1 = s(1, 2);
  const f2 = s(2, 2);
  await cli(['audit', root, '--shard', '1/2', '-o', f1]);
  await cli(['audit', root, '--shard', '2/2', '-o', f2]);
  const other = s(2, 2, 'x');
  await cli(['audit', root, '--shard', '2/2', '--ignore', 'JSONL_CRLF', '-o', other]);
  const plain = join(scratch, 'plain.json');
  writeFileSync(plain, (await cli(['audit', root, '--format', 'json'])).stdout);
  for (const [args, msg] of [
    [[f1], /shard 2\/2 missing/],
    [[f1, f1], /is also/],
    [[f1, other], /other paths, options or tool version/],
    [[f1, plain], /not a shard report/],
    [[join(scratch, 'nope.json')], /no such file/],
  ] as const) {
    const r = await cli(['merge', ...args]);
    expect(r.code, String(msg)).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(msg);
  }
  for (const [args, msg] of [
    [['--shard', '3/2'], /expected k\/n/],
    [['--shard', '1/2', '--format', 'sarif'], /use --format json/],
  ] as const) {
    const r = await cli(['audit', root, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(msg);
  }
  expect(JSON.parse(readFileSync(f1, 'utf8')).shard.index).toBe(1);
});
