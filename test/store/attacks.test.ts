/**
 * The evidence store attacked as a second local user, a crafted session or a crashed run would (issue 27): a forged
 * record never writes outside the tool's own directory, a planted symlink or another user's store is refused, a cut
 * chain stays a finding until a person acknowledges it, a search never answers "no hit" from an index behind the
 * records, a rewrite is not laundered by moving the session away and back, a bag from a damaged store is one line.
 */
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { runStoreVerify } from '../../src/engine/archive.js';
import { processAlive, privateTempDir, selfStart, sweepStaleTemps } from '../../src/read/private-temp.js';
import { racyStamp } from '../../src/read/stamp.js';
import { archive } from '../../src/store/archive.js';
import { capturePath, headFile, objectPath } from '../../src/store/layout.js';
import { lockStore } from '../../src/store/lock.js';
import { materialize, StoredVersionDamaged } from '../../src/store/materialize.js';
import { openStore, readState } from '../../src/store/open.js';
import { encodeRecord, sha256, type CaptureRecord } from '../../src/store/record.js';
import { discoverSessions } from '../../src/read/discover.js';
import { detectorsFor, formatOf } from '../../src/formats/registry.js';
import { cli } from '../helpers/cli.js';
import { BUILT, runBuilt } from '../helpers/cli-child.js';
import { asDenied, denial, storeDirFor } from '../helpers/denial.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-attacks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const isRoot = process.getuid?.() === 0;

let n = 0;
/** A copy of the clean Codex corpus and a store archived from it. */
async function fresh(): Promise<{ root: string; store: string; day: string }> {
  const base = join(work, `case-${n++}`);
  const root = join(base, 'sessions');
  cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), root, { recursive: true });
  const store = join(base, 'store');
  const r = await cli(['archive', root, '--store', store]);
  expect(r.code, r.stderr).toBe(0);
  return { root, store, day: join(root, '2026', '03', '02') };
}

const lastRecord = (store: string): { path: string; record: CaptureRecord } => {
  const seq = readState(store).seq;
  const path = capturePath(store, seq);
  return { path, record: JSON.parse(readFileSync(path, 'utf8')) as CaptureRecord };
};

/** Replace the last record by `edit(record)` and rehash head.json, as an attacker with write access would. */
function forge(store: string, edit: (r: CaptureRecord) => void): void {
  const { path, record } = lastRecord(store);
  edit(record);
  const bytes = encodeRecord(record);
  writeFileSync(path, bytes);
  writeFileSync(headFile(store), `${JSON.stringify({ seq: record.seq, sha256: sha256(bytes) })}\n`);
}

const codesOf = (store: string, key?: string): string[] =>
  runStoreVerify(store, key).report.findings.map((f) => `${f.severity} ${f.code} ${f.location.file}`);

describe('1. a forged capture record writes nowhere', () => {
  test.each([
    ['a path with ..', (target: string) => [{ path: `../../../../../..${target}/evil` }]],
    [
      'a file below a recorded symlink',
      (target: string) => [{ path: 'lnk', type: 'symlink', linkTarget: target }, { path: 'lnk/evil' }],
    ],
  ] as const)(
    '%s: verify names it, bundle --from-store, archive and --reindex refuse, nothing is written',
    async (_name, entries) => {
      const { root, store } = await fresh();
      const target = join(work, `target-${n}`);
      mkdirSync(target);
      const id = lastRecord(store).record.session.id;
      forge(store, (r) => {
        const piece = r.files.find((f) => f.type === 'file')!;
        for (const e of entries(target))
          r.files.push({ ...piece, mode: 0o4755, ...e } as CaptureRecord['files'][number]);
      });
      expect(codesOf(store)).toContain(`error BUNDLE_UNSAFE_PATH captures/000000/${'4'.padStart(10, '0')}.json`);
      const b = await cli(['bundle', '--from-store', store, '--session', id, '-o', join(work, `b${n}.zip`)]);
      expect([b.code, b.stderr]).toEqual([2, expect.stringMatching(/^session-audit: .*run verify --store\n$/)]);
      for (const args of [
        ['archive', root, '--store', store],
        ['archive', '--reindex', '--store', store],
      ]) {
        const r = await cli(args);
        expect([r.code, r.stderr.split('\n').length]).toEqual([2, 2]);
      }
      expect(readdirSync(target)).toEqual([]);
    },
  );

  test('materialize checks the record itself (a caller that skipped readState)', () => {
    const dir = join(work, 'materialize-direct');
    const record = {
      seq: 1,
      session: { key: 'k', id: 'x', format: 'codex', abs: '/x/y', display: 'y', root: '/x' },
      files: [
        { path: '../escape', type: 'file', size: 0, mtimeMs: 0, mode: 0o644, sha256: '0'.repeat(64), pieces: [] },
      ],
    } as unknown as CaptureRecord;
    expect(() => materialize(join(work, 'nowhere'), record, dir)).toThrow(StoredVersionDamaged);
    expect(existsSync(join(dir, '..', 'escape'))).toBe(false);
  });

  test.skipIf(!isRoot)('root never writes a store another user made (the setuid plant of a cron archive)', async () => {
    const { root, store } = await fresh();
    const chown = (p: string): void => {
      chownSync(p, 65534, 65534);
      if (statSync(p).isDirectory()) for (const x of readdirSync(p)) chown(join(p, x));
    };
    chown(store);
    const r = await cli(['archive', root, '--store', store]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is owned by uid 65534, not by this user \(uid 0\): refusing to write the store/);
    // Reading it is what a reviewer does with a store handed over: allowed.
    expect((await cli(['verify', '--store', store])).code).toBe(0);
  });
});

