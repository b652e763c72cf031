/**
 * The evidence store: a second run stores only what changed (a grown log costs its new bytes), a rewritten log is
 * a finding naming the first differing line, a deleted session is recorded and kept, `verify --store` re-hashes
 * everything and names the place of a flipped byte or an edited record, and a capture bundles to the very bag
 * the live session gives.
 */
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runArchive, runStoreVerify, type ArchiveResult } from '../../src/engine/archive.js';
import { capturePath, objectPath } from '../../src/store/layout.js';
import { readState } from '../../src/store/open.js';
import { cli } from '../helpers/cli.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-store-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const GROUP = 'grok/sessions/%2Fhome%2Fdev%2Fproj';
const A001 = '019a3f2c-1d00-7a3e-8000-00000000a001';
const A003 = '019a3f2e-0f10-7c42-8000-00000000a003';
const C001 = 'codex/sessions/2026/03/02/rollout-2026-03-02T09-00-00-019cb100-0000-7000-8000-00000000c001.jsonl';
const C002 = 'codex/sessions/2026/03/02/rollout-2026-03-02T10-00-00-019cb100-0000-7000-8000-00000000c002.jsonl';

/** A source tree of three agents' clean corpora, copied so that it can be changed. */
function sourceTree(name: string): string {
  const root = join(work, name);
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), join(root, 'grok', 'sessions'), { recursive: true });
  cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), join(root, 'codex', 'sessions'), { recursive: true });
  cpSync(join(CORPORA, 'claude', 'clean', 'projects'), join(root, 'claude', 'projects'), { recursive: true });
  return root;
}

const errorsOf = (store: string): string[] =>
  runStoreVerify(store, undefined)
    .report.findings.filter((f) => f.severity === 'error')
    .map((f) => `${f.code} ${f.location.file}: ${f.message}`);

