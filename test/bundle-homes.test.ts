/**
 * An agent's home in a bag: the files it keeps beside its sessions (prompt history, state database, thread index)
 * are evidence, bagged byte for byte under data/<agent>/home/ and marked as a home in the custody statement; with
 * --redact the history is redacted line by line and a database, which cannot be, is withheld. `verify --against`
 * compares them with the live home as files the agent rewrites.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
    cpSync(join(CORPORA, 'claude', 'home-config-clean'), claude, { recursive: true });
    rmSync(join(claude, 'expected.json'));
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
});