describe('2. planted symlinks and a store others can write', () => {
  test('tmp/ as a symlink: archive refuses and the directory it names keeps its files', async () => {
    const { root, store } = await fresh();
    const victim = join(work, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'precious'), 'x');
    rmSync(join(store, 'tmp'), { recursive: true });
    symlinkSync(victim, join(store, 'tmp'));
    const r = await cli(['archive', root, '--store', store]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/tmp is a symlink: refusing to write the store/)]);
    expect(readdirSync(victim)).toEqual(['precious']);
    // Readers refuse it too: nothing they read may lie outside the store.
    expect((await cli(['verify', '--store', store])).code).toBe(2);
  });

  test('a dangling index.sqlite symlink is never created through; objects/xx as a symlink is refused', async () => {
    const { root, store } = await fresh();
    const target = join(work, 'created-through-link.sqlite');
    rmSync(join(store, 'index.sqlite'));
    symlinkSync(target, join(store, 'index.sqlite'));
    expect((await cli(['archive', root, '--store', store])).code).toBe(2);
    expect((await cli(['search', 'x', '--store', store])).code).toBe(2);
    expect(existsSync(target)).toBe(false);
    unlinkSync(join(store, 'index.sqlite'));
    const shard = readdirSync(join(store, 'objects'))[0]!;
    renameSync(join(store, 'objects', shard), join(work, 'moved-shard'));
    symlinkSync(join(work, 'moved-shard'), join(store, 'objects', shard));
    const r = await cli(['archive', root, '--store', store]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/objects\/[0-9a-f]{2} is a symlink/)]);
  });

  test('a store writable by others: archive refuses, verify says so', async () => {
    const { root, store } = await fresh();
    chmodSync(store, 0o777);
    const r = await cli(['archive', root, '--store', store]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/is writable by every user \(mode 0777\)/)]);
    expect(codesOf(store)).toEqual(['warning STORE_UNPROTECTED .']);
    chmodSync(store, 0o750);
    chmodSync(join(store, 'captures'), 0o770);
    expect((await cli(['archive', root, '--store', store])).stderr).toMatch(/captures is writable by its group/);
  });
});