describe('a store built, then the sources changed', () => {
  const root = sourceTree('changes');
  const store = join(work, 'changes-store');
  let first: ArchiveResult;
  let again: ArchiveResult;
  let second: ArchiveResult;
  let appended = 0;
  beforeAll(() => {
    first = runArchive({ roots: [root], store });
    again = runArchive({ roots: [root], store });
    const line = '{"timestamp":1787149999,"type":"appended by the test"}\n';
    appended = Buffer.byteLength(line);
    appendFileSync(join(root, GROUP, A001, 'updates.jsonl'), line);
    const c001 = readFileSync(join(root, C001), 'utf8').split('\n');
    c001[1] = c001[1]!.replace(/"/, "'");
    writeFileSync(join(root, C001), c001.join('\n'));
    rmSync(join(root, C002));
    cpSync(join(root, GROUP, A003), join(root, GROUP, '019a3f2e-0f10-7c42-8000-00000000a009'), { recursive: true });
    second = runArchive({ roots: [root], store });
  });

  test('the first run captures every session as new', () => {
    expect(first.new).toBeGreaterThanOrEqual(9);
    expect([first.changed, first.deleted, first.records]).toEqual([0, 0, first.new]);
    expect(first.stored).toBeGreaterThan(0);
  });

  test('a run over unchanged sessions stores nothing and writes no record', () => {
    expect([again.new, again.changed, again.deleted, again.records, again.stored, again.objects]).toEqual([
      0, 0, 0, 0, 0, 0,
    ]);
    expect(again.unchanged).toBe(first.new);
  });

  test('the second run stores only the changes: the appended bytes and the rewritten file', () => {
    expect([second.new, second.changed, second.deleted]).toEqual([1, 2, 1]);
    expect(second.stored).toBe(appended + statSync(join(root, C001)).size);
    expect(second.objects).toBe(2);
  });

  test('a grown log is stored as its previous pieces plus one piece of its new bytes', () => {
    const state = readState(store);
    const rec = [...state.heads.values()].find((r) => r.session.id === A001)!;
    const f = rec.files.find((x) => x.path === 'updates.jsonl')!;
    expect(rec.grewFrom['updates.jsonl']).toBe(f.size - appended);
    expect(f.pieces).toHaveLength(2);
    expect(statSync(objectPath(store, f.pieces![1]!)).size).toBe(appended);
  });

  test('a rewritten append-only log is a finding naming the first differing line', () => {
    expect(second.findings.map((f) => [f.finding.code, f.finding.file, f.finding.line])).toEqual([
      ['BUNDLE_NOT_APPEND_ONLY', C001.split('/').pop(), 2],
    ]);
    expect(second.findings[0]!.finding.message).toMatch(/first difference at line 2, column \d+/);
  });

  test('a deleted session is recorded as deleted and its captures stay', () => {
    const state = readState(store);
    const gone = [...state.heads.values()].find((r) => r.session.display.endsWith(C002.split('/').pop()!))!;
    expect(gone.status).toBe('deleted');
    const before = state.records.find((r) => r.seq === gone.previous)!;
    expect(before.files.some((f) => f.type === 'file' && f.sha256 !== undefined)).toBe(true);
  });

  test('verify --store passes after all of it', () => {
    expect(errorsOf(store)).toEqual([]);
  });
});

describe('verify --store finds tampering, with its place', () => {
  const root = sourceTree('tamper');
  const store = join(work, 'tamper-store');
  beforeAll(() => {
    runArchive({ roots: [root], store });
    appendFileSync(join(root, GROUP, A001, 'updates.jsonl'), '{"timestamp":1787149999}\n');
    runArchive({ roots: [root], store });
  });

  test('one flipped byte in a stored piece', () => {
    const state = readState(store);
    const piece = state.records[0]!.files.find((f) => f.type === 'file')!.pieces![0]!;
    const path = objectPath(store, piece);
    const bytes = readFileSync(path);
    const copy = Buffer.from(bytes);
    copy[0] = copy[0]! ^ 1;
    writeFileSync(path, copy);
    try {
      const errors = errorsOf(store);
      expect(errors.some((e) => e.startsWith(`BUNDLE_MANIFEST_MISMATCH objects/${piece.slice(0, 2)}/${piece}:`))).toBe(
        true,
      );
    } finally {
      writeFileSync(path, bytes);
    }
    expect(errorsOf(store)).toEqual([]);
  });

  test('one edited record in the middle of the chain', () => {
    const path = capturePath(store, 2);
    const bytes = readFileSync(path);
    writeFileSync(path, Buffer.from(bytes.toString('utf8').replace('"status":"new"', '"status":"changed"')));
    try {
      expect(errorsOf(store)).toEqual([
        expect.stringMatching(
          /^BUNDLE_INVALID captures\/000000\/0000000003\.json: names [0-9a-f]{64} as its predecessor/,
        ),
      ]);
    } finally {
      writeFileSync(path, bytes);
    }
  });

  test('the last record edited', () => {
    const last = readState(store).seq;
    const path = capturePath(store, last);
    const bytes = readFileSync(path);
    writeFileSync(path, Buffer.from(bytes.toString('utf8').replace('"run":"2', '"run":"1')));
    try {
      expect(errorsOf(store)).toEqual([
        expect.stringMatching(
          new RegExp(`^BUNDLE_MANIFEST_MISMATCH captures/000000/${String(last).padStart(10, '0')}`),
        ),
      ]);
    } finally {
      writeFileSync(path, bytes);
    }
  });

  test('a record claiming a log grew that did not', () => {
    const last = readState(store).seq;
    const path = capturePath(store, last);
    const bytes = readFileSync(path);
    writeFileSync(
      path,
      Buffer.from(bytes.toString('utf8').replace(/"grewFrom":\{"updates.jsonl":\d+/, '"grewFrom":{"updates.jsonl":7')),
    );
    try {
      expect(errorsOf(store)).toContainEqual(
        expect.stringMatching(
          /^BUNDLE_INVALID captures\/.*: updates.jsonl: says the log grew from the previous capture's 7 bytes/,
        ),
      );
    } finally {
      writeFileSync(path, bytes);
    }
  });

  test('a removed record', () => {
    const path = capturePath(store, 3);
    const bytes = readFileSync(path);
    rmSync(path);
    try {
      expect(errorsOf(store)[0]).toMatch(/captures\/000000\/0000000004\.json: capture 4 where capture 3 was expected/);
    } finally {
      writeFileSync(path, bytes);
    }
  });
});

describe('bundle --from-store', () => {
  const store = join(work, 'bundle-store');
  const live = `corpora/grok/clean/sessions/%2Fhome%2Fdev%2Fproj/${A001}`;

  test('gives the very bag bundle gives of the live session, plus where it came from', async () => {
    // Paths relative to the repository, as a user in it would type them.
    expect((await cli(['archive', 'corpora/grok/clean', 'corpora/claude/clean', '--store', store])).code).toBe(0);
    const a = join(work, 'live-bag');
    const b = join(work, 'stored-bag');
    expect((await cli(['bundle', live, '-o', a])).code).toBe(0);
    const key = [...readState(store).heads.values()].find((r) => r.session.display === live)!.session.key;
    const r = await cli(['bundle', '--from-store', store, '--session', key, '-o', b]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('from capture');
    // The payload, its manifests, the analysis and the inventory are the live bag's, byte for byte.
    const files = (d: string): string[] => readdirSync(d, { recursive: true }).map(String).sort();
    expect(files(b)).toEqual(files(a));
    const provenanceOnly = new Set([
      'bag-info.txt',
      'custody.intoto.json',
      'tagmanifest-sha256.txt',
      'tagmanifest-sha512.txt',
    ]);
    for (const f of files(a)) {
      if (provenanceOnly.has(f) || statSync(join(a, f)).isDirectory()) continue;
      expect(readFileSync(join(b, f)).equals(readFileSync(join(a, f))), f).toBe(true);
    }
    // bag-info.txt only gains the X-Store-* tags; the custody statement only its provenance.
    const lines = (d: string): string[] => readFileSync(join(d, 'bag-info.txt'), 'utf8').split('\n');
    const tagged = lines(b).filter((l) => !/^(X-Store| {2})/.test(l) || lines(a).includes(l));
    expect(tagged).toEqual(lines(a));
    const predicate = (d: string): Record<string, unknown> =>
      (JSON.parse(readFileSync(join(d, 'custody.intoto.json'), 'utf8')) as { predicate: Record<string, unknown> })
        .predicate;
    const { provenance, ...rest } = predicate(b);
    expect(rest).toEqual(predicate(a));
    expect(provenance).toMatchObject({ from: 'store', sessionKey: key });
  });

  test('--at exports an earlier capture: the log as it was then', async () => {
    const root = sourceTree('at');
    const s = join(work, 'at-store');
    const log = join(root, GROUP, A001, 'updates.jsonl');
    const before = readFileSync(log);
    runArchive({ roots: [root], store: s });
    appendFileSync(log, '{"timestamp":1787149999}\n');
    runArchive({ roots: [root], store: s });
    const state = readState(s);
    const mine = state.records.filter((r) => r.session.id === A001);
    expect(mine.map((r) => r.status)).toEqual(['new', 'changed']);
    const out = join(work, 'at-bag');
    const r = await cli(['bundle', '--from-store', s, '--session', A001, '--at', String(mine[0]!.seq), '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    // Where the bag put the log: its inventory maps each original path to its payload path.
    const inventory = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as {
      files: Array<{ session: string; path: string; bagPath: string }>;
    };
    const entry = inventory.files.find((f) => f.session === A001 && f.path === 'updates.jsonl');
    const bagged = readFileSync(join(out, entry!.bagPath));
    expect(bagged.equals(before)).toBe(true);
  });

  test('an unknown session is one clear line', async () => {
    const r = await cli(['bundle', '--from-store', store, '--session', '5e3c1a70-nope', '-o', join(work, 'x.zip')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no session "5e3c1a70-nope" in the store');
  });

  test('a session deleted from the source is still bundled from its last capture', async () => {
    const root = sourceTree('deleted');
    const s = join(work, 'deleted-store');
    runArchive({ roots: [root], store: s });
    rmSync(join(root, C002));
    expect(runArchive({ roots: [root], store: s }).deleted).toBe(1);
    const id = '019cb100-0000-7000-8000-00000000c002';
    const r = await cli(['bundle', '--from-store', s, '--session', id, '-o', join(work, 'deleted.zip')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/from capture \d+ \([^)]*, new\)/);
    expect((await cli(['verify', join(work, 'deleted.zip')])).code).toBe(0);
  });
});

test('a finished run leaves nothing under tmp/', () => {
  const store = join(work, 'changes-store');
  expect(readdirSync(join(store, 'tmp'))).toEqual([]);
});

test("a group's own files (no session's) are kept as a session of their own, and not bundled alone", async () => {
  const root = sourceTree('group');
  const s = join(work, 'group-store');
  runArchive({ roots: [root], store: s });
  appendFileSync(join(root, GROUP, 'prompt_history.jsonl'), '{"prompt":"added"}\n');
  const second = runArchive({ roots: [root], store: s });
  expect([second.new, second.changed]).toEqual([0, 1]);
  const group = [...readState(s).heads.values()].find((r) => r.session.id === 'group:%2Fhome%2Fdev%2Fproj')!;
  expect(group.files.map((f) => f.path)).toEqual(['prompt_history.jsonl']);
  expect(group.status).toBe('changed');
  const r = await cli(['bundle', '--from-store', s, '--session', group.session.key, '-o', join(work, 'g.zip')]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('bundle one of its sessions');
});
