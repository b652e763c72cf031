/**
 * A signed bag's statement pins every tag file: forging the analysis (audit report, timelines, inventory,
 * bag-info) and rebuilding the tag manifests fails `verify --key`, naming the forged file; an unsigned statement
 * placed beside the signed one is reported.
 */
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../src/model/report.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';
import { filesUnder, rebuildTagManifests } from './helpers/bags.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-signed-tags-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const signedBag = join(scratch, 'signed');
const pub = join(scratch, 'a.pub');
let n = 0;

beforeAll(async () => {
  const a = generateKeyPairSync('ed25519');
  writeFileSync(join(scratch, 'a.pem'), a.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(pub, a.publicKey.export({ type: 'spki', format: 'pem' }));
  const r = await cli([
    'bundle',
    join(CORPORA, 'grok', 'clean'),
    '-o',
    signedBag,
    '--sign-key',
    join(scratch, 'a.pem'),
  ]);
  expect(r.code).toBe(0);
});

async function verifyForged(forge: (dir: string) => void): Promise<AuditReport['findings']> {
  const dir = join(scratch, `forged-${n++}`);
  cpSync(signedBag, dir, { recursive: true });
  forge(dir);
  rebuildTagManifests(dir);
  const r = await cli(['verify', dir, '--key', pub, '--format', 'json']);
  expect(r.code).toBe(1);
  return (JSON.parse(r.stdout) as AuditReport).findings;
}

describe('the signature covers every tag file', () => {
  test('the untouched signed bag verifies with its key', async () => {
    const r = await cli(['verify', signedBag, '--key', pub, '--format', 'json']);
    expect((JSON.parse(r.stdout) as AuditReport).findings).toEqual([]);
    expect(r.code).toBe(0);
  });

  const tagFiles = (): string[] =>
    filesUnder(signedBag).filter(
      (f) => !f.startsWith('data/') && !f.startsWith('tagmanifest-') && f !== 'custody.dsse.json',
    );

  test('the bag has the tag files this suite forges', () => {
    const tags = tagFiles();
    for (const t of ['audit-report.json', 'bag-info.txt', 'inventory.json', 'bagit.txt', 'manifest-sha256.txt'])
      expect(tags).toContain(t);
    expect(tags.some((t) => t.startsWith('timelines/'))).toBe(true);
  });

  test.each([
    ['audit-report.json', (s: string) => s.replace(/"version": "[^"]*"/, '"version": "0.0.0-forged"')],
    ['inventory.json', (s: string) => s.replace(/"size": \d+/, '"size": 1')],
    ['bag-info.txt', (s: string) => s.replace(/Bagging-Date: .*/, 'Bagging-Date: 1999-01-01')],
    ['timeline', (s: string) => s.split('\n').slice(1).join('\n')],
  ])('forging %s and rebuilding the tag manifests fails verify --key, naming the file', async (which, edit) => {
    const target = which === 'timeline' ? tagFiles().find((t) => t.startsWith('timelines/'))! : which;
    const findings = await verifyForged((dir) => {
      const p = join(dir, target);
      const before = readFileSync(p, 'utf8');
      const after = edit(before);
      expect(after).not.toBe(before);
      writeFileSync(p, after);
    });
    const named = findings.filter((f) => f.location.file === target);
    expect(named.map((f) => f.code)).toEqual(['BUNDLE_MANIFEST_MISMATCH']);
    expect(named[0]!.message).toMatch(/changed after custody was signed/);
  });

  test('a tag file added after signing is named as not covered by the signature', async () => {
    const findings = await verifyForged((dir) => writeFileSync(join(dir, 'notes.txt'), 'all clear\n'));
    expect(findings.map((f) => [f.code, f.location.file])).toEqual([['BUNDLE_FILE_EXTRA', 'notes.txt']]);
    expect(findings[0]!.message).toMatch(/not covered by the signature/);
  });

  test('an unsigned custody.intoto.json beside the signed one is reported, not trusted', async () => {
    const findings = await verifyForged((dir) => writeFileSync(join(dir, 'custody.intoto.json'), '{}\n'));
    expect(findings.map((f) => [f.code, f.location.file])).toEqual([['BUNDLE_FILE_EXTRA', 'custody.intoto.json']]);
  });
});
