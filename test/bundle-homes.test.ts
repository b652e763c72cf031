/**
 * An agent's home in a bag: the files it keeps beside its sessions (prompt history, state database, thread index)
 * are evidence, bagged byte for byte under data/<agent>/home/ and marked as a home in the custody statement; with
 * --redact the history is redacted line by line and a database, which cannot be, is withheld. `verify --against`
 * compares them with the live home as files the agent rewrites; a file the bag withheld is compared by the digest
 * the custody statement records (older bags recorded none: it is said to be not archived, never new).
 */
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bagitPython, bagitPythonPresent, filesUnder, unpack } from './helpers/bags.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';
import { diffStates, treeState } from './helpers/tree-hash.js';

const KEY = `sk-ant-api03-${'Z'.repeat(90)}`;
let tmp = '';
let home = '';

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'sa-bundle-homes-'));
  home = join(tmp, 'case');
  cpSync(join(CORPORA, 'codex', 'home-history-gone'), home, { recursive: true });
  rmSync(join(home, 'expected.json'));
  const line = { session_id: '019cb100-0000-7000-8000-00000000c001', ts: 1772442200, text: `use ${KEY} to deploy` };
  appendFileSync(join(home, '.codex', 'history.jsonl'), `${JSON.stringify(line)}\n`);
  cpSync(join(CORPORA, 'claude', 'home-config-clean'), join(tmp, 'claude-case'), { recursive: true });
  rmSync(join(tmp, 'claude-case', 'expected.json'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('a bag of a tree holding an agent home', () => {
  test("holds the home's own files byte for byte, marked as a home; it verifies, and bagit-python agrees", async () => {
    const before = treeState(home);
    const bag = join(tmp, 'plain.zip');
    const r = await cli(['bundle', home, '-o', bag]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Bundled 5 sessions and 1 agent home, 8 payload files/);
    expect(diffStates(before, treeState(home))).toEqual([]);
    const dir = unpack(bag, join(tmp, 'plain'));
    const data = filesUnder(dir).filter((f) => f.startsWith('data/codex/home/'));
    expect(data).toEqual([
      'data/codex/home/history.jsonl',
      'data/codex/home/session_index.jsonl',
      'data/codex/home/state_5.sqlite',
    ]);
    for (const f of data)
      expect(readFileSync(join(dir, f)).equals(readFileSync(join(home, '.codex', f.slice(16))))).toBe(true);
    const custody = JSON.parse(readFileSync(join(dir, 'custody.intoto.json'), 'utf8'));
    const homes = custody.predicate.sessions.filter((s: { kind?: string }) => s.kind === 'home');
    expect(homes).toEqual([expect.objectContaining({ id: '.codex', agent: 'codex', bagDir: 'data/codex/home' })]);
    const info = readFileSync(join(dir, 'bag-info.txt'), 'utf8');
    expect(info).not.toMatch(/External-Identifier: \.codex/);
    expect(info).toMatch(/5 AI coding agent session\(s\)\s+and 1 agent home\(s\)/);
    expect((await cli(['verify', bag])).code).toBe(0);
    if (bagitPythonPresent) expect(bagitPython(dir).ok).toBe(true);
  });

  test('with --redact the history is redacted, the database withheld, and the key is nowhere in the bag', async () => {
    const bag = join(tmp, 'redacted.zip');
    const r = await cli(['bundle', home, '-o', bag, '--redact']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/not archived: data\/codex\/home\/state_5\.sqlite: withheld by --redact/);
    const dir = unpack(bag, join(tmp, 'redacted'));
    expect(readFileSync(join(dir, 'data/codex/home/history.jsonl'), 'utf8')).toContain('[REDACTED:');
    for (const f of filesUnder(dir)) expect(readFileSync(join(dir, f)).includes(KEY)).toBe(false);
  });

  test('verify --against: each home file matched with the live home; a grown history is a changed file', async () => {
    const bag = join(tmp, 'plain.zip');
    const same = await cli(['verify', bag, '--against', home]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('.codex/history.jsonl: unchanged');
    expect(same.stdout).not.toContain('BUNDLE_FILE_MISSING');
    const live = join(tmp, 'live');
    cpSync(home, live, { recursive: true });
    appendFileSync(join(live, '.codex', 'history.jsonl'), '{"session_id":"x","ts":1772442300,"text":"later"}\n');
    const r = await cli(['verify', bag, '--against', live, '--format', 'json']);
    const report = JSON.parse(r.stdout) as { findings: Array<{ code: string; location: { file: string } }> };
    expect(report.findings.map((f) => [f.code, f.location.file])).toEqual([['BUNDLE_FILE_CHANGED', 'history.jsonl']]);
  });

  test("Claude's file versions and ~/.claude.json are judged, and withheld from the bag", async () => {
    const claude = join(tmp, 'claude-case');
    const bag = join(tmp, 'claude.zip');
    const r = await cli(['bundle', claude, '-o', bag]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const dir = unpack(bag, join(tmp, 'claude-bag'));
    expect(filesUnder(dir).filter((f) => f.startsWith('data/claude/home/'))).toEqual([
      'data/claude/home/history.jsonl',
    ]);
    const custody = readFileSync(join(dir, 'custody.intoto.json'), 'utf8');
    expect(custody).toContain('.claude.json');
    expect(custody).toContain('file-history/');
    expect(custody).toContain('withheld');
    if (bagitPythonPresent) expect(bagitPython(dir).ok).toBe(true);
  });

  test('verify --against a redacted bag: the withheld database is compared by its digest, never new', async () => {
    const bag = join(tmp, 'redacted.zip');
    const same = await cli(['verify', bag, '--against', home]);
    expect([same.code, same.stderr]).toEqual([0, '']);
    expect(same.stdout).toMatch(
      /\.codex\/state_5\.sqlite: withheld from the bag \(compared by the digest the custody .*\), unchanged/,
    );
    expect(same.stdout).not.toContain('new since');
    const live = join(tmp, 'live-db');
    cpSync(home, live, { recursive: true });
    appendFileSync(join(live, '.codex', 'state_5.sqlite'), Buffer.alloc(512));
    const r = await cli(['verify', bag, '--against', live, '--format', 'json']);
    const report = JSON.parse(r.stdout) as Report;
    const found = report.findings.map((f) => [f.code, f.location.file, f.message]);
    expect(found).toEqual([
      [
        'BUNDLE_FILE_CHANGED',
        'state_5.sqlite',
        expect.stringMatching(/^withheld from the bag .*changed since the capture \(\d+ → \d+ bytes\)$/),
      ],
    ]);
  });

  test('verify --against a Claude bag: the withheld file versions and ~/.claude.json, same or changed', async () => {
    const claude = join(tmp, 'claude-case');
    const bag = join(tmp, 'claude.zip');
    const same = await cli(['verify', bag, '--against', claude]);
    expect([same.code, same.stderr]).toEqual([0, '']);
    expect(same.stdout).not.toContain('new since');
    expect(same.stdout).toMatch(/\.claude\.json: withheld from the bag .*, unchanged/);
    expect(same.stdout).toMatch(/file-history\/[^:]+: withheld from the bag .*, unchanged/);
    const live = join(tmp, 'claude-live');
    cpSync(claude, live, { recursive: true });
    const versions = join(live, '.claude', 'file-history', '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01');
    const version = readdirSync(versions).sort()[0]!;
    writeFileSync(join(versions, version), 'rewritten by hand\n');
    const r = await cli(['verify', bag, '--against', live, '--format', 'json']);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.findings.map((f) => [f.code, f.location.file])).toEqual([
      ['BUNDLE_FILE_CHANGED', `file-history/5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01/${version}`],
    ]);
  });

  test('an older bag without digests of withheld files: verified, each said not archived, not new', async () => {
    const claude = join(tmp, 'claude-case');
    const dir = join(tmp, 'claude-old-bag');
    expect((await cli(['bundle', claude, '-o', dir])).code).toBe(0);
    // The custody statement as bags made before the withheld files' paths and digests were recorded.
    const custodyPath = join(dir, 'custody.intoto.json');
    const custody = JSON.parse(readFileSync(custodyPath, 'utf8'));
    custody.predicate.notArchived = custody.predicate.notArchived.map((n: Record<string, unknown>) => ({
      bagPath: n.bagPath,
      type: n.type,
      reason: n.reason,
    }));
    const bytes = Buffer.from(`${JSON.stringify(custody, null, 2)}\n`);
    writeFileSync(custodyPath, bytes);
    // Each tag manifest lists the statement; the sha512 one lists the sha256 one too (it is made after it).
    const relist = (alg: string, name: string, b: Buffer): void => {
      const tm = join(dir, `tagmanifest-${alg}.txt`);
      const line = new RegExp(`^[0-9a-f]+(\\s+${name.replace(/\./g, '\\.')})$`, 'm');
      writeFileSync(tm, readFileSync(tm, 'utf8').replace(line, `${createHash(alg).update(b).digest('hex')}$1`));
    };
    relist('sha256', 'custody.intoto.json', bytes);
    relist('sha512', 'custody.intoto.json', bytes);
    relist('sha512', 'tagmanifest-sha256.txt', readFileSync(join(dir, 'tagmanifest-sha256.txt')));
    const plain = await cli(['verify', dir]);
    expect([plain.code, plain.stdout]).toEqual([0, expect.anything()]);
    const r = await cli(['verify', dir, '--against', claude]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).not.toContain('new since');
    expect(r.stdout).toMatch(/\.claude\.json: not archived in the capture \(withheld: /);
    expect(r.stdout).toMatch(/file-history\/[^:]+: not archived in the capture/);
  });
});

interface Report {
  findings: Array<{ code: string; location: { file: string }; message: string }>;
}
