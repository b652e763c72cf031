/**
 * Gemini CLI's fold and its corpora: `loadConversationRecord`'s rules reproduced (a message keeps its first place
 * and its last content, $set.messages replaces the conversation, $rewindTo drops the id and what follows or
 * everything, metadata merges), detection by content whatever the file is called, the checked-in corpora are what
 * the generator writes, and verify --against knows a .jsonl only grows.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { generateAgentCorpora } from '../../scripts/gen-corpora.js';
import { geminiHomeCases } from '../../scripts/corpora/cases-gemini-home.js';
import { GEMINI_CORPUS, geminiCases, geminiCleanTree } from '../../scripts/corpora/cases-gemini.js';
import { catalog } from '../../src/checks/catalog.js';
import { validator } from '../../src/formats/schema-runtime.js';
import { fold } from '../../src/formats/gemini/fold.js';
import { SessionLine } from '../../src/formats/gemini/models.js';
import { GEMINI_SCHEMAS } from '../../src/formats/gemini/schemas.js';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { expectModelAndSchemaAgree, expectShippedCorpora } from '../helpers/agent-corpora.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-gemini-fold-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = (...values: unknown[]) =>
  fold(values.map((value, i) => ({ seq: i, line: i + 1, byteOffset: i * 100, value })));
const meta = { sessionId: 's1', projectHash: 'h', startTime: '2026-01-01T00:00:00.000Z', kind: 'main' };
const msg = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  timestamp: '2026-01-01T00:00:01.000Z',
  type: 'user',
  content: [{ text: id }],
  ...extra,
});

describe('the fold', () => {
  test('a message keeps the place of its first line and the content of its last copy', () => {
    const f = run(meta, msg('a'), msg('b'), msg('a', { tokens: null }));
    expect(f.messages.map((m) => [m.id, m.line])).toEqual([
      ['a', 4],
      ['b', 3],
    ]);
    expect(f.fates.get(1)).toEqual({ k: 'superseded', by: 4, snapshot: false });
    expect(f.changed).toEqual([]);
  });

  test('$set.messages replaces the conversation; what it leaves out is dropped, what it brings back superseded', () => {
    const info = { id: 'i', timestamp: 't', type: 'info', content: 'Request cancelled.' };
    const f = run(meta, msg('a'), info, { $set: { messages: [msg('a')], lastUpdated: 'x' } }, msg('b'));
    expect(f.messages.map((m) => m.id)).toEqual(['a', 'b']);
    expect(f.fates.get(1)).toEqual({ k: 'superseded', by: 4, snapshot: true });
    expect(f.fates.get(2)).toEqual({ k: 'dropped', by: 4 });
    expect(f.snapshots[0]?.dropped).toEqual({ info: 1 });
    expect(f.metadata.lastUpdated).toBe('x');
  });

  test('$rewindTo drops the id and every later message; an id that is not there drops everything', () => {
    const known = run(meta, msg('a'), msg('b'), msg('c'), { $rewindTo: 'b' });
    expect(known.messages.map((m) => m.id)).toEqual(['a']);
    expect(known.rewinds).toEqual([{ line: 5, byteOffset: 400, target: 'b', removed: 2, unknown: false }]);
    const unknown = run(meta, msg('a'), msg('b'), { $rewindTo: 'zz' });
    expect(unknown.messages).toEqual([]);
    expect(unknown.rewinds[0]?.unknown).toBe(true);
  });

  test('metadata merges in file order: a second metadata line overwrites startTime; classification order holds', () => {
    const f = run(meta, msg('a'), { ...meta, startTime: '2026-01-01T01:00:00.000Z' }, { $set: { summary: 'S' } });
    expect(f.metadata.startTime).toBe('2026-01-01T01:00:00.000Z');
    expect(f.metadata.summary).toBe('S');
    expect(f.moreMeta.length).toBe(1);
    // A line with both $rewindTo and id is a rewind; one with id and $set is a message.
    const g = run(meta, msg('a'), { $rewindTo: 'a', id: 'x' }, { id: 'y', $set: {}, type: 'user', content: 'y' });
    expect(g.messages.map((m) => m.id)).toEqual(['y']);
  });

  test('a bare copy that changes content or drops fields is recorded; lost tool calls too', () => {
    const call = { id: 'c1', name: 'read_file', args: {}, status: 'success', timestamp: 't' };
    const g = (extra: Record<string, unknown>) => ({ ...msg('g'), type: 'gemini', content: '', ...extra });
    const f = run(meta, g({ toolCalls: [call] }), g({ content: 'other' }));
    expect(f.changed.map((c) => c.fields)).toEqual([['content', '-toolCalls']]);
    expect(f.lostCalls.map((c) => c.lost)).toEqual([['c1']]);
  });
});

describe('detection by content', () => {
  test("a legacy .json kept as full.jsonl (Entire CLI's name) is read as the legacy document it is", async () => {
    const dir = join(scratch, 'entire');
    mkdirSync(dir, { recursive: true });
    const legacy = [...geminiCleanTree()].find(([p]) => p.endsWith('.json') && p.includes('/chats/'))!;
    writeFileSync(join(dir, 'full.jsonl'), legacy[1] as string);
    const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never']);
    const rep = JSON.parse(r.stdout) as AuditReport;
    expect(rep.sessions.map((s) => s.path.split('/').pop())).toEqual(['full.jsonl']);
    expect(rep.findings).toEqual([]);
    const p = await cli(['pairs', join(dir, 'full.jsonl'), '--format', 'json']);
    expect(p.stdout).toContain('"status": "answered"');
  });

  test('a .json holding lines is folded line by line, as the CLI first reads every file', async () => {
    const dir = join(scratch, 'json-lines');
    mkdirSync(dir, { recursive: true });
    const name = 'session-2026-12-01T09-00-3f2a9c1e.jsonl';
    const text = readFileSync(join(CORPORA, 'gemini/clean/tmp/app/chats', name), 'utf8');
    writeFileSync(join(dir, name.replace(/\.jsonl$/, '.json')), text);
    const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never']);
    expect((JSON.parse(r.stdout) as AuditReport).findings).toEqual([]);
  });

  test('a .jsonl that is not Gemini is not taken for one', async () => {
    const dir = join(scratch, 'other');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'x.jsonl'), '{"sessionId":"a"}\n{"id":1}\n');
    const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never']);
    expect(r.stdout + r.stderr).not.toContain('"format": "gemini"');
  });
});

test('a subagent file in chats/<parent id>/ is a child of the one whose toolCalls[].agentId names it', async () => {
  const r = await cli(['lineage', join(CORPORA, 'gemini/clean'), '--format', 'json']);
  type Node = { id: string; kind: string; children: Node[] };
  const view = JSON.parse(r.stdout) as { roots: Array<{ trees: Node[] }> };
  const main = view.roots.flatMap((x) => x.trees).find((t) => t.id === '3f2a9c1e-7b4d-4e5f-9a8b-1c2d3e4f5a01')!;
  expect(main.children.map((c) => [c.id, c.kind])).toEqual([['6f1c0e2a-9b7d-4c55-8e2f-0d3b9a71c4aa', 'subagent']]);
});

test('bundle of ~/.gemini takes the session files and logs.json, never oauth_creds.json or projects.json', async () => {
  const home = join(scratch, 'home', '.gemini');
  mkdirSync(join(home, 'tmp/app/chats'), { recursive: true });
  const name = 'session-2026-12-01T09-00-3f2a9c1e.jsonl';
  copyFileSync(join(CORPORA, 'gemini/clean/tmp/app/chats', name), join(home, 'tmp/app/chats', name));
  writeFileSync(join(home, 'oauth_creds.json'), '{"access_token":"not-a-real-token"}\n');
  writeFileSync(join(home, 'projects.json'), '{"projects":{}}\n');
  writeFileSync(join(home, 'tmp/app/logs.json'), '[]');
  const bag = join(scratch, 'home.zip');
  expect((await cli(['bundle', join(scratch, 'home'), '-o', bag])).code).toBe(0);
  const listing = readFileSync(bag).toString('latin1');
  expect(listing).toContain(name);
  // logs.json is read as the home's evidence (issue 36): bagged like Claude Code's history.jsonl.
  expect(listing).toContain('logs.json');
  for (const other of ['oauth_creds.json', 'projects.json']) expect(listing).not.toContain(other);
});

test('the checked-in Gemini corpora are exactly what the generator writes', () => {
  const out = mkdtempSync(join(scratch, 'gen-'));
  generateAgentCorpora(
    out,
    ...GEMINI_CORPUS,
    geminiCleanTree(),
    [...geminiCases(), ...geminiHomeCases()],
    catalog().map((e) => e.code),
  );
  expectShippedCorpora(out, 'gemini');
});

test('zod and the generated JSON Schema agree on every record of the gemini corpora', () => {
  expectModelAndSchemaAgree('gemini', SessionLine, validator(GEMINI_SCHEMAS.session!.file));
});

test('verify --against: lines appended to a .jsonl are growth; a line rewritten is not', async () => {
  const dir = join(scratch, 'grow');
  mkdirSync(dir, { recursive: true });
  const src = join(CORPORA, 'gemini/clean/tmp/app/chats');
  const name = 'session-2026-12-01T09-00-3f2a9c1e.jsonl';
  copyFileSync(join(src, name), join(dir, name));
  const bag = join(scratch, 'grow.zip');
  expect((await cli(['bundle', dir, '-o', bag])).code).toBe(0);
  const text = readFileSync(join(dir, name), 'utf8');
  writeFileSync(join(dir, name), `${text}{"$set":{"summary":"Fix parse()"}}\n`);
  const grown = await cli(['verify', bag, '--against', dir, '--format', 'json']);
  expect((JSON.parse(grown.stdout) as AuditReport).findings.map((f) => f.code)).not.toContain('BUNDLE_NOT_APPEND_ONLY');
  writeFileSync(join(dir, name), text.replace('parse() panics', 'parse() crashes'));
  const edited = await cli(['verify', bag, '--against', dir, '--format', 'json']);
  expect((JSON.parse(edited.stdout) as AuditReport).findings.map((f) => f.code)).toContain('BUNDLE_NOT_APPEND_ONLY');
});
