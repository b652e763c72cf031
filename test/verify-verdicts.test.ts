/**
 * What `verify` says it proved (issue 29.1): an unsigned bag is intact since it was made, not proof of who made it
 * (a bag whose payload was edited and whose manifests and custody statement were recomputed says the same); a
 * signed bag checked with its key names the key id and the key's fingerprint; `--against` with an unsigned bag
 * says where the two differ, never which side changed, and names the live side only when the signature verified;
 * `verify --store` names every rewrite, deletion and acknowledged gap the chain recorded and how many records are
 * signed, without the file count of a bag. Each verdict is in the JSON report too.
 */
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runArchive } from '../src/engine/archive.js';
import type { AuditReport } from '../src/model/report.js';
import { capturePath } from '../src/store/layout.js';
import { cli } from './helpers/cli.js';
import { rebuildTagManifests } from './helpers/bags.js';

const CORPORA = join(import.meta.dirname, '..', 'corpora');
const BUNDLES = join(CORPORA, 'bundles');
const work = mkdtempSync(join(tmpdir(), 'sa-verdicts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const A003 = '019a3f2e-0f10-7c42-8000-00000000a003';
const GROK_SESSION = join(CORPORA, 'grok', 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', A003);

function keys(name: string): { priv: string; pub: string; fingerprint: string } {
  const pair = generateKeyPairSync('ed25519');
  const priv = join(work, `${name}.pem`);
  const pub = join(work, `${name}.pub.pem`);
  writeFileSync(priv, pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
  writeFileSync(pub, pair.publicKey.export({ format: 'pem', type: 'spki' }).toString());
  return { priv, pub, fingerprint: fingerprintOf(pair.publicKey) };
}

/** What `openssl pkey -pubin -in key.pub.pem -outform DER | sha256sum` prints. */
const fingerprintOf = (k: KeyObject): string =>
  `sha256:${createHash('sha256')
    .update(k.export({ format: 'der', type: 'spki' }))
    .digest('hex')}`;

const sha = (alg: string, b: Buffer): string => createHash(alg).update(b).digest('hex');

async function verifyJson(args: string[]): Promise<AuditReport> {
  const r = await cli(['verify', ...args, '--format', 'json']);
  return JSON.parse(r.stdout) as AuditReport;
}

/** The bag line of `verify`'s table. */
const bagLine = (stdout: string): string => stdout.split('\n').find((l) => l.startsWith('Bag '))!;

describe('a bag', () => {
  test('unsigned: consistent, intact since it was made, not who made it; never a bare "valid"', async () => {
    const bag = join(BUNDLES, 'valid', 'bag');
    const r = await cli(['verify', bag]);
    expect(r.code).toBe(0);
    expect(bagLine(r.stdout)).toMatch(
      /: consistent; unsigned: this shows the bag is intact since it was made, not who made it \(anyone can /,
    );
    expect(r.stdout).not.toMatch(/: valid\./);
    const v = (await verifyJson([bag])).verdict!;
    expect(v).toMatchObject({
      subject: 'bag',
      status: 'consistent',
      proven: 'intact',
      errors: 0,
      signature: { present: false, verified: false },
    });
    expect(v.text).toMatch(/^consistent; unsigned: /);
  });

  test('unsigned, its payload edited, its manifests and custody statement recomputed: the same verdict', async () => {
    const bag = join(work, 'forged');
    cpSync(join(BUNDLES, 'valid', 'bag'), bag, { recursive: true });
    const m256 = readFileSync(join(bag, 'manifest-sha256.txt'), 'utf8');
    const victim = /^[0-9a-f]{64} {2}(data\/\S+updates\.jsonl)$/m.exec(m256)![1]!;
    const bytes = readFileSync(join(bag, victim));
    bytes[bytes.indexOf('"')] = "'".charCodeAt(0); // same size: Payload-Oxum still holds
    writeFileSync(join(bag, victim), bytes);
    for (const alg of ['sha256', 'sha512']) {
      const name = `manifest-${alg}.txt`;
      const text = readFileSync(join(bag, name), 'utf8').replace(
        new RegExp(`^[0-9a-f]+( {2}${victim.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})$`, 'm'),
        `${sha(alg, bytes)}$1`,
      );
      writeFileSync(join(bag, name), text);
    }
    const custody = JSON.parse(readFileSync(join(bag, 'custody.intoto.json'), 'utf8')) as {
      subject: Array<{ name: string; digest: Record<string, string> }>;
    };
    for (const s of custody.subject)
      if (s.name.startsWith('manifest-')) {
        const b = readFileSync(join(bag, s.name));
        s.digest = { sha256: sha('sha256', b), sha512: sha('sha512', b) };
      }
    writeFileSync(join(bag, 'custody.intoto.json'), `${JSON.stringify(custody, null, 2)}\n`);
    rebuildTagManifests(bag);
    const r = await cli(['verify', bag]);
    expect(r.code, r.stdout).toBe(0);
    // Nothing in an unsigned bag tells this one from the original: the verdict says only what it can prove.
    expect(bagLine(r.stdout)).toMatch(/: consistent; unsigned: this shows the bag is intact since it was made, not /);
    expect((await verifyJson([bag])).verdict!.proven).toBe('intact');
  });

  test('signed and checked with its key: signed by the key id (the fingerprint), signature verified', async () => {
    const k = keys('alice');
    const bag = join(work, 'signed-bag');
    expect((await cli(['bundle', GROK_SESSION, '-o', bag, '--sign-key', k.priv, '--key-id', 'alice'])).code).toBe(0);
    const r = await cli(['verify', bag, '--key', k.pub]);
    expect(r.code, r.stdout).toBe(0);
    expect(bagLine(r.stdout)).toContain(`: consistent; signed by alice (${k.fingerprint}), signature verified`);
    const v = (await verifyJson([bag, '--key', k.pub])).verdict!;
    expect(v).toMatchObject({
      proven: 'signed',
      signature: { present: true, verified: true, keyId: 'alice', fingerprint: k.fingerprint },
    });
    // Without the key: the signature is there, not checked, and nothing is said of who made the bag.
    const unchecked = await cli(['verify', bag]);
    expect(bagLine(unchecked.stdout)).toMatch(
      /consistent, with 1 warning \(above\); signed, but the signature was not /,
    );
    expect(bagLine(unchecked.stdout)).not.toContain('alice');
    // With another key: invalid, nothing proven.
    const other = keys('mallory');
    const wrong = await verifyJson([bag, '--key', other.pub]);
    expect(wrong.verdict).toMatchObject({ status: 'invalid', proven: 'nothing' });
    expect(wrong.verdict!.text).toMatch(/^INVALID: 1 error \(above\); nothing is proven/);
  });
});

describe('verify --against', () => {
  test('an unsigned bag: where the bag and the live session differ, not which side changed', async () => {
    const c = join(BUNDLES, 'against-rewritten');
    const r = await cli(['verify', join(c, 'bag'), '--against', join(c, 'live')]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/CHANGED since/);
    expect(r.stdout).toMatch(
      /Live session under .*: the bag and the live session differ at updates\.jsonl:2 \(1 error, above\); the bag is /,
    );
    const v = (await verifyJson([join(c, 'bag'), '--against', join(c, 'live')])).verdict!;
    expect(v.live).toMatchObject({ status: 'differs', changed: 'unknown', errors: 1, places: ['updates.jsonl:2'] });
  });

  test('a signed bag whose signature verified: the live session is named as the side that changed', async () => {
    const k = keys('archivist');
    const live = join(work, 'live', A003);
    cpSync(GROK_SESSION, live, { recursive: true });
    const bag = join(work, 'signed-capture');
    expect((await cli(['bundle', live, '-o', bag, '--sign-key', k.priv, '--key-id', 'archivist'])).code).toBe(0);
    const log = join(live, 'updates.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"', "'");
    writeFileSync(log, lines.join('\n'));
    const r = await cli(['verify', bag, '--key', k.pub, '--against', live]);
    expect(r.code).toBe(1);
    expect(bagLine(r.stdout)).toContain('signed by archivist');
    expect(r.stdout).toMatch(
      /Live session under .*: CHANGED since the capture, not only by appends: 1 error \(above\), at updates\.jsonl:2/,
    );
    const v = (await verifyJson([bag, '--key', k.pub, '--against', live])).verdict!;
    expect(v.live).toMatchObject({ status: 'differs', changed: 'live' });
    // The same bag without its key: the signature is not checked, so the live side is not blamed.
    const unchecked = await cli(['verify', bag, '--against', live]);
    expect(unchecked.stdout).toMatch(/differ at updates\.jsonl:2 .*the bag's signature was not checked \(no --key\)/);
  });
});

describe('verify --store', () => {
  /** A Codex tree whose store recorded an acknowledged gap, a rewrite and a deletion. */
  function eventfulStore(name: string, signKey?: string): { store: string; root: string } {
    const root = join(work, `${name}-src`);
    cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), root, { recursive: true });
    const store = join(work, name);
    const sign = signKey !== undefined ? { signKey, keyId: 'archivist' } : {};
    const first = runArchive({ roots: [root], store, ...sign });
    rmSync(capturePath(store, first.records));
    runArchive({ roots: [root], store, acknowledgeGap: 'record lost in the restore', ...sign });
    const c001 = join(root, '2026/03/02/rollout-2026-03-02T09-00-00-019cb100-0000-7000-8000-00000000c001.jsonl');
    const lines = readFileSync(c001, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"', "'");
    writeFileSync(c001, lines.join('\n'));
    rmSync(join(root, '2026/03/02/rollout-2026-03-02T10-00-00-019cb100-0000-7000-8000-00000000c002.jsonl'));
    runArchive({ roots: [root], store, ...sign });
    return { store, root };
  }

  test('names every recorded rewrite, deletion and gap, and how many records are signed', async () => {
    const { store } = eventfulStore('store');
    const r = await cli(['verify', '--store', store]);
    expect(r.code, r.stdout).toBe(0);
    // The table of findings (the gap's warning) is not followed by a count of "files" a store does not have.
    expect(r.stdout).toMatch(/warning\s+STORE_GAP/);
    expect(r.stdout).not.toMatch(/Verified \d+ files?/);
    expect(r.stdout).toMatch(
      /Store .*: \d+ capture records \(0 signed\) of .*: consistent, with 1 warning \(above\); /,
    );
    expect(r.stdout).toMatch(/unsigned \(0 signed\): the chain shows the records are as archive wrote them/);
    expect(r.stdout).toMatch(
      /\n {2}rewrite recorded by capture \d+: .*rollout-2026-03-02T09-00-00-019cb100-0000-7000-8000-0+c001\.jsonl:2: /,
    );
    expect(r.stdout).toMatch(/\n {2}deletion recorded by capture \d+: .*019cb100-0000-7000-8000-00000000c002\.jsonl\n/);
    expect(r.stdout).toMatch(/\n {2}gap acknowledged by record 5 \(capture numbers 4-4 .*"record lost in the restore"/);
    const v = (await verifyJson(['--store', store])).verdict!;
    expect(v).toMatchObject({ subject: 'store', status: 'consistent', proven: 'intact', warnings: 1 });
    expect(v.store!.signed).toBe(0);
    expect(v.store!.rewrites).toEqual([
      expect.objectContaining({ file: expect.stringMatching(/c001\.jsonl$/), line: 2 }),
    ]);
    expect(v.store!.deletions).toHaveLength(1);
    expect(v.store!.gaps).toEqual([
      expect.objectContaining({ seq: 5, lost: { from: 4, to: 4 }, reason: 'record lost in the restore' }),
    ]);
  });

  test('a signed store checked with its key: every record signed by the key id (fingerprint), verified', async () => {
    const k = keys('store-signer');
    const { store } = eventfulStore('signed-store', k.priv);
    const r = await cli(['verify', '--store', store, '--key', k.pub]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `: consistent, with 1 warning \\(above\\); every record \\(\\d+\\) signed by archivist \\(${k.fingerprint}\\)`,
      ),
    );
    const v = (await verifyJson(['--store', store, '--key', k.pub])).verdict!;
    expect(v).toMatchObject({ proven: 'signed', signature: { verified: true, keyId: 'archivist' } });
    expect(v.store!.signed).toBe(v.store!.records);
    // Without the key: signed records counted, nothing said of who wrote them.
    const unchecked = (await verifyJson(['--store', store])).verdict!;
    expect(unchecked.proven).toBe('intact');
    expect(unchecked.text).toMatch(/records signed, but the signatures were not checked \(no --key\)/);
  });
});