describe('3. a cut chain is not laundered', () => {
  const cut = (store: string, k: number): void => {
    const seq = readState(store).seq;
    for (let s = seq; s > seq - k; s--) rmSync(capturePath(store, s));
  };

  test('records removed at the end: an error until acknowledged, then a warning for good', async () => {
    const { root, store } = await fresh();
    cut(store, 3);
    expect(codesOf(store)).toContain('error STORE_GAP head.json');
    const head = readFileSync(headFile(store));
    const refused = await cli(['archive', root, '--store', store]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/captures 2-4 were removed\. Nothing was archived\..*--acknowledge-gap/);
    expect(readFileSync(headFile(store))).toEqual(head);
    expect(codesOf(store)).toContain('error STORE_GAP head.json');
    const ack = await cli(['archive', root, '--store', store, '--acknowledge-gap', 'restored from a backup']);
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stderr).toMatch(/STORE_GAP gap record 5 written: .*"restored from a backup"/);
    const v = runStoreVerify(store, undefined);
    expect(v.report.findings.map((f) => `${f.severity} ${f.code}`)).toEqual(['warning STORE_GAP']);
    expect(v.report.findings[0]!.message).toMatch(/captures 2-4 were removed; acknowledged by .* \(uid \d+\)/);
    // The next captures are numbered after the gap; the index was rebuilt and answers for the whole chain.
    const s = await cli(['search', 'session_meta OR message', '--store', store]);
    expect(s.code, s.stderr).toBe(0);
    expect(readState(store).seq).toBeGreaterThanOrEqual(5);
    expect((await cli(['archive', root, '--store', store, '--acknowledge-gap', 'again'])).stderr).toMatch(
      /there is no gap to acknowledge/,
    );
  });

  test('a signed store: its head signed, a cut hidden by an unsigned head is found without the key', async () => {
    const { root, store } = await fresh();
    rmSync(store, { recursive: true });
    const key = generateKeyPairSync('ed25519');
    const pem = join(work, 'signer.pem');
    writeFileSync(pem, key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    expect((await cli(['archive', root, '--store', store, '--sign-key', pem])).code).toBe(0);
    expect(JSON.parse(readFileSync(headFile(store), 'utf8')).payloadType).toBe(
      'application/vnd.session-audit.head+json',
    );
    cut(store, 2);
    const st = readState(store);
    writeFileSync(headFile(store), `${JSON.stringify({ seq: st.seq, sha256: st.last })}\n`);
    expect(codesOf(store)).toContain('error BUNDLE_SIGNATURE_INVALID head.json');
    expect((await cli(['archive', root, '--store', store, '--sign-key', pem])).code).toBe(2);
    // A signed chain is not extended unsigned.
    const unsigned = await cli(['archive', root, '--store', store]);
    expect(unsigned.stderr).toMatch(/records are signed .* give --sign-key/);
  });

  test('an unsigned record appended by hand to a signed chain is an error, key or no key', async () => {
    const { root, store } = await fresh();
    rmSync(store, { recursive: true });
    const key = generateKeyPairSync('ed25519');
    const pem = join(work, 'signer2.pem');
    writeFileSync(pem, key.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
    await cli(['archive', root, '--store', store, '--sign-key', pem]);
    const st = readState(store);
    const last = st.records[st.records.length - 1]!;
    const bytes = encodeRecord({ ...last, seq: st.seq + 1, prev: st.last, status: 'changed', previous: last.seq });
    writeFileSync(capturePath(store, st.seq + 1), bytes);
    expect(codesOf(store)).toContain(
      `error BUNDLE_SIGNATURE_INVALID captures/000000/${String(st.seq + 1).padStart(10, '0')}.json`,
    );
  });

  test('a store emptied to {seq:0} is not a valid store: empty, and the pieces left are named', async () => {
    const { store } = await fresh();
    rmSync(join(store, 'captures'), { recursive: true });
    writeFileSync(headFile(store), '{"seq":0,"sha256":null}\n');
    expect(codesOf(store)).toEqual(expect.arrayContaining(['warning STORE_EMPTY captures']));
    expect(codesOf(store).some((c) => c.startsWith('note STORE_ORPHAN_OBJECT objects/'))).toBe(true);
  });
});

describe('5. search never says "no hit" from an index behind the records', () => {
  test('captures recorded, not indexed (a killed run): exit 2 naming them; --allow-stale answers, warned', async () => {
    const { root, store, day } = await fresh();
    const file = readdirSync(day).find((f) => f.endsWith('c001.jsonl'))!;
    writeFileSync(join(day, file), `${readFileSync(join(day, file), 'utf8')}{"type":"event_msg","payload":{}}\n`);
    // The capture without its index update, as a run killed between the two leaves it.
    const s = openStore(store, true);
    const sessions = discoverSessions(root, detectorsFor());
    archive({
      store: s,
      roots: [{ arg: root, abs: root, sessions }],
      policy: (f) => (rel) => formatOf(f).changePolicy(rel),
    });
    const r = await cli(['search', 'session_meta', '--store', store]);
    expect([r.code, r.stderr]).toEqual([
      2,
      expect.stringMatching(/the index does not answer for the whole store: capture record\(s\) 5 are not indexed/),
    ]);
    const stale = await cli(['search', 'message', '--store', store, '--allow-stale']);
    expect(stale.code).toBe(0);
    expect(stale.stderr).toMatch(/^session-audit: warning: STORE_INDEX_MISMATCH/);
    expect(codesOf(store)).toContain('warning STORE_INDEX_MISMATCH index.sqlite');
  });

  test('--reindex takes the lock, and builds beside the live index, renamed in when complete', async () => {
    const { store } = await fresh();
    const release = lockStore(store);
    try {
      const busy = await cli(['archive', '--reindex', '--store', store]);
      expect([busy.code, busy.stderr]).toEqual([2, expect.stringMatching(/is in use by process/)]);
    } finally {
      release();
    }
    const reader = new Database(join(store, 'index.sqlite'), { readonly: true });
    const before = statSync(join(store, 'index.sqlite')).ino;
    expect((await cli(['archive', '--reindex', '--store', store])).code).toBe(0);
    expect(statSync(join(store, 'index.sqlite')).ino).not.toBe(before);
    // A search that had the old index open reads it whole to the end.
    expect((reader.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n).toBeGreaterThan(0);
    reader.close();
    expect(readdirSync(join(store, 'tmp'))).toEqual([]);
  });

  const deny = denial();
  test.skipIf(!BUILT || !deny)('an index that cannot be written: the captures are kept, an error line, exit 1', () => {
    const base = mkdtempSync(join(tmpdir(), 'sa-attacks-user-'));
    try {
      chmodSync(base, 0o755);
      const root = join(base, 'sessions');
      cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), root, { recursive: true });
      spawnSync('chmod', ['-R', 'a+rX', root]);
      const store = storeDirFor(deny!, join(base, 'store'));
      expect(runBuilt(['archive', root, '--store', store], asDenied(deny!)).code).toBe(0);
      const day = join(root, '2026', '03', '02');
      const file = join(day, readdirSync(day).find((f) => f.endsWith('c001.jsonl'))!);
      writeFileSync(file, `${readFileSync(file, 'utf8')}{"type":"event_msg","payload":{}}\n`);
      // The user's own index, made read-only to them: SQLite cannot write it (SQLITE_READONLY, as a full disk would).
      chmodSync(join(store, 'index.sqlite'), 0o440);
      const r = runBuilt(['archive', root, '--store', store], asDenied(deny!));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^session-audit: error: the index was not updated \(.*\); the captures are kept/m);
      expect(readState(store).seq).toBe(5);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  test('rows edited with sqlite3: verify --store says the index lies', async () => {
    const { store } = await fresh();
    const db = new Database(join(store, 'index.sqlite'));
    db.prepare("UPDATE events SET text = 'terraform destroy' WHERE id = 2").run();
    db.prepare("UPDATE tool_calls SET name = 'rm' WHERE id = 1").run();
    db.close();
    const found = runStoreVerify(store, undefined).report.findings.map((f) => `${f.code} ${f.location.file}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'STORE_INDEX_MISMATCH index.sqlite: events',
        'STORE_INDEX_MISMATCH index.sqlite: tool_calls',
        'STORE_INDEX_MISMATCH index.sqlite: events_fts',
      ]),
    );
    expect((await cli(['archive', '--reindex', '--store', store])).code).toBe(0);
    expect(codesOf(store)).toEqual([]);
  });

  test('a literal « » in the text never reads as a match; JSON gives the matches as offsets', async () => {
    const { root, store, day } = await fresh();
    const file = join(day, readdirSync(day).find((f) => f.endsWith('c001.jsonl'))!);
    const line = JSON.stringify({
      timestamp: '2026-03-02T09:30:00.000Z',
      type: 'event_msg',
      payload: { type: 'user_message', message: 'quote «sneaky» then needle' },
    });
    writeFileSync(file, `${readFileSync(file, 'utf8')}${line}\n`);
    await cli(['archive', root, '--store', store]);
    const t = await cli(['search', 'needle', '--store', store, '--kind', 'user_prompt']);
    expect(t.stdout).toContain('quote \\u{ab}sneaky\\u{bb} then «needle»');
    const j = JSON.parse((await cli(['search', 'needle', '--store', store, '--format', 'json'])).stdout) as {
      hits: Array<{ snippet: string; highlights: Array<[number, number]> }>;
    };
    const hit = j.hits.find((h) => h.snippet.includes('sneaky'))!;
    expect(hit.highlights.map(([a, b]) => hit.snippet.slice(a, b))).toEqual(['needle']);
  });
});

describe('6. a rewrite is not laundered by a move', () => {
  test('moved away (recorded deleted), rewritten, moved back: BUNDLE_NOT_APPEND_ONLY', async () => {
    const { root, store, day } = await fresh();
    const away = join(work, `away-${n}`);
    renameSync(day, away);
    expect((await cli(['archive', root, '--store', store])).stdout).toMatch(/2 deleted/);
    const file = join(away, readdirSync(away).find((f) => f.endsWith('c001.jsonl'))!);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"type"', '"TYPE"'));
    renameSync(away, day);
    const r = await cli(['archive', root, '--store', store]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/BUNDLE_NOT_APPEND_ONLY .*before the session was deleted from its source and came back/);
    expect(codesOf(store).filter((c) => c.startsWith('error'))).toEqual([]);
  });

  test('a rollout renamed and edited: compared with the file it was', async () => {
    const { root, store, day } = await fresh();
    const name = readdirSync(day).find((f) => f.endsWith('c001.jsonl'))!;
    const text = readFileSync(join(day, name), 'utf8').split('\n');
    text[1] = text[1]!.replace('"type"', '"TYPE"');
    rmSync(join(day, name));
    writeFileSync(join(day, name.replace('.jsonl', '-copy.jsonl')), text.join('\n'));
    const r = await cli(['archive', root, '--store', store]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /BUNDLE_NOT_APPEND_ONLY .*-copy\.jsonl:2: .*of the same session at .*c001\.jsonl, which is gone/,
    );
    expect(codesOf(store).filter((c) => c.startsWith('error'))).toEqual([]);
  });

  test('the same session found in two places is a copy: neither is compared with the other', async () => {
    const { root, store, day } = await fresh();
    const copy = join(root, '2026', '03', '09');
    cpSync(day, copy, { recursive: true });
    const name = readdirSync(copy).find((f) => f.endsWith('c001.jsonl'))!;
    writeFileSync(join(copy, name), readFileSync(join(copy, name), 'utf8').replace('"type"', '"TYPE"'));
    const r = await cli(['archive', root, '--store', store]);
    expect([r.code, r.stderr]).toEqual([0, '']);
  });
});

describe('7. rewrites within one clock tick', () => {
  test('a stamp whose ctime falls in the tick of the read is not trusted (git racy rule)', () => {
    const at = Date.UTC(2026, 11, 1, 12, 0, 10);
    const stamp = (ns: bigint): string => `1:2:3:${ns}:${ns}`;
    const ms = (t: number): bigint => BigInt(t) * 1_000_000n;
    // A file system counting whole seconds: anything within two seconds of the read.
    expect(racyStamp(stamp(ms(at - 1000)), at)).toBe(true);
    expect(racyStamp(stamp(ms(at - 3000)), at)).toBe(false);
    // Nanosecond times: the kernel's coarse clock, a few milliseconds.
    expect(racyStamp(stamp(ms(at - 10) + 123n), at)).toBe(true);
    expect(racyStamp(stamp(ms(at - 1000) + 123n), at)).toBe(false);
  });

  test('a file written just before it is captured keeps no stamp: the next run reads it again', async () => {
    const { root, store, day } = await fresh();
    const file = join(day, readdirSync(day).find((f) => f.endsWith('c001.jsonl'))!);
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"type":"event_msg","payload":{}}\n`);
    // The capture reads it 10 ms after its change, whatever the machine's load (the wall clock is the only input).
    const changed = Number(statSync(file, { bigint: true }).ctimeNs / 1_000_000n);
    const clock = vi.spyOn(Date, 'now').mockReturnValue(changed + 10);
    const s = openStore(store, true);
    try {
      archive({
        store: s,
        roots: [{ arg: root, abs: root, sessions: discoverSessions(root, detectorsFor()) }],
        policy: (f) => (rel) => formatOf(f).changePolicy(rel),
      });
    } finally {
      clock.mockRestore();
    }
    const rec = readState(s).records.find((r) => r.session.display.endsWith('c001.jsonl') && r.seq > 4)!;
    expect(rec.files.find((f) => f.type === 'file')!.stamp).toBeUndefined();
  });
});

describe('8. bundle --from-store of a damaged store: one line, exit 2', () => {
  test.each(['missing', 'altered', 'fifo', 'symlink'])('a %s object', async (how) => {
    const { store } = await fresh();
    const rec = readState(store).records[0]!;
    const piece = rec.files.find((f) => f.type === 'file')!.pieces![0]!;
    const path = objectPath(store, piece);
    rmSync(path);
    if (how === 'altered') writeFileSync(path, 'not the bytes');
    if (how === 'fifo') spawnSync('mkfifo', [path]);
    if (how === 'symlink') symlinkSync('/etc/hostname', path);
    const r = await cli(['bundle', '--from-store', store, '--session', rec.session.id, '-o', join(work, `f${n}.zip`)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^session-audit: --store .*(cannot be read|does not rebuild).*run verify --store\n$/);
  });

  // An object its owner cannot read (mode 000): as root, where chmod does not stop reads, the store is the
  // unprivileged user's and the CLI runs as that user.
  const deny = denial();
  test.skipIf(!BUILT || !deny)('an unreadable object', () => {
    const base = mkdtempSync(join(tmpdir(), 'sa-attacks-object-'));
    try {
      chmodSync(base, 0o755);
      const root = join(base, 'sessions');
      cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), root, { recursive: true });
      spawnSync('chmod', ['-R', 'a+rX', root]);
      const store = storeDirFor(deny!, join(base, 'store'));
      const out = storeDirFor(deny!, join(base, 'out'));
      expect(runBuilt(['archive', root, '--store', store], asDenied(deny!)).code).toBe(0);
      const rec = readState(store).records[0]!;
      chmodSync(objectPath(store, rec.files.find((f) => f.type === 'file')!.pieces![0]!), 0);
      const args = ['bundle', '--from-store', store, '--session', rec.session.id, '-o', join(out, 'b.zip')];
      const r = runBuilt(args, asDenied(deny!));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/^session-audit: --store .*cannot be opened \(EACCES\).*run verify --store\n$/);
      expect(existsSync(join(out, 'b.zip'))).toBe(false);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('11. smaller', () => {
  test('a session archived through ../live exports', async () => {
    const base = join(work, 'climb');
    cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), join(base, 'live'), { recursive: true });
    mkdirSync(join(base, 'cwd'));
    const cwd = process.cwd();
    process.chdir(join(base, 'cwd'));
    try {
      expect((await cli(['archive', '../live', '--store', join(base, 'store')])).code).toBe(0);
    } finally {
      process.chdir(cwd);
    }
    const id = readState(join(base, 'store')).records[0]!.session.id;
    const r = await cli(['bundle', '--from-store', join(base, 'store'), '--session', id, '-o', join(base, 'b.zip')]);
    expect(r.code, r.stderr).toBe(0);
  });

  test.skipIf(!existsSync('/proc/self/stat'))(
    'a lock held by a zombie, or by a pid now another process, is taken over',
    async () => {
      const { root, store } = await fresh();
      // A child that exits while its parent never reaps it: a zombie with a pid that kill(pid, 0) still finds.
      const parent = spawn(
        'python3',
        ['-c', 'import os,time,sys\npid=os.fork()\nif pid==0: os._exit(0)\nprint(pid,flush=True)\ntime.sleep(20)'],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      const zombie = Number(await new Promise<string>((res) => parent.stdout!.once('data', (d) => res(String(d)))));
      try {
        await new Promise((r) => setTimeout(r, 100));
        expect(readFileSync(`/proc/${zombie}/stat`, 'latin1')).toMatch(/\) Z /);
        writeFileSync(join(store, 'lock'), `${zombie}\n2026-01-01T00:00:00.000Z\n`);
        expect((await cli(['archive', root, '--store', store])).code).toBe(0);
        // A live pid with another start time than the lock records: not the run that wrote it.
        writeFileSync(join(store, 'lock'), `${parent.pid}\n2026-01-01T00:00:00.000Z\n99999999999\n`);
        expect(processAlive(parent.pid!, '99999999999')).toBe(false);
        expect(processAlive(parent.pid!, '')).toBe(true);
        expect((await cli(['archive', root, '--store', store])).code).toBe(0);
      } finally {
        parent.kill('SIGKILL');
      }
      expect(processAlive(process.pid, selfStart())).toBe(true);
    },
  );

  test('private copies a killed run left are removed at the next start, a live run’s and others are not', () => {
    const dir = mkdtempSync(join(work, 'tmp-'));
    const dead = join(dir, 'session-audit-index-999999999.1-abcdef');
    const live = join(dir, `session-audit-db-${process.pid}.${selfStart() || '0'}-ghijkl`);
    const other = join(dir, 'unrelated-999999999.1-abcdef');
    for (const d of [dead, live, other]) mkdirSync(d, { mode: 0o700 });
    writeFileSync(join(dead, 'state.db'), 'evidence copy');
    expect(sweepStaleTemps(dir)).toBe(1);
    expect([existsSync(dead), existsSync(live), existsSync(other)]).toEqual([false, true, true]);
    const made = privateTempDir('from-store');
    expect(statSync(made).mode & 0o777).toBe(0o700);
    rmSync(made, { recursive: true });
  });
});
