/**
 * Evidence bags: `bundle` then `verify` round-trips on every corpora session in every archive form; tampering is
 * caught with the right code; the archive is reproducible across runs, time zones and input order; symlinks are
 * never archived as content; redaction keeps every JSON line parseable and the originals provable; DSSE matches
 * the published test vector.
 */
import { execFileSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
  existsSync,
  cpSync,
  mkdirSync,
  appendFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { rmSync } from 'node:fs';
import { pae, privateKeyFromSeed, publicKeyFromRaw, signEnvelope, verifyEnvelope } from '../src/bundle/dsse.js';
import { redactJsonLine, redactor } from '../src/bundle/redact.js';
import { encodePath, decodePath, parseManifest, unsafePath } from '../src/bundle/bagit.js';
import { firstDifference } from '../src/bundle/first-difference.js';
import { formatNamed } from '../src/formats/registry.js';

const changePolicy = (rel: string) => formatNamed('grok')!.changePolicy(rel);
import type { AuditReport } from '../src/model/report.js';
import { cli } from './helpers/cli.js';
import { CORPORA, corpusCases } from './helpers/corpora.js';
import { treeState, diffStates } from './helpers/tree-hash.js';
import { isBuilt } from './helpers/built.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const tmp = (name: string): string => join(scratch, `${n++}-${name}`);
const sha256 = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');
const bin = fileURLToPath(new URL('../bin/session-audit.js', import.meta.url));
const built = isBuilt('src/cli/main.js');

async function verifyJson(
  bag: string,
  ...args: string[]
): Promise<{ report: AuditReport; code: number; stderr: string; stdout: string }> {
  const r = await cli(['verify', bag, '--format', 'json', ...args]);
  return { report: JSON.parse(r.stdout) as AuditReport, code: r.code, stderr: r.stderr, stdout: r.stdout };
}
const codesOf = (r: AuditReport): string[] => [...new Set(r.findings.map((f) => f.code))].sort();

const grokCases = corpusCases().filter((c) => c.format === 'grok' && !c.expected.setup);

describe('round trip on every corpora case', () => {
  test.each(grokCases.map((c) => [c.name, c.dir] as const))('%s', async (_name, dir) => {
    const before = treeState(dir);
    const out = tmp('rt.zip');
    const b = await cli(['bundle', dir, '-o', out]);
    expect(b.stderr).toBe('');
    expect(b.code).toBe(0);
    const v = await verifyJson(out);
    expect(v.report.findings).toEqual([]);
    expect(v.code).toBe(0);
    // Every regular file of every session is in the payload, byte for byte.
    const audit = JSON.parse(
      (await cli(['audit', dir, '--format', 'json', '--fail-on', 'never'])).stdout,
    ) as AuditReport;
    const inBag = new Map(
      v.report.sessions.find((s) => s.format.startsWith('bagit'))!.files.map((f) => [f.path, f.sha256]),
    );
    const payloadDigests = [...inBag]
      .filter(([p]) => p.startsWith('data/'))
      .map(([, d]) => d)
      .sort();
    const sessionDigests = audit.sessions
      .flatMap((s) => s.files.filter((f) => f.type === 'file' && f.sha256 && !f.readError).map((f) => f.sha256!))
      .sort();
    expect(payloadDigests).toEqual(sessionDigests);
    expect(diffStates(before, treeState(dir))).toEqual([]);
  });
});

test.each(['dir', 'zip', 'tar', 'tar.gz', 'tgz'])('every archive form verifies: %s', async (form) => {
  const out = tmp(form === 'dir' ? 'bag' : `bag.${form}`);
  expect((await cli(['bundle', join(CORPORA, 'grok', 'clean'), '-o', out])).code).toBe(0);
  const v = await verifyJson(out);
  expect(v.report.findings).toEqual([]);
  expect(v.report.sessions[0]!.format).toBe(
    `bagit (${form === 'dir' ? 'dir' : form === 'zip' ? 'zip' : form === 'tar' ? 'tar' : 'tgz'})`,
  );
});

describe('tampering fails verify with the right code', () => {
  const make = async (): Promise<string> => {
    const out = tmp('bag');
    await cli(['bundle', join(CORPORA, 'grok', 'clean'), '-o', out]);
    return out;
  };
  const payloadFile = (bag: string, name: string): string => {
    const group = readdirSync(join(bag, 'data'))[0]!;
    const id = readdirSync(join(bag, 'data', group)).sort()[0]!;
    return join(bag, 'data', group, id, name);
  };
  test('one flipped byte', async () => {
    const bag = await make();
    const f = payloadFile(bag, 'chat_history.jsonl');
    const b = readFileSync(f);
    b[b.length - 2] = b[b.length - 2]! ^ 0x20;
    writeFileSync(f, b);
    const v = await verifyJson(bag);
    expect(codesOf(v.report)).toEqual(['BUNDLE_MANIFEST_MISMATCH']);
    expect(v.report.findings[0]!.location.file).toMatch(/chat_history\.jsonl$/);
    expect(v.code).toBe(1);
  });
  test('a deleted file', async () => {
    const bag = await make();
    rmSync(payloadFile(bag, 'plan.json'));
    const v = await verifyJson(bag);
    expect(codesOf(v.report)).toEqual(['BUNDLE_FILE_MISSING', 'BUNDLE_INVALID']);
    expect(v.code).toBe(1);
  });
  test('an added file', async () => {
    const bag = await make();
    writeFileSync(payloadFile(bag, 'extra.jsonl'), '{}\n');
    const v = await verifyJson(bag);
    expect(codesOf(v.report)).toEqual(['BUNDLE_FILE_EXTRA', 'BUNDLE_INVALID']);
  });
  test('an edited manifest', async () => {
    const bag = await make();
    const m = join(bag, 'manifest-sha512.txt');
    writeFileSync(
      m,
      readFileSync(m, 'utf8').replace(/^[0-9a-f]/, (c) => (c === '0' ? '1' : '0')),
    );
    const v = await verifyJson(bag);
    expect(codesOf(v.report)).toEqual(['BUNDLE_MANIFEST_MISMATCH']);
    const files = v.report.findings.map((f) => f.location.file).sort();
    expect(files[0]).toMatch(/^data\//);
    expect(files).toContain('manifest-sha512.txt');
  });
  test('a removed manifest line', async () => {
    const bag = await make();
    const m = join(bag, 'manifest-sha256.txt');
    writeFileSync(m, readFileSync(m, 'utf8').split('\n').slice(1).join('\n'));
    const v = await verifyJson(bag);
    expect(codesOf(v.report)).toEqual(['BUNDLE_FILE_EXTRA', 'BUNDLE_MANIFEST_MISMATCH']);
  });
  test('a corrupt zip member is reported and the other members still verified, without extracting', async () => {
    const out = tmp('bag.zip');
    await cli(['bundle', join(CORPORA, 'grok', 'clean'), '-o', out]);
    expect((await verifyJson(out)).report.findings).toEqual([]);
    // Damage the compressed data of the first payload member (its local header name is followed by the data).
    const bytes = readFileSync(out);
    const name = 'data/grok/019a3f2c-1d00-7a3e-8000-00000000a001/chat_history.jsonl';
    const at = bytes.indexOf(Buffer.from(name)) + name.length + 20;
    for (let k = 0; k < 16; k++) bytes[at + k] = 0xff;
    const bad = tmp('corrupt.zip');
    writeFileSync(bad, bytes);
    const v = await verifyJson(bad);
    expect(v.code).toBe(1);
    const damaged = v.report.findings.filter((f) => f.location.file === name);
    expect(damaged.map((f) => f.code)).toEqual(['BUNDLE_INVALID']);
    expect(v.report.findings.every((f) => f.location.file === name || f.code === 'BUNDLE_INVALID')).toBe(true);
  });
  test('a truncated tar is reported as truncated', async () => {
    const out = tmp('bag.tar');
    await cli(['bundle', join(CORPORA, 'grok', 'clean'), '-o', out]);
    const bytes = readFileSync(out);
    const cut = tmp('cut.tar');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const v = await verifyJson(cut);
    expect(v.code).toBe(1);
    expect(v.report.findings.some((f) => f.code === 'BUNDLE_INVALID' && /truncated/.test(f.message))).toBe(true);
  });
});

describe('reproducible', () => {
  test.skipIf(!built)('same sha256 across runs, time zones and input order (separate processes)', () => {
    const a = join(CORPORA, 'grok', 'clean');
    const b = join(CORPORA, 'grok', 'tool-interrupted-call');
    const run = (tz: string, paths: string[], form: string): string => {
      const out = tmp(`repro.${form}`);
      execFileSync(process.execPath, [bin, 'bundle', ...paths, '-o', out], {
        env: { ...process.env, TZ: tz, SOURCE_DATE_EPOCH: '' },
      });
      return sha256(out);
    };
    for (const form of ['zip', 'tar.gz', 'tar']) {
      const first = run('UTC', [a, b], form);
      expect(run('Asia/Kolkata', [b, a], form), form).toBe(first);
      expect(run('America/St_Johns', [a, b], form), form).toBe(first);
    }
  });
  test('the bag identity (manifests) does not depend on the archive form', async () => {
    const ids = new Set<string>();
    for (const form of ['bag', 'bag.zip', 'bag.tgz']) {
      const r = await cli(['bundle', join(CORPORA, 'grok', 'clean'), '-o', tmp(form)]);
      ids.add(/manifest-sha256\.txt sha256: ([0-9a-f]{64})/.exec(r.stdout)![1]!);
    }
    expect(ids.size).toBe(1);
  });
});

describe('symlinks and special files', () => {
  test('a symlink to a file outside the session is inventoried, never archived as content', async () => {
    const out = tmp('bag');
    const r = await cli(['bundle', join(CORPORA, 'grok', 'session-symlink'), '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/not archived: .*exfil\.jsonl: a symlink/);
    const all = [...treeState(out, { meta: false }).keys()];
    expect(all.some((p) => p.endsWith('exfil.jsonl'))).toBe(false);
    expect(all.some((p) => /\/plan\.json$/.test(p) && p.includes('a001/'))).toBe(false);
    // No byte of the link targets is in the bag.
    for (const p of all) {
      const abs = join(out, p);
      if (treeState(out, { meta: false }).get(p)?.startsWith('dir')) continue;
      expect(readFileSync(abs).includes(Buffer.from('root:x:0:0'))).toBe(false);
    }
    const inventory = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as {
      files: Array<{ path: string; type: string; archived: boolean; linkTarget?: string }>;
    };
    const link = inventory.files.find((f) => f.path === 'exfil.jsonl')!;
    expect(link).toMatchObject({ type: 'symlink', archived: false, linkTarget: '../../../../../../etc/passwd' });
    const custody = JSON.parse(readFileSync(join(out, 'custody.intoto.json'), 'utf8')) as {
      predicate: { notArchived: Array<{ bagPath: string }> };
    };
    expect(custody.predicate.notArchived.some((x) => x.bagPath.endsWith('exfil.jsonl'))).toBe(true);
    expect((await verifyJson(out)).report.findings).toEqual([]);
  });
  test('a FIFO in a session is recorded and not opened', async () => {
    const src = tmp('fifo-src');
    cpSync(join(CORPORA, 'grok', 'clean'), src, { recursive: true });
    const sdir = join(src, 'sessions', readdirSync(join(src, 'sessions'))[0]!);
    const id = readdirSync(sdir).find((x) => x.startsWith('019'))!;
    execFileSync('mkfifo', [join(sdir, id, 'events.jsonl')]);
    const out = tmp('bag');
    const r = await cli(['bundle', join(sdir, id), '-o', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/not archived: .*events\.jsonl: a fifo/);
    expect((await verifyJson(out)).report.findings).toEqual([]);
  });
});

describe('output safety and errors', () => {
  test('refuses to write inside the input and to overwrite without --force', async () => {
    const src = tmp('src');
    cpSync(join(CORPORA, 'grok', 'clean'), src, { recursive: true });
    const r1 = await cli(['bundle', src, '-o', join(src, 'bag.zip')]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/refusing to write inside the input/);
    const out = tmp('bag.zip');
    expect((await cli(['bundle', src, '-o', out])).code).toBe(0);
    const r2 = await cli(['bundle', src, '-o', out]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/already exists/);
    expect((await cli(['bundle', src, '-o', out, '--force'])).code).toBe(0);
  });
  test('one-line errors for bad options and missing bags', async () => {
    const clean = join(CORPORA, 'grok', 'clean');
    for (const [args, msg] of [
      [['bundle', clean, '-o', tmp('x.zip'), '--redact-pattern', '('], /not a valid regular expression/],
      [['bundle', clean, '-o', tmp('x.zip'), '--redact', '--redact-pattern', 'a*'], /matches the empty string/],
      [
        ['bundle', clean, '-o', tmp('x.zip'), '--redact', '--redact-pattern', '(?<=k)ey'],
        /for the linear-time engine \(RE2 syntax, no backreferences or lookaround\)/,
      ],
      [['bundle', clean, '-o', tmp('x.zip'), '--bagging-date', '2026-13-45'], /expected YYYY-MM-DD/],
      [['bundle', clean, '-o', tmp('x.zip'), '--sign-key', '/nonexistent.pem'], /--sign-key .*no such file/],
      [['verify', '/nonexistent/bag.zip'], /no such file or directory/],
    ] as const) {
      const r = await cli([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(msg);
    }
  });
  test('a file that is not an archive is no bag: one line, exit 2, not a crash', async () => {
    const f = tmp('junk.zip');
    writeFileSync(f, 'not a zip at all');
    const r = await cli(['verify', f]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^session-audit: .*junk\.zip: not a bag \(not a directory, nor a zip, tar or tar\.gz archive\)\n$/,
    );
  });

  test('a zip whose central directory is damaged is an invalid bag, not a crash', async () => {
    const f = tmp('cut.zip');
    writeFileSync(f, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]));
    const v = await verifyJson(f);
    expect(codesOf(v.report)).toEqual(['BUNDLE_INVALID']);
    expect(v.code).toBe(1);
  });
});

describe('plain BagIt bags from other tools', () => {
  const plainBag = (algs: string[]): string => {
    const bag = tmp('plain');
    mkdirSync(join(bag, 'data', 'sub dir'), { recursive: true });
    const files: Record<string, string> = { 'data/a.txt': 'hello\n', 'data/sub dir/b%25.txt': 'percent\n' };
    writeFileSync(join(bag, 'data', 'a.txt'), files['data/a.txt']!);
    writeFileSync(join(bag, 'data', 'sub dir', 'b%25.txt'), files['data/sub dir/b%25.txt']!);
    writeFileSync(join(bag, 'bagit.txt'), 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');
    writeFileSync(join(bag, 'bag-info.txt'), `Payload-Oxum: 14.2\nSource-Organization: Example\n`);
    for (const alg of algs) {
      const lines = Object.entries(files).map(
        ([p, c]) => `${createHash(alg).update(c).digest('hex')}  ${encodePath(p)}\n`,
      );
      writeFileSync(join(bag, `manifest-${alg}.txt`), lines.join(''));
    }
    return bag;
  };
  test('a valid plain bag verifies (exit 0), with percent-encoded paths', async () => {
    const v = await verifyJson(plainBag(['sha256']));
    expect(v.report.findings).toEqual([]);
    expect(v.code).toBe(0);
  });
  test('md5 only: a warning, exit 0, and the warning on stderr', async () => {
    const r = await cli(['verify', plainBag(['md5'])]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^session-audit: warning: BUNDLE_UNVERIFIED/);
  });
  test('a wrong Payload-Oxum is invalid', async () => {
    const bag = plainBag(['sha512']);
    writeFileSync(join(bag, 'bag-info.txt'), 'Payload-Oxum: 15.2\n');
    expect(codesOf((await verifyJson(bag)).report)).toEqual(['BUNDLE_INVALID']);
  });
  test('manifest path encoding round-trips %, CR and LF', () => {
    const p = 'data/a%b\r\nc.txt';
    expect(encodePath(p)).toBe('data/a%25b%0D%0Ac.txt');
    expect(decodePath(encodePath(p))).toBe(p);
    expect(parseManifest(`abc  ${encodePath(p)}\nnot a line\n`)).toEqual({
      entries: [{ digest: 'abc', path: p, line: 1 }],
      bad: [2],
    });
  });
  test('unsafe member paths are named', () => {
    expect(unsafePath('/etc/passwd')).toBeDefined();
    expect(unsafePath('data/../../x')).toBeDefined();
    expect(unsafePath('C:/x')).toBeDefined();
    expect(unsafePath('data\\..\\x')).toBeDefined();
    expect(unsafePath('data/a..b/c')).toBeUndefined();
  });
  test('a zip-slip member in a zip is rejected, never resolved', async () => {
    const out = tmp('slip.zip');
    const src = tmp('slip-src');
    mkdirSync(join(src, 'sessions', 'g', 'ses'), { recursive: true });
    cpSync(
      join(
        CORPORA,
        'grok',
        'clean',
        'sessions',
        readdirSync(join(CORPORA, 'grok', 'clean', 'sessions'))[0]!,
        '019a3f2e-0f10-7c42-8000-00000000a003',
      ),
      join(src, 'sessions', 'g', 'ses'),
      { recursive: true },
    );
    await cli(['bundle', join(src, 'sessions', 'g', 'ses'), '-o', out]);
    // Rename one member in place (same length) in both the local header and the central directory.
    const bytes = readFileSync(out);
    const from = Buffer.from('data/grok/ses/summary.json');
    const to = Buffer.from('../../../grok/summary.json');
    expect(from.length).toBe(to.length);
    let i = bytes.indexOf(from);
    let count = 0;
    while (i !== -1) {
      to.copy(bytes, i);
      count++;
      i = bytes.indexOf(from, i + 1);
    }
    expect(count).toBeGreaterThanOrEqual(2);
    const bad = tmp('slip2.zip');
    writeFileSync(bad, bytes);
    const v = await verifyJson(bad);
    expect(codesOf(v.report)).toContain('BUNDLE_UNSAFE_PATH');
    expect(v.report.findings.find((f) => f.code === 'BUNDLE_UNSAFE_PATH')!.location.file).toBe(
      '../../../grok/summary.json',
    );
    expect(existsSync(join(scratch, 'summary.json'))).toBe(false);
  });
});

describe('signing (DSSE, Ed25519)', () => {
  // secure-systems-lab/dsse testvectors/vectors.json, key A.
  const seed = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
  const pub = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex');
  const payloadType = 'application/vnd.in-toto+json';
  const body = Buffer.from('eyJfdHlwZSI6Imh0dHBzOi8vaW4tdG90by5pby9TdGF0ZW1lbnQvdjEifQ==', 'base64');
  test('PAE matches the published vector', () => {
    expect(pae(payloadType, body).toString('hex')).toBe(
      '445353457631203238206170706c69636174696f6e2f766e642e696e2d746f746f2b6a736f6e203433207b225f747970' +
        '65223a2268747470733a2f2f696e2d746f746f2e696f2f53746174656d656e742f7631227d',
    );
  });
  test('the signature matches the published vector and verifies', () => {
    const env = signEnvelope(body, privateKeyFromSeed(seed));
    expect(env.signatures[0]!.sig).toBe(
      '2WAfaHm5jluo0w+0rk8uVkluELJYWjSmU9x7EUzx+AyteDGJ4/nqyJXfmAUVFIAoQafWm7AxBZNw5M9ixNHiCA==',
    );
    expect(verifyEnvelope(env, publicKeyFromRaw(pub))).toEqual({ valid: 1, total: 1, keyIds: [] });
  });
  test('the URL-safe base64 vector verifies', () => {
    const env = {
      payload: '-_-_Pj8=',
      payloadType,
      signatures: [{ sig: 'P-_KHICeR7tI6S_YyejJTRtrXhcQyQ2LYPaL8h90KjC9qN8HU_svOQ6TuDOT1HIrsGW886DbWNWcCmX5twLrAw==' }],
    };
    expect(verifyEnvelope(env, publicKeyFromRaw(pub))).toEqual({ valid: 1, total: 1, keyIds: [] });
    expect(verifyEnvelope({ ...env, payloadType: 'text/plain' }, publicKeyFromRaw(pub)).valid).toBe(0);
  });
  test('bundle --sign-key, verify --key; a different key or a changed statement fails', async () => {
    const keys = tmp('keys');
    mkdirSync(keys);
    const a = generateKeyPairSync('ed25519');
    const b = generateKeyPairSync('ed25519');
    writeFileSync(join(keys, 'a.pem'), a.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(join(keys, 'a.pub'), a.publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(join(keys, 'b.pub'), b.publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(
      join(keys, 'rsa.pem'),
      generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const out = tmp('signed.tgz');
    expect(
      (
        await cli([
          'bundle',
          join(CORPORA, 'grok', 'clean'),
          '-o',
          out,
          '--sign-key',
          join(keys, 'a.pem'),
          '--key-id',
          'alice',
        ])
      ).code,
    ).toBe(0);
    expect((await verifyJson(out, '--key', join(keys, 'a.pub'))).report.findings).toEqual([]);
    expect(codesOf((await verifyJson(out, '--key', join(keys, 'b.pub'))).report)).toEqual(['BUNDLE_SIGNATURE_INVALID']);
    const noKey = await cli(['verify', out]);
    expect(noKey.code).toBe(0);
    expect(noKey.stderr).toMatch(/BUNDLE_UNVERIFIED/);
    const rsa = await cli([
      'bundle',
      join(CORPORA, 'grok', 'clean'),
      '-o',
      tmp('x.zip'),
      '--sign-key',
      join(keys, 'rsa.pem'),
    ]);
    expect(rsa.code).toBe(2);
    expect(rsa.stderr).toMatch(/expected an Ed25519 private key/);
    // A statement re-signed by someone else's key over a forged manifest digest.
    const dirBag = tmp('signed-dir');
    await cli(['bundle', join(CORPORA, 'grok', 'clean'), '-o', dirBag, '--sign-key', join(keys, 'a.pem')]);
    const envPath = join(dirBag, 'custody.dsse.json');
    const env = JSON.parse(readFileSync(envPath, 'utf8')) as { payload: string };
    const st = Buffer.from(env.payload, 'base64')
      .toString('utf8')
      .replace(/"sha256":"[0-9a-f]/, '"sha256":"f');
    writeFileSync(envPath, JSON.stringify({ ...env, payload: Buffer.from(st).toString('base64') }));
    const v = await verifyJson(dirBag, '--key', join(keys, 'a.pub'));
    expect(codesOf(v.report)).toEqual(['BUNDLE_MANIFEST_MISMATCH', 'BUNDLE_SIGNATURE_INVALID']);
  });
});

describe('redaction', () => {
  const secrets = {
    xai: 'xai-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
    jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
    pem:
      '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n-----END ' +
      'PRIVATE KEY-----',
  };
  test('--redact-pattern runs on a linear-time engine: (a+)+$ over 41 bytes and more ends at once', async () => {
    const src = tmp('redos-src');
    cpSync(join(CORPORA, 'grok', 'clean'), src, { recursive: true });
    const sdir = join(src, 'sessions', readdirSync(join(src, 'sessions'))[0]!);
    const session = join(sdir, readdirSync(sdir)[0]!);
    const text = `${'a'.repeat(40)}!`.repeat(2000);
    appendFileSync(join(session, 'updates.jsonl'), `${JSON.stringify({ timestamp: 1, method: 'x', note: text })}\n`);
    const t = performance.now();
    const r = await cli(['bundle', src, '-o', tmp('redos.zip'), '--redact', '--redact-pattern', '(a+)+$']);
    expect(r.code, r.stderr).toBe(0);
    expect(performance.now() - t).toBeLessThan(30_000);
  });
  test('secrets in JSON strings are replaced and every line still parses', () => {
    const r = redactor(['ACME-[0-9]{6}']);
    const line = JSON.stringify({
      a: `key ${secrets.xai} here`,
      b: [`Authorization: Bearer ${'t0k3n'.repeat(5)}`, secrets.jwt],
      c: { d: `AWS_SECRET_ACCESS_KEY=${'wJalrXUtnFEMI'.repeat(3)} ok`, e: secrets.pem },
      f: 'order ACME-123456',
      n: 42,
    });
    const out = redactJsonLine(line, r);
    const parsed = JSON.parse(out.text) as {
      a: string;
      b: string[];
      c: { d: string; e: string };
      f: string;
      n: number;
    };
    expect(parsed.a).toBe('key [REDACTED:api-key] here');
    expect(parsed.b[0]).toBe('Authorization: Bearer [REDACTED:auth-header]');
    expect(parsed.b[1]).toBe('[REDACTED:jwt]');
    expect(parsed.c.d).toBe('AWS_SECRET_ACCESS_KEY=[REDACTED:assignment] ok');
    expect(parsed.c.e).toBe('[REDACTED:pem-private-key]');
    expect(parsed.f).toBe('order [REDACTED:custom]');
    expect(parsed.n).toBe(42);
    expect(out.n).toBe(6);
    expect(redactJsonLine('{"plain":"nothing secret"}', r)).toEqual({ text: '{"plain":"nothing secret"}', n: 0 });
  });
  test('bundle --redact: payload redacted, lines parse, custody proves the originals', async () => {
    const src = tmp('secret-src');
    cpSync(join(CORPORA, 'grok', 'clean'), src, { recursive: true });
    const sdir = join(src, 'sessions', readdirSync(join(src, 'sessions'))[0]!);
    const id = '019a3f2e-0f10-7c42-8000-00000000a003';
    const updates = join(sdir, id, 'updates.jsonl');
    appendFileSync(
      updates,
      `${JSON.stringify({
        timestamp: 1787140000,
        method: 'session/update',
        params: {
          sessionId: id,
          update: {
            sessionUpdate: 'agent_message_chunk',
            content: { type: 'text', text: `export XAI_API_KEY=${secrets.xai}\n${secrets.pem}` },
          },
        },
      })}\n`,
    );
    const original = readFileSync(updates);
    const out = tmp('redacted');
    const r = await cli(['bundle', join(sdir, id), '-o', out, '--redact']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Redacted [1-9]\d* secret/);
    const bagged = readFileSync(join(out, 'data', readdirSync(join(out, 'data'))[0]!, id, 'updates.jsonl'));
    expect(bagged.includes(Buffer.from(secrets.xai))).toBe(false);
    expect(bagged.includes(Buffer.from('MC4CAQAwBQYDK2VwBCIEIJ1h'))).toBe(false);
    for (const line of bagged.toString('utf8').split('\n').filter(Boolean))
      expect(() => JSON.parse(line)).not.toThrow();
    expect(bagged.toString('utf8').split('\n').length).toBe(original.toString('utf8').split('\n').length);
    expect(readFileSync(join(out, 'bag-info.txt'), 'utf8')).toMatch(/^Payload-Redacted: yes$/m);
    const custody = JSON.parse(readFileSync(join(out, 'custody.intoto.json'), 'utf8')) as {
      predicate: {
        redacted: boolean;
        files: Array<{ path: string; originalSha256: string; originalSize: number; redactions: number }>;
      };
    };
    const rec = custody.predicate.files.find((f) => f.path.endsWith(`${id}/updates.jsonl`))!;
    expect(rec.originalSha256).toBe(createHash('sha256').update(original).digest('hex'));
    expect(rec.originalSize).toBe(original.length);
    expect(rec.redactions).toBeGreaterThanOrEqual(2);
    expect((await verifyJson(out)).report.findings).toEqual([]);
    // The originals still prove append-only growth against the live session, though the payload is redacted.
    appendFileSync(updates, '{"timestamp":1787140001}\n');
    expect((await verifyJson(out, '--against', join(sdir, id))).report.findings).toEqual([]);
    writeFileSync(updates, original.subarray(0, original.length - 10));
    const v = await verifyJson(out, '--against', join(sdir, id));
    expect(codesOf(v.report)).toEqual(['BUNDLE_NOT_APPEND_ONLY']);
    expect(v.report.findings[0]!.message).toMatch(/shrank/);
  });
});

describe('verify --against', () => {
  test('policies follow how Grok writes each file', () => {
    expect(changePolicy('updates.jsonl')).toBe('append-only');
    expect(changePolicy('compaction/INDEX.md')).toBe('append-only');
    expect(changePolicy('workflows/r1/journal.jsonl')).toBe('append-only');
    expect(changePolicy('chat_history.jsonl')).toBe('rewritable');
    expect(changePolicy('summary.json')).toBe('rewritable');
    expect(changePolicy('chat_history.jsonl.corrupt')).toBe('immutable');
    expect(changePolicy('images/image-1.png')).toBe('immutable');
  });
  test('first difference: line, column and context', () => {
    expect(firstDifference(Buffer.from('a\nb\n'), Buffer.from('a\nb\nc\n'))).toBeUndefined();
    expect(firstDifference(Buffer.from('a\nbcd\n'), Buffer.from('a\nbXd\n'))).toMatchObject({
      line: 2,
      column: 2,
      offset: 3,
      was: 'bcd',
      now: 'bXd',
    });
    expect(firstDifference(Buffer.from('a\nbcd\n'), Buffer.from('a\n'))).toMatchObject({
      line: 2,
      column: 1,
      now: '(end of file)',
    });
  });
  test('torn-tail healing (a newline appended) is append-only; a quarantine copy rewritten is not', async () => {
    const src = tmp('heal');
    const id = '019a3f2e-0f10-7c42-8000-00000000a003';
    const group = readdirSync(join(CORPORA, 'grok', 'clean', 'sessions')).find((g) => g.startsWith('%'))!;
    cpSync(join(CORPORA, 'grok', 'clean', 'sessions', group, id), join(src, id), { recursive: true });
    const u = join(src, id, 'updates.jsonl');
    appendFileSync(u, '{"timestamp":17871');
    writeFileSync(join(src, id, 'chat_history.jsonl.corrupt'), 'quarantined\n');
    const out = tmp('cap.zip');
    await cli(['bundle', join(src, id), '-o', out]);
    appendFileSync(u, '\n{"timestamp":1787140002}\n');
    writeFileSync(join(src, id, 'chat_history.jsonl.corrupt'), 'quarantined, edited\n');
    const v = await verifyJson(out, '--against', join(src, id));
    expect(v.report.findings.map((f) => `${f.code} ${f.location.file}`)).toEqual([
      'BUNDLE_NOT_APPEND_ONLY chat_history.jsonl.corrupt',
    ]);
    expect(v.report.findings[0]!.message).toMatch(/never rewrites.*line 1, column 12/);
  });
  test('a live path holding none of the captured sessions is a usage error', async () => {
    const out = tmp('cap.zip');
    await cli(['bundle', join(CORPORA, 'grok', 'clean'), '-o', out]);
    const r = await cli(['verify', out, '--against', join(CORPORA, 'grok', 'lineage')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/none of the bag's sessions/);
  });
});
