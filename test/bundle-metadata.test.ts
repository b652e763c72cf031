/**
 * A bag's metadata (issue 29.2-3): Bagging-Date is the day the bag is made (UTC; RFC 8493 §2.2.2: the date the
 * content was prepared), unless --bagging-date or SOURCE_DATE_EPOCH pins it; every zip and tar entry carries that
 * date (clamped to what a zip can hold); Bag-Group-Identifier is the sessions' common working directory, or absent;
 * long tags are wrapped; a bag made with `bundle --from-store` keeps the path the store recorded (an absolute one
 * with its leading slash) and records its provenance in bag-info.txt and in the custody statement.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { parseBagInfo } from '../src/bundle/bagit.js';
import { runArchive } from '../src/engine/archive.js';
import type { AuditReport } from '../src/model/report.js';
import { capturePath } from '../src/store/layout.js';
import { readState } from '../src/store/open.js';
import { bagitPython, bagitPythonPresent, unpack } from './helpers/bags.js';
import { cli } from './helpers/cli.js';

const CORPORA = join(import.meta.dirname, '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-bag-metadata-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let n = 0;
const tmp = (name: string): string => join(work, `${n++}-${name}`);

const today = (): string => new Date().toISOString().slice(0, 10);
const info = (bag: string): Array<[string, string]> => parseBagInfo(readFileSync(join(bag, 'bag-info.txt'), 'utf8'));
const tag = (bag: string, label: string): string[] =>
  info(bag)
    .filter(([k]) => k === label)
    .map(([, v]) => v);

/** The date of every entry of a zip, from its central directory (MS-DOS date and time), as ISO 8601 in UTC. */
function zipDates(file: string): string[] {
  const b = readFileSync(file);
  const eocd = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = b.readUInt16LE(eocd + 10);
  let at = b.readUInt32LE(eocd + 16);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    expect(b.readUInt32LE(at)).toBe(0x02014b50);
    const time = b.readUInt16LE(at + 12);
    const date = b.readUInt16LE(at + 14);
    const pad = (x: number): string => String(x).padStart(2, '0');
    out.push(
      `${1980 + (date >> 9)}-${pad((date >> 5) & 15)}-${pad(date & 31)}T` +
        `${pad(time >> 11)}:${pad((time >> 5) & 63)}:${pad((time & 31) * 2)}Z`,
    );
    at += 46 + b.readUInt16LE(at + 28) + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
  }
  return out;
}

