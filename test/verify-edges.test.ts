/**
 * `verify` as a user meets its edges (issue 17 §5): a file that is no bag is one line and exit 2, `--against`
 * prints what it proved of each file and blames the side that changed, sessions are matched by id wherever they
 * now lie, and a bag with fetch.txt is incomplete, never valid.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-verify-edges-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const BUNDLES = join(CORPORA, 'bundles');

describe('verify on something that is no bag', () => {
  test.each([
    ['a text file', 'README.md', 'notes\nmore notes\n'],
    ['a text file named like a tar', 'notes.tar', 'x'.repeat(2000)],
    ['a text file named like a zip', 'notes.zip', 'hello'],
  ])('%s: one line, exit 2', async (_what, name, content) => {
    const path = join(scratch, name);
    writeFileSync(path, content);
    const r = await cli(['verify', path]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/not a bag \(not a directory, nor a zip, tar or tar\.gz archive\)/);
  });

  test('a directory with no bagit.txt, manifest or data/: one line, exit 2', async () => {
    const dir = join(scratch, 'plain-dir');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'a');
    const r = await cli(['verify', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a bag \(no bagit\.txt, manifest or data\/ directory in it\)/);
  });
});

describe('verify --against', () => {
  test('prints the proof for each file: unchanged, or only appended to', async () => {
    const c = join(BUNDLES, 'against-appended');
    const r = await cli(['verify', join(c, 'bag'), '--against', join(c, 'live')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/updates\.jsonl: 11 -> 12 lines, the first 11 unchanged/);
    expect(r.stdout).toMatch(/summary\.json: unchanged \(\d+ bytes, sha256 [0-9a-f]{12}…\)/);
    expect(r.stdout).toMatch(/Live session under .*: consistent with the bag/);
  });

  test('a file session (a Pi file) is named by its file once, not file/file', async () => {
    const live = join(scratch, 'pi-live');
    cpSync(join(CORPORA, 'pi', 'clean'), live, { recursive: true });
    const bag = join(scratch, 'pi-bag');
    expect((await cli(['bundle', live, '-o', bag])).code).toBe(0);
    const r = await cli(['verify', bag, '--against', live]);
    expect(r.code, r.stderr).toBe(0);
    const proofs = r.stdout.split('\n').filter((l) => l.startsWith('  '));
    expect(proofs.length).toBeGreaterThan(0);
    for (const l of proofs) expect(l).not.toMatch(/([^/\s]+\.jsonl)\/\1:/);
  });

  test('a live session that differs from an unsigned bag: the bag holds together, neither side is blamed', async () => {
    const c = join(BUNDLES, 'against-rewritten');
    const r = await cli(['verify', join(c, 'bag'), '--against', join(c, 'live')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Bag .*: consistent; unsigned: /);
    expect(r.stdout).not.toMatch(/INVALID|CHANGED since/);
    expect(r.stdout).toMatch(
      /Live session under .*: the bag and the live session differ at updates\.jsonl:2 \(1 error, above\); the bag is /,
    );
    expect(r.stdout).toMatch(/the bag is unsigned \(anyone can remake it\), so which side changed cannot be told/);
  });

  test('matches a session by its id wherever it now lies (another directory above it)', async () => {
    const c = join(BUNDLES, 'against-appended');
    const moved = join(scratch, 'moved', 'renamed-group');
    mkdirSync(moved, { recursive: true });
    for (const n of readdirSync(join(c, 'live'))) cpSync(join(c, 'live', n), join(moved, n), { recursive: true });
    const r = await cli(['verify', join(c, 'bag'), '--against', join(scratch, 'moved')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/renamed-group\/[^/]+\/updates\.jsonl: 11 -> 12 lines/);
  });
});

test('a bag with fetch.txt is incomplete, never valid', async () => {
  const bag = join(scratch, 'fetching');
  cpSync(join(BUNDLES, 'valid', 'bag'), bag, { recursive: true });
  writeFileSync(join(bag, 'fetch.txt'), 'https://example.com/big.bin 1048576 data/big.bin\n');
  const r = await cli(['verify', bag]);
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/BUNDLE_FILE_MISSING\s+fetch\.txt\s+the bag lists 1 file to fetch from elsewhere/);
  expect(r.stdout).not.toMatch(/: (valid|consistent)/);
});
