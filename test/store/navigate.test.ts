/**
 * Finding one's way in the store (issue 29): `captures` lists each session's captures from the records, ids are
 * accepted by unique prefix everywhere, `bundle --from-store` says when an earlier capture holds what the chosen one
 * rewrote, and `search` gives one hit per line however many captures hold it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-navigate-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const A001 = '019a3f2c-1d00-7a3e-8000-00000000a001';
const C001 = '019cb100-0000-7000-8000-00000000c001';

describe('captures, prefixes and the rewrite hint', () => {
  const root = join(work, 'codex');
  const store = join(work, 'codex-store');
  cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), root, { recursive: true });
  const file = join(root, '2026', '03', '02', `rollout-2026-03-02T09-00-00-${C001}.jsonl`);

  test('captures lists every session with its captures: growth, rewrite, deletion', async () => {
    expect((await cli(['archive', root, '--store', store])).code).toBe(0);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"type":"event_msg","payload":{}}\n`);
    await cli(['archive', root, '--store', store]);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"type"', '"TYPE"'));
    expect((await cli(['archive', root, '--store', store])).code).toBe(1);
    const r = await cli(['captures', '--store', store, '--session', C001], { columns: 120 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ +1 +\S+ +new +17079 +first capture: 1 entry$/m);
    expect(r.stdout).toMatch(/^ +5 +\S+ +changed +\d+ +the log grew 17079 → \d+ bytes$/m);
    expect(r.stdout).toMatch(/^ +6 +\S+ +changed +\d+ +REWRITTEN the log at line 1 \(BUNDLE_NOT_APPEND_ONLY\)$/m);
    const all = JSON.parse((await cli(['captures', '--store', store, '--format', 'json'])).stdout) as {
      sessions: Array<{ id: string; captures: Array<{ seq: number }> }>;
    };
    expect(all.sessions.map((s) => s.captures.map((c) => c.seq))).toEqual([[1, 5, 6], [2], [3], [4]]);
  });

  test('a prefix of several sessions is refused with their ids, keys and paths; of none, with a pointer', async () => {
    const r = await cli(['captures', '--store', store, '--session', '019cb100']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/4 sessions match "019cb100": give one by its key/)]);
    const none = await cli(['search', 'x', '--store', store, '--session', 'ffff']);
    expect([none.code, none.stderr]).toEqual([2, expect.stringMatching(/no session in the index has that id or key/)]);
  });

  test('bundle --from-store by prefix; the latest capture rewrote: a note names the one before it', async () => {
    const out = join(work, 'latest.zip');
    const listed = JSON.parse((await cli(['captures', '--store', store, '--format', 'json'])).stdout) as {
      sessions: Array<{ id: string; key: string }>;
    };
    const key = listed.sessions.find((s) => s.id === C001)!.key;
    const r = await cli(['bundle', '--from-store', store, '--session', key.slice(0, 8), '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/from capture 6 /);
    expect(r.stderr).toMatch(
      /note: capture 6 recorded a rewrite of .*c001\.jsonl:1; capture 5 holds the version before it \(--at 5\)/,
    );
    const wrong = await cli(['bundle', '--from-store', store, '--session', C001, '--at', '2', '-o', out]);
    expect(wrong.stderr).toMatch(
      /capture 2 is of another session .*; this session's captures are 1 \(new\), 5 \(changed\), 6 \(changed\)/,
    );
  });
});

describe('search: one hit per line', () => {
  test('a line a later capture rewinds is one hit, rewound, held by both captures', async () => {
    const root = join(work, 'grok');
    const store = join(work, 'grok-store');
    cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), root, { recursive: true });
    const log = join(root, '%2Fhome%2Fdev%2Fproj', A001, 'updates.jsonl');
    const whole = readFileSync(log, 'utf8');
    // The session before its rewind (line 59), then as it went on: the prompt of line 51 is rewound later.
    writeFileSync(log, `${whole.split('\n').slice(0, 55).join('\n')}\n`);
    await cli(['archive', root, '--store', store]);
    writeFileSync(log, whole);
    await cli(['archive', root, '--store', store]);
    const hits = JSON.parse(
      (await cli(['search', 'checked_add', '--store', store, '--kind', 'user_prompt', '--format', 'json'])).stdout,
    ).hits as Array<{ line: number; rewound: boolean; capture: number; lastCapture: number }>;
    expect(hits.map((h) => [h.line, h.rewound])).toEqual([[51, true]]);
    expect(hits[0]!.lastCapture).toBeGreaterThan(hits[0]!.capture);
    const t = await cli(['search', 'checked_add', '--store', store, '--kind', 'user_prompt'], { columns: 120 });
    expect(t.stdout).toMatch(new RegExp(`@\\d+ in captures ${hits[0]!.capture}-${hits[0]!.lastCapture}`));
  });
});

describe('archive --no-index (the capture alone, as the bench measures it)', () => {
  test('captures without indexing; search refuses until a later run has caught the index up', async () => {
    const root = join(work, 'no-index');
    const store = join(work, 'no-index-store');
    cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), root, { recursive: true });
    const bare = await cli(['archive', root, '--store', store, '--no-index']);
    expect([bare.code, bare.stdout]).toEqual([
      0,
      expect.stringMatching(/4 capture records; not indexed \(--no-index\)\n$/),
    ]);
    const refused = await cli(['search', 'task_complete', '--store', store]);
    expect([refused.code, refused.stdout]).toEqual([2, '']);
    expect(refused.stderr).toMatch(/has no index yet/);
    const later = await cli(['archive', root, '--store', store]);
    expect(later.stdout).toMatch(/0 capture records; 4 captures indexed\n$/);
    expect((await cli(['search', 'task_complete', '--store', store])).code).toBe(0);
  });
});
