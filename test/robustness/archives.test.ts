/**
 * Archives with `../` and absolute member names given to `verify` (issue 9 §3): a real bag plus hostile
 * members, as zip, tar and tar.gz, and as a directory with links. Every hostile member is reported as
 * BUNDLE_UNSAFE_PATH; nothing is written anywhere (verify reads archives in place, never extracts), the
 * targets of links are never read, and the exit code is 1, never 3. And `verify --against` the very tree a
 * bag was made from (a BUG when one session id is in two places: see the last test).
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { tarOf, tgzOf, zipOf, type Member } from '../helpers/archives.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { diffStates, treeState } from '../helpers/tree-hash.js';
import { arm, tripped, tripwiresWork } from '../helpers/tripwire.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-archives-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Where a naive extractor would write: none of these may exist after verify. */
const ABS_DIR = join(tmpdir(), `sa-zip-slip-absolute-${process.pid}`);
const ESCAPES = ['escape-dotdot.txt', 'escape-data-dotdot.txt', 'escape-pax.txt', 'escape-gnu.txt'];

let bagMembers: Member[] = [];
beforeAll(async () => {
  const bag = join(scratch, 'bag');
  const r = await cli([
    'bundle',
    join(CORPORA, 'grok', 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2e-0f10-7c42-8000-00000000a003'),
    '-o',
    bag,
  ]);
  expect(r.code).toBe(0);
  const walk = (d: string, rel = ''): Member[] =>
    readdirSync(join(d, rel), { withFileTypes: true }).flatMap((e) => {
      const p = rel ? `${rel}/${e.name}` : e.name;
      return e.isDirectory() ? walk(d, p) : [{ name: p, data: readFileSync(join(d, p)) }];
    });
  bagMembers = walk(bag);
});

const hostile = (kind: 'zip' | 'tar'): Member[] => [
  { name: `../${ESCAPES[0]}`, data: Buffer.from('slip') },
  { name: `${ABS_DIR}/pwned.txt`, data: Buffer.from('slip') },
  { name: `data/../../${ESCAPES[1]}`, data: Buffer.from('slip') },
  { name: 'C:/Windows/evil.txt', data: Buffer.from('slip') },
  { name: 'data\\..\\..\\backslash.txt', data: Buffer.from('slip') },
  { name: 'data/./../../dot-segment.txt', data: Buffer.from('slip') },
  { name: 'data/link-to-passwd', type: 'symlink', linkname: '/etc/passwd' },
  { name: `data/link-up`, type: 'symlink', linkname: '../../../../../../etc/shadow' },
  ...(kind === 'tar'
    ? ([
        { name: 'data/hardlink', type: 'hardlink', linkname: '/etc/passwd' },
        { name: `../${ESCAPES[2]}`, pax: true, data: Buffer.from('slip') },
        { name: `../../${ESCAPES[3]}${'x'.repeat(120)}`, gnuLong: true, data: Buffer.from('slip') },
      ] as Member[])
    : []),
];

const verify = async (path: string): Promise<{ code: number; report: AuditReport; stderr: string }> => {
  const r = await cli(['verify', path, '--format', 'json']);
  return { code: r.code, report: JSON.parse(r.stdout) as AuditReport, stderr: r.stderr };
};

function nothingWritten(where: string, before: Map<string, string>): void {
  expect(diffStates(before, treeState(where))).toEqual([]);
  expect(existsSync(ABS_DIR)).toBe(false);
  for (const e of ESCAPES)
    for (const d of [scratch, dirname(scratch), process.cwd(), tmpdir()])
      expect(existsSync(join(d, e)), join(d, e)).toBe(false);
}

describe.each([
  ['zip', (m: Member[]) => zipOf(m)],
  ['tar', (m: Member[]) => tarOf(m)],
  ['tar.gz', (m: Member[]) => tgzOf(m)],
] as const)('%s', (kind, make) => {
  test('every unsafe member is BUNDLE_UNSAFE_PATH, never read or written; exit 1', async () => {
    const dir = join(scratch, `slip-${kind}`);
    mkdirSync(dir);
    const members = hostile(kind === 'zip' ? 'zip' : 'tar');
    const file = join(dir, `bag.${kind}`);
    writeFileSync(file, make([...bagMembers, ...members]));
    const before = treeState(scratch);
    const { code, report, stderr } = await verify(file);
    expect(code, stderr).toBe(1);
    expect(report.toolErrors).toEqual([]);
    const unsafe = report.findings.filter((f) => f.code === 'BUNDLE_UNSAFE_PATH').map((f) => f.location.file);
    for (const m of members) expect(unsafe, m.name).toContain(m.name);
    // The hostile members do not count as payload, and the honest part of the bag still verifies.
    expect(report.findings.filter((f) => !['BUNDLE_UNSAFE_PATH'].includes(f.code))).toEqual([]);
    nothingWritten(scratch, before);
  });
});

test('a directory bag with links in its payload: reported, the targets never read', async () => {
  const bag = join(scratch, 'dir-bag');
  expect(
    (
      await cli([
        'bundle',
        join(CORPORA, 'grok', 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2e-0f10-7c42-8000-00000000a003'),
        '-o',
        bag,
      ])
    ).code,
  ).toBe(0);
  // The link targets live outside the tree this test fingerprints (fingerprinting reads files).
  const elsewhere = join(scratch, 'elsewhere');
  const secret = join(elsewhere, 'secret.txt');
  mkdirSync(join(elsewhere, 'secret-dir'), { recursive: true });
  writeFileSync(secret, 'SECRET-dir-bag-link-target');
  symlinkSync(secret, join(bag, 'data', 'link.txt'));
  symlinkSync(join(elsewhere, 'secret-dir'), join(bag, 'data', 'link-dir'));
  symlinkSync(secret, join(bag, 'tag-link.txt'));
  arm(secret);
  arm(join(elsewhere, 'secret-dir'));
  const before = treeState(bag);
  const r = await cli(['verify', bag, '--format', 'json']);
  expect(r.code).toBe(1);
  expect(r.stdout).not.toContain('SECRET-dir-bag-link-target');
  const report = JSON.parse(r.stdout) as AuditReport;
  expect(
    report.findings
      .filter((f) => f.code === 'BUNDLE_UNSAFE_PATH')
      .map((f) => f.location.file)
      .sort(),
  ).toEqual(['data/link-dir', 'data/link.txt', 'tag-link.txt']);
  expect(diffStates(before, treeState(bag))).toEqual([]);
  if (tripwiresWork(scratch)) {
    expect(tripped(secret)).toBe(false);
    expect(tripped(join(elsewhere, 'secret-dir'))).toBe(false);
  }
});

// Regression (was a wrong code, and slow; fixed): `verify B --against T`, where B was just made by `bundle T`, reports
// BUNDLE_NOT_APPEND_ONLY (an error) and BUNDLE_FILE_CHANGED when T holds two sessions with the same id in
// different places (two captures side by side, a relocated copy, two sessions roots). The live sessions are
// matched to the captured ones by id alone (src/cli/run-verify.ts `sessions.some((c) => c.id === s.id)` and
// src/bundle/against.ts compareWithLive), so one copy's capture is compared with the other copy's live files.
// The comparisons multiply too: `verify --against corpora/grok` (60 cases that reuse a few ids) takes ~55 s for
// a bag that verifies in under a second without --against. Reproduction: mkdir t; cp -r corpora/grok/clean
// corpora/grok/jsonl-torn-tail t/; session-audit bundle t -o b.zip; session-audit verify b.zip --against t →
// exit 1, BUNDLE_NOT_APPEND_ONLY on clean's …a001/updates.jsonl. Fix: match by the path under the root
// (data/<group>/<id> against <group>/<id>), falling back to the id only when it is unique.
test(
  'verify --against the very tree a bag was made from is clean, even ' + 'with one session id in two places',
  async () => {
    const tree = join(scratch, 'two-copies');
    for (const c of ['clean', 'jsonl-torn-tail']) cpSync(join(CORPORA, 'grok', c), join(tree, c), { recursive: true });
    const bag = join(scratch, 'two-copies.zip');
    expect((await cli(['bundle', tree, '-o', bag])).code).toBe(0);
    const r = await cli(['verify', bag, '--against', tree, '--format', 'json']);
    expect((JSON.parse(r.stdout) as AuditReport).findings.map((f) => `${f.code} ${f.location.file}`)).toEqual([]);
    expect(r.code).toBe(0);
  },
);
