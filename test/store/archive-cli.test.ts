/**
 * `archive`, `verify --store` and `bundle --from-store` as a user meets them: one summary line, the agents' homes as
 * default roots, a rewritten log on stderr with exit 1 (so cron mails it), and one clear line for what cannot work.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { defaultRoots } from '../../src/engine/archive.js';
import { cli } from '../helpers/cli.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-archive-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ROLLOUT = '2026/03/02/rollout-2026-03-02T09-00-00-019cb100-0000-7000-8000-00000000c001.jsonl';

describe('archive', () => {
  const home = join(work, 'home');
  mkdirSync(join(home, '.codex'), { recursive: true });
  cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), join(home, '.codex', 'sessions'), { recursive: true });
  const store = join(work, 'store');

  test('the default roots are the agents’ session homes that exist', () => {
    expect(defaultRoots(home)).toEqual([join(home, '.codex', 'sessions')]);
  });

  test('one summary line: sessions new, changed, deleted, bytes stored', async () => {
    const r = await cli(['archive', join(home, '.codex', 'sessions'), '--store', store]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        '^archive .*store: sessions 4 new, 0 changed, 0 deleted, 0 unchanged; \\d+ bytes stored in \\d+ new objects ' +
          '\\(\\d+ bytes read\\); 4 capture records; 4 captures indexed\n$',
      ),
    );
    expect(r.stderr).toBe('');
  });

  test('a rewritten log is an error line on stderr and exit 1; an appended one is not', async () => {
    const file = join(home, '.codex', 'sessions', ROLLOUT);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"type"', '"TYPE"'));
    const r = await cli(['archive', join(home, '.codex', 'sessions'), '--store', store]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^session-audit: error: BUNDLE_NOT_APPEND_ONLY .*c001\.jsonl:1: an append-only log/);
    appendFileSync(file, '{"timestamp":"2026-03-02T10:00:00.000Z","type":"event_msg","payload":{}}\n');
    const after = await cli(['archive', join(home, '.codex', 'sessions'), '--store', store]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/sessions 0 new, 1 changed, 0 deleted, 3 unchanged/);
  });

  test('without --store: one line, exit 2', async () => {
    const r = await cli(['archive', join(home, '.codex', 'sessions')]);
    expect([r.code, r.stderr]).toEqual([
      2,
      'session-audit: archive: give the store with --store DIR (made on first use)\n',
    ]);
  });

  test('a directory that is not a store is never written into', async () => {
    const other = join(work, 'not-a-store');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine\n');
    const r = await cli(['archive', join(home, '.codex', 'sessions'), '--store', other]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('exists, is not empty and is not a session-audit store');
  });

  test('verify --store of a directory that is not a store: one line, exit 2', async () => {
    const r = await cli(['verify', '--store', join(work, 'nothing-here')]);
    expect([r.code, r.stderr]).toEqual([2, `session-audit: --store ${join(work, 'nothing-here')}: no such store\n`]);
  });

  test('verify --store of a good store: its verdict and the rewrite it recorded, exit 0', async () => {
    const r = await cli(['verify', '--store', store]);
    expect(r.code, r.stdout).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^Store .*: 6 capture records \(0 signed\) of 4 sessions, .*: consistent; unsigned /);
    const rewrite = /^ {2}rewrite recorded by capture 5: .*c001\.jsonl:1: an append-only log /;
    expect(lines.slice(1)).toEqual([expect.stringMatching(rewrite), '']);
  });

  test('bundle --session without --from-store: one line, exit 2', async () => {
    const r = await cli(['bundle', '--session', 'x', '-o', join(work, 'x.zip')]);
    expect([r.code, r.stderr]).toEqual([2, 'session-audit: --session and --at need --from-store\n']);
  });
});

test('archive, verify --store and bundle --from-store never change the sessions they read', async () => {
  const { treeState, diffStates } = await import('../helpers/tree-hash.js');
  const root = join(work, 'untouched');
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), root, { recursive: true });
  const before = treeState(root);
  const store = join(work, 'untouched-store');
  expect((await cli(['archive', root, '--store', store])).code).toBe(0);
  expect((await cli(['archive', root, '--store', store, '--rehash'])).code).toBe(0);
  expect((await cli(['verify', '--store', store])).code).toBe(0);
  const id = '019a3f2c-1d00-7a3e-8000-00000000a001';
  expect((await cli(['bundle', '--from-store', store, '--session', id, '-o', join(work, 'u.zip')])).code).toBe(0);
  expect(diffStates(before, treeState(root))).toEqual([]);
});
