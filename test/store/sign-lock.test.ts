/**
 * The store's signatures and lock, and a session written while it is captured: signed capture records verify with
 * the archivist's public key and fail with another; a live writer's lock stops a second run with one line, a dead
 * writer's lock is taken over, a lock still being written is waited for; a log appended to during the capture is
 * captured as one state of it, never half.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { runArchive, runStoreVerify } from '../../src/engine/archive.js';
import { lockStore, StoreBusy } from '../../src/store/lock.js';
import { openStore, readState } from '../../src/store/open.js';
import { readVersion } from '../../src/store/objects.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-store-sign-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const codes = (store: string, key?: string): string[] =>
  runStoreVerify(store, key).report.findings.map((f) => `${f.severity} ${f.code} ${f.location.file}`);

describe('signed capture records', () => {
  const pair = () => generateKeyPairSync('ed25519');
  const alice = pair();
  const mallory = pair();
  const write = (name: string, pem: string): string => {
    const p = join(work, name);
    writeFileSync(p, pem);
    return p;
  };
  const priv = write('alice.pem', alice.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
  const pub = write('alice.pub.pem', alice.publicKey.export({ format: 'pem', type: 'spki' }).toString());
  const other = write('mallory.pub.pem', mallory.publicKey.export({ format: 'pem', type: 'spki' }).toString());
  const store = join(work, 'signed');
  runArchive({ roots: [join(CORPORA, 'codex', 'clean')], store, signKey: priv, keyId: 'alice' });

  test('verify with the signer key: valid, every record checked', () => {
    expect(codes(store, pub)).toEqual([]);
    expect(runStoreVerify(store, pub).verification.signed).toBe(readState(store).seq);
  });

  test('verify with another key: every record named, and the signed head', () => {
    const found = codes(store, other);
    expect(found).toHaveLength(readState(store).seq + 1);
    expect(found.filter((c) => /^error BUNDLE_SIGNATURE_INVALID captures\//.test(c))).toHaveLength(
      readState(store).seq,
    );
    expect(found).toContain('error BUNDLE_SIGNATURE_INVALID head.json');
  });

  test('verify without a key: a warning that the signatures were not checked', () => {
    expect(codes(store)).toEqual(['warning BUNDLE_UNVERIFIED captures']);
  });

  test('an unsigned store verified with a key fails', () => {
    const plain = join(work, 'plain');
    runArchive({ roots: [join(CORPORA, 'codex', 'clean')], store: plain });
    expect(codes(plain, pub)).toEqual(['error BUNDLE_SIGNATURE_INVALID captures']);
  });
});

describe('the lock', () => {
  test('held by a live process: a second run stops with one line naming it', () => {
    const store = openStore(join(work, 'locked'), true);
    writeFileSync(join(store, 'lock'), `${process.ppid}\n2026-01-01T00:00:00.000Z\n`);
    expect(() => runArchive({ roots: [join(CORPORA, 'codex', 'clean')], store })).toThrow(
      new RegExp(`is in use by process ${process.ppid} \\(since 2026-01-01T00:00:00.000Z\\); nothing was archived`),
    );
    expect(readState(store).seq).toBe(0);
  });

  test('left by a process that is gone: taken over', () => {
    const store = openStore(join(work, 'stale'), true);
    writeFileSync(join(store, 'lock'), '999999999\n');
    expect(runArchive({ roots: [join(CORPORA, 'codex', 'clean')], store }).new).toBeGreaterThan(0);
  });

  test('being written by another run (created, its pid not yet in it): waited for, not taken over', async () => {
    const store = openStore(join(work, 'unwritten'), true);
    const lock = join(store, 'lock');
    // A run between its exclusive create and its write: the file is empty for 300 ms, then names the run.
    const writer = spawn(process.execPath, [
      '-e',
      `const fs=require('fs');const fd=fs.openSync(${JSON.stringify(lock)},'wx');` +
        `setTimeout(()=>{fs.writeSync(fd,process.pid+'\\n2026-01-01T00:00:00.000Z\\n');fs.closeSync(fd)},300);` +
        'setTimeout(()=>{},5000)',
    ]);
    try {
      while (!existsSync(lock)) await new Promise((r) => setTimeout(r, 5));
      expect(() => lockStore(store)).toThrow(new RegExp(`in use by process ${writer.pid} \\(since 2026-01-01`));
      expect(readFileSync(lock, 'utf8')).toBe(`${writer.pid}\n2026-01-01T00:00:00.000Z\n`);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  test('an empty lock that stays empty (a run killed as it wrote it): taken over after a wait', () => {
    const store = openStore(join(work, 'empty-lock'), true);
    writeFileSync(join(store, 'lock'), '');
    const release = lockStore(store);
    expect(readFileSync(join(store, 'lock'), 'utf8')).toMatch(new RegExp(`^${process.pid}\\n`));
    release();
    expect(existsSync(join(store, 'lock'))).toBe(false);
  });

  test('released by a run whose lock was taken over meanwhile: the new holder keeps it', () => {
    const store = openStore(join(work, 'released-late'), true);
    const release = lockStore(store);
    writeFileSync(join(store, 'lock'), `${process.ppid}\n2026-01-01T00:00:00.000Z\n`);
    release();
    expect(readFileSync(join(store, 'lock'), 'utf8')).toBe(`${process.ppid}\n2026-01-01T00:00:00.000Z\n`);
  });

  test('taken twice in one process: the second is refused', () => {
    const store = openStore(join(work, 'twice'), true);
    const release = lockStore(store);
    try {
      expect(() => lockStore(store)).toThrow(StoreBusy);
    } finally {
      release();
    }
  });
});

test('a log appended to during the capture is captured as one state of it (a prefix of the final file)', async () => {
  const root = join(work, 'busy');
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), root, { recursive: true });
  const log = join(root, '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001', 'updates.jsonl');
  // A writer appending a line every 15 ms, as an agent at work does, for the whole capture.
  const writer = spawn(process.execPath, [
    '-e',
    `const fs=require('fs');let i=0;setInterval(()=>fs.appendFileSync(${JSON.stringify(log)},` +
      `JSON.stringify({timestamp:1787150000+i++,pad:'x'.repeat(200)})+'\\n'),15)`,
  ]);
  const store = join(work, 'busy-store');
  try {
    await new Promise((r) => setTimeout(r, 200));
    // A loaded machine may see the log change during every read of a run (unstable, not captured): run until one
    // capture holds it, five at least.
    for (let run = 0; run < 40; run++) {
      const out = runArchive({ roots: [root], store });
      expect(out.unstable.length + out.new + out.changed + out.unchanged).toBeGreaterThan(0);
      const held = readState(openStore(store, false)).records.some((r) =>
        r.files.some((f) => f.path === 'updates.jsonl' && r.session.id.endsWith('a001')),
      );
      if (run >= 4 && held) break;
    }
  } finally {
    writer.kill('SIGKILL');
  }
  const final = readFileSync(log);
  const s = openStore(store, false);
  const versions = readState(s).records.flatMap((r) =>
    r.files.filter((f) => f.path === 'updates.jsonl' && r.session.id.endsWith('a001')),
  );
  expect(versions.length).toBeGreaterThan(0);
  for (const v of versions) {
    const bytes = readVersion(s, v.pieces!, 1 << 30)!;
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(v.sha256);
    expect(final.subarray(0, bytes.length).equals(bytes)).toBe(true);
    expect(bytes[bytes.length - 1]).toBe(10);
  }
  expect(runStoreVerify(store, undefined).report.findings).toEqual([]);
}, 60_000);

test('a session deleted between discovery and its capture is left for the next run, not recorded empty', async () => {
  const { discoverSessions } = await import('../../src/read/discover.js');
  const { detectorsFor, formatOf } = await import('../../src/formats/registry.js');
  const { archive } = await import('../../src/store/archive.js');
  const root = join(work, 'vanishing');
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), root, { recursive: true });
  const sessions = discoverSessions(root, detectorsFor());
  const gone = sessions.find((s) => s.id.endsWith('a002'))!;
  rmSync(gone.abs, { recursive: true });
  const store = openStore(join(work, 'vanishing-store'), true);
  const out = archive({
    store,
    roots: [{ arg: root, abs: root, sessions }],
    policy: (f) => (rel) => formatOf(f).changePolicy(rel),
  });
  expect(out.unstable.map((u) => u.display)).toEqual([gone.display]);
  expect(out.unstable[0]!.why).toMatch(/cannot be read now/);
  expect(readState(store).records.some((r) => r.session.id === gone.id)).toBe(false);
});