/** The mtime of every entry of a tar (or tar.gz), as ISO 8601. */
function tarDates(file: string): string[] {
  let b = readFileSync(file);
  if (b[0] === 0x1f && b[1] === 0x8b) b = gunzipSync(b);
  const out: string[] = [];
  for (let at = 0; at + 512 <= b.length; ) {
    const header = b.subarray(at, at + 512);
    if (header.every((x) => x === 0)) break;
    const octal = (from: number, len: number): number =>
      Number.parseInt(
        header
          .subarray(from, from + len)
          .toString('latin1')
          .replace(/\0.*$/s, '')
          .trim() || '0',
        8,
      );
    const size = octal(124, 12);
    const type = String.fromCharCode(header[156]!);
    if (type !== 'x' && type !== 'g') out.push(new Date(octal(136, 12) * 1000).toISOString().replace('.000', ''));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

const CODEX = join(CORPORA, 'codex', 'clean', 'sessions');
const GROK = join(CORPORA, 'grok', 'clean');

describe('Bagging-Date and the dates of the entries', () => {
  test('by default the day the bag is made (UTC), and every zip and tar entry is dated that day', async () => {
    const before = today();
    const zip = tmp('bag.zip');
    const tgz = tmp('bag.tgz');
    const dir = tmp('bag');
    for (const out of [zip, tgz, dir]) expect((await cli(['bundle', CODEX, '-o', out])).code).toBe(0);
    const after = today();
    const date = tag(dir, 'Bagging-Date')[0]!;
    expect([before, after]).toContain(date);
    expect(new Set(zipDates(zip))).toEqual(new Set([`${date}T00:00:00Z`]));
    expect(new Set(tarDates(tgz))).toEqual(new Set([`${date}T00:00:00Z`]));
    expect(tag(unpack(zip, tmp('unzipped')), 'Bagging-Date')).toEqual([date]);
  });

  test('--bagging-date and SOURCE_DATE_EPOCH pin it, and the bag is the same byte for byte', async () => {
    const a = tmp('pinned.zip');
    const b = tmp('pinned.zip');
    expect((await cli(['bundle', CODEX, '-o', a, '--bagging-date', '2026-03-04'])).code).toBe(0);
    const saved = process.env.SOURCE_DATE_EPOCH;
    process.env.SOURCE_DATE_EPOCH = String(Date.UTC(2026, 2, 4, 15, 30) / 1000);
    try {
      expect((await cli(['bundle', CODEX, '-o', b])).code).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.SOURCE_DATE_EPOCH;
      else process.env.SOURCE_DATE_EPOCH = saved;
    }
    expect(readFileSync(a).equals(readFileSync(b))).toBe(true);
    expect(new Set(zipDates(a))).toEqual(new Set(['2026-03-04T00:00:00Z']));
    expect(tag(unpack(a, tmp('u')), 'Bagging-Date')).toEqual(['2026-03-04']);
  });

  test('a date a zip cannot hold is clamped in the entries, never in Bagging-Date', async () => {
    const zip = tmp('old.zip');
    const tar = tmp('old.tar');
    for (const out of [zip, tar])
      expect((await cli(['bundle', CODEX, '-o', out, '--bagging-date', '1975-06-01'])).code).toBe(0);
    expect(new Set(zipDates(zip))).toEqual(new Set(['1980-01-01T00:00:00Z']));
    expect(new Set(tarDates(tar))).toEqual(new Set(['1980-01-01T00:00:00Z']));
    expect(tag(unpack(zip, tmp('u')), 'Bagging-Date')).toEqual(['1975-06-01']);
    const late = tmp('late.zip');
    expect((await cli(['bundle', CODEX, '-o', late, '--bagging-date', '2150-01-01'])).code).toBe(0);
    expect(new Set(zipDates(late))).toEqual(new Set(['2043-12-31T00:00:00Z']));
  });
});

describe('bag-info.txt', () => {
  test("Bag-Group-Identifier is the sessions' common working directory, and absent when they have none", async () => {
    const codex = tmp('codex');
    expect((await cli(['bundle', CODEX, '-o', codex])).code).toBe(0);
    expect(tag(codex, 'Bag-Group-Identifier')).toEqual(['/home/dev/app']);
    const grok = tmp('grok');
    expect((await cli(['bundle', GROK, '-o', grok])).code).toBe(0);
    expect(tag(grok, 'Bag-Group-Identifier')).toEqual(['/home/dev/proj']);
    const both = tmp('both');
    expect((await cli(['bundle', GROK, CODEX, '-o', both])).code).toBe(0);
    expect(tag(both, 'Bag-Group-Identifier')).toEqual([]);
  });

  test('lines are wrapped at 79 characters (RFC 8493 §2.2.2), a word longer than a line kept whole', async () => {
    const bag = tmp('wrapped');
    expect((await cli(['bundle', GROK, '-o', bag, '--redact'])).code).toBe(0);
    const lines = readFileSync(join(bag, 'bag-info.txt'), 'utf8').split('\n');
    expect(lines.some((l) => /^ {2}\S/.test(l))).toBe(true);
    for (const l of lines) if (l.length > 79) expect(l.replace(/^\S+: /, '').trim()).not.toContain(' ');
    expect(tag(bag, 'Internal-Sender-Description')[0]).toMatch(/payload REDACTED for sharing \(originals' digests in/);
    if (bagitPythonPresent) expect(bagitPython(bag).ok).toBe(true);
  });
});

describe('bundle --from-store', () => {
  // The sources are archived by an absolute path, as cron would.
  const root = join(work, 'live', 'codex-sessions');
  cpSync(CODEX, root, { recursive: true });
  const store = join(work, 'store');
  const c001 = join(root, '2026/03/02/rollout-2026-03-02T09-00-00-019cb100-0000-7000-8000-00000000c001.jsonl');
  const id = '019cb100-0000-7000-8000-00000000c001';

  test('keeps the absolute path the store recorded, leading slash and all', async () => {
    runArchive({ roots: [root], store });
    const bag = tmp('abs');
    const r = await cli(['bundle', '--from-store', store, '--session', id, '-o', bag]);
    expect(r.code, r.stderr).toBe(0);
    expect(tag(bag, 'Source-Path')).toEqual([c001]);
    const custody = JSON.parse(readFileSync(join(bag, 'custody.intoto.json'), 'utf8')) as {
      predicate: { sources: string[]; sessions: Array<{ path: string }> };
    };
    expect(custody.predicate.sources).toEqual([c001]);
    expect(custody.predicate.sessions.map((s) => s.path)).toEqual([c001]);
    const report = JSON.parse(readFileSync(join(bag, 'audit-report.json'), 'utf8')) as AuditReport;
    expect(report.sessions.map((s) => s.path)).toEqual([c001]);
    expect((await cli(['verify', bag])).code).toBe(0);
  });

  test('records its provenance: capture, record hash, chain head, and the store findings on the session', async () => {
    const lines = readFileSync(c001, 'utf8').split('\n');
    lines[1] = lines[1]!.replace('"', "'");
    writeFileSync(c001, lines.join('\n'));
    runArchive({ roots: [root], store });
    const state = readState(store);
    const mine = state.records.filter((r) => r.session.id === id);
    expect(mine.map((r) => r.status)).toEqual(['new', 'changed']);
    const [first, rewrite] = mine as [(typeof mine)[0], (typeof mine)[0]];
    const bag = tmp('provenance');
    const r = await cli(['bundle', '--from-store', store, '--session', id, '--at', String(first.seq), '-o', bag]);
    expect(r.code, r.stderr).toBe(0);
    const recordSha = createHash('sha256')
      .update(readFileSync(capturePath(store, first.seq)))
      .digest('hex');
    expect(tag(bag, 'X-Store')).toEqual([store]);
    expect(tag(bag, 'X-Store-Capture')).toEqual([String(first.seq)]);
    expect(tag(bag, 'X-Store-Capture-Status')).toEqual(['new']);
    expect(tag(bag, 'X-Store-Capture-Run')).toEqual([first.run]);
    expect(tag(bag, 'X-Store-Session-Key')).toEqual([first.session.key]);
    expect(tag(bag, 'X-Store-Record-SHA256')).toEqual([recordSha]);
    expect(tag(bag, 'X-Store-Record-Signed')).toEqual(['no']);
    expect(tag(bag, 'X-Store-Chain-Head')).toEqual([`record ${state.seq}, sha256 ${state.last}`]);
    // The later capture's rewrite is the store's finding on this session: the bag says so.
    const findings = tag(bag, 'X-Store-Finding');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatch(
      new RegExp(`^capture ${rewrite.seq}: BUNDLE_NOT_APPEND_ONLY rollout-.*c001\\.jsonl:2: an append-only log `),
    );
    const custody = JSON.parse(readFileSync(join(bag, 'custody.intoto.json'), 'utf8')) as {
      predicate: { provenance: Record<string, unknown> };
    };
    expect(custody.predicate.provenance).toMatchObject({
      from: 'store',
      capture: first.seq,
      status: 'new',
      record: { sha256: recordSha, signed: false },
      chainHead: { seq: state.seq, sha256: state.last },
      findings: [{ seq: rewrite.seq, code: 'BUNDLE_NOT_APPEND_ONLY', line: 2 }],
      deletions: [],
    });
    // verify says where the bag says it came from, and whose word that is.
    const v = await cli(['verify', bag]);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(
      `\n  made from capture ${first.seq} (${first.run}, new) of the store ${store} (it says, unsigned): record ` +
        `sha256 ${recordSha}, the chain then ending at record ${state.seq}\n`,
    );
    expect(v.stdout).toMatch(
      new RegExp(`\\n {2}the store recorded on this session: capture ${rewrite.seq}: BUNDLE_NOT_APPEND_ONLY .*:2\\n`),
    );
    const json = JSON.parse((await cli(['verify', bag, '--format', 'json'])).stdout) as AuditReport;
    expect(json.verdict!.provenance).toMatchObject({
      capture: first.seq,
      recordSha256: recordSha,
      recordSigned: false,
    });
    if (bagitPythonPresent) expect(bagitPython(bag).ok, bagitPython(bag).output).toBe(true);
  });

  test('a bag made from live files records no provenance', async () => {
    const bag = tmp('live');
    expect((await cli(['bundle', root, '-o', bag])).code).toBe(0);
    expect(info(bag).filter(([k]) => k.startsWith('X-'))).toEqual([]);
    const custody = JSON.parse(readFileSync(join(bag, 'custody.intoto.json'), 'utf8')) as {
      predicate: Record<string, unknown>;
    };
    expect(custody.predicate.provenance).toBeUndefined();
  });
});

test('the corpora bags pin their bagging date, so they stay byte-stable', () => {
  const bags = ['valid/bag', 'signed/bag', 'against-rewritten/bag'];
  for (const b of bags) expect(tag(join(CORPORA, 'bundles', b), 'Bagging-Date'), b).toEqual(['2026-08-19']);
  expect(new Set(zipDates(join(CORPORA, 'bundles', 'valid-zip', 'bag.zip')))).toEqual(
    new Set(['2026-08-19T00:00:00Z']),
  );
});
