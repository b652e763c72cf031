/**
 * The Library of Congress's bagit-python (vendored in ../shared/tools/bagit-python) validates every kind of bag
 * `bundle` makes: every archive form unpacked and the directory form; Grok, Codex and Claude sessions; redacted
 * and signed; and a bag with no payload file. Payload names need no percent-encoding, and `verify --against`
 * maps them back to the live files. Skipped only where python3 is missing.
 */
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildBag } from '../src/bundle/build.js';
import { parseManifest } from '../src/bundle/bagit.js';
import { entryDate, writeBag } from '../src/bundle/write.js';
import type { AuditReport } from '../src/model/report.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';
import { bagitPython, bagitPythonPresent, filesUnder, unpack } from './helpers/bags.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-bagit-python-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;

const key = generateKeyPairSync('ed25519');
const keyFile = join(scratch, 'key.pem');
writeFileSync(keyFile, key.privateKey.export({ type: 'pkcs8', format: 'pem' }));

async function bagOf(input: string, form: string, extra: string[] = []): Promise<string> {
  const out = join(scratch, `${n++}${form === 'dir' ? '-bag' : `.${form}`}`);
  const r = await cli(['bundle', input, '-o', out, ...extra]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return unpack(out, join(scratch, `${n++}-unpacked`));
}

describe.skipIf(!bagitPythonPresent)('bagit-python validates every bag bundle makes', () => {
  const inputs = [
    ['Grok', join(CORPORA, 'grok', 'clean')],
    ['Codex', join(CORPORA, 'codex', 'clean')],
    ['Claude', join(CORPORA, 'claude', 'clean')],
  ] as const;
  // Every agent in every form; redacted and signed: every form for Grok, one archive form for the others (the
  // tag files a signature and redaction change are the same whatever the agent).
  const cases = inputs.flatMap(([agent, dir]) =>
    ['zip', 'tar', 'tgz', 'dir'].flatMap((form) => [
      [`${agent}, ${form}`, dir, form, [] as string[]] as const,
      ...(agent === 'Grok' || form === 'tgz'
        ? [[`${agent}, ${form}, redacted and signed`, dir, form, ['--redact', '--sign-key', keyFile]] as const]
        : []),
    ]),
  );
  test.each(cases)('%s', async (_name, input, form, extra) => {
    const dir = await bagOf(input, form, [...extra]);
    const v = bagitPython(dir);
    expect(v.output).toMatch(/is valid/);
    expect(v.ok).toBe(true);
  });

  test('payload names need no percent-encoding (Grok cwd folders hold %2F)', async () => {
    const dir = await bagOf(join(CORPORA, 'grok', 'clean'), 'dir');
    const payload = filesUnder(dir).filter((f) => f.startsWith('data/'));
    expect(payload.length).toBeGreaterThan(0);
    for (const f of payload) expect(f).toMatch(/^data\/grok\/[A-Za-z0-9._+=@,-]+(\/[A-Za-z0-9._+=@,-]+)+$/);
    for (const e of parseManifest(readFileSync(join(dir, 'manifest-sha256.txt'), 'utf8')).entries)
      expect(e.path).not.toMatch(/%/);
  });

  test('a bag with no payload file has an empty data/ and validates, in every form', async () => {
    for (const form of ['zip', 'tar', 'tgz', 'dir'] as const) {
      const bag = buildBag({ sources: [], sessions: [], baggingDate: '2026-01-01', tagFiles: new Map() });
      const out = join(scratch, `${n++}${form === 'dir' ? '-empty' : `-empty.${form}`}`);
      await writeBag(bag.entries, out, form, entryDate('2026-01-01'));
      const dir = unpack(out, join(scratch, `${n++}-unpacked`));
      expect(filesUnder(dir).filter((f) => f.startsWith('data/'))).toEqual([]);
      const v = bagitPython(dir);
      expect(v.output).toMatch(/is valid/);
      expect(v.ok).toBe(true);
    }
  });
});

describe('original paths', () => {
  test('a name that needs encoding is bagged under a safe name, recorded, and mapped back by --against', async () => {
    const src = join(scratch, 'odd-names');
    cpSync(join(CORPORA, 'grok', 'clean'), src, { recursive: true });
    const session = join(src, 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2e-0f10-7c42-8000-00000000a003');
    writeFileSync(join(session, 'notes 100%.txt'), 'kept\n');
    const out = join(scratch, 'odd.zip');
    expect((await cli(['bundle', session, '-o', out])).code).toBe(0);
    const dir = unpack(out, join(scratch, 'odd-unpacked'));
    const bagPath = 'data/grok/019a3f2e-0f10-7c42-8000-00000000a003/notes_100_.txt';
    expect(readFileSync(join(dir, bagPath), 'utf8')).toBe('kept\n');
    const inventory = JSON.parse(readFileSync(join(dir, 'inventory.json'), 'utf8')) as {
      files: Array<{ path: string; bagPath: string }>;
    };
    expect(inventory.files.find((f) => f.bagPath === bagPath)?.path).toBe('notes 100%.txt');
    const custody = JSON.parse(readFileSync(join(dir, 'custody.intoto.json'), 'utf8')) as {
      predicate: { files: Array<{ path: string; originalPath: string }>; sessions: Array<{ group: string }> };
    };
    expect(custody.predicate.files.find((f) => f.path === bagPath)?.originalPath).toBe('notes 100%.txt');
    expect(custody.predicate.sessions[0]!.group).toBe('%2Fhome%2Fdev%2Fproj');
    if (bagitPythonPresent) expect(bagitPython(dir).ok).toBe(true);
    const same = await cli(['verify', out, '--against', session, '--format', 'json']);
    expect((JSON.parse(same.stdout) as AuditReport).findings).toEqual([]);
    writeFileSync(join(session, 'notes 100%.txt'), 'changed\n');
    const changed = await cli(['verify', out, '--against', session, '--format', 'json']);
    expect((JSON.parse(changed.stdout) as AuditReport).findings.map((f) => [f.code, f.location.file])).toEqual([
      ['BUNDLE_FILE_CHANGED', 'notes 100%.txt'],
    ]);
  });
});
