/**
 * Parts of a Hermes home copied alone (issue 28.2): state.db in a folder of its own, state.db given as a file, and
 * sessions/ alone are audited as Hermes with HERMES_PART_MISSING naming the absent part (audit, timeline,
 * inspect). state.db is recognised by its SQLite header and schema, never by its name: a schema that outgrew page
 * 1 (its statements only past the 32 KB head) is still found, and a random SQLite file or text named state.db
 * stays unclaimed. Also: "no session found" says what the top of the path holds.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { hermesCleanTree } from '../../scripts/corpora/cases-hermes.js';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-hermes-part-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CLEAN = join(CORPORA, 'hermes', 'clean');

/** A fresh directory under the scratch directory holding `files` (paths relative to it). */
function tree(name: string, files: Record<string, string | Buffer>): string {
  const dir = join(scratch, name);
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  mkdirSync(dir, { recursive: true });
  return dir;
}

const cleanDb = (): Buffer => readFileSync(join(CLEAN, 'state.db'));

async function audit(path: string, ...args: string[]) {
  const r = await cli(['audit', path, '--format', 'json', '--fail-on', 'never', ...args]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as AuditReport;
}

const parts = (r: AuditReport) =>
  r.findings.filter((f) => f.code === 'HERMES_PART_MISSING').map((f) => `${f.location.file} ${f.severity}`);

describe('a part of a Hermes home copied alone is audited as Hermes', () => {
  test('state.db alone in a folder, and given as a file: sessions/ is absent', async () => {
    const dir = tree('db-alone', { 'state.db': cleanDb() });
    for (const path of [dir, join(dir, 'state.db')]) {
      const r = await audit(path);
      expect(r.sessions.map((s) => s.format)).toEqual(['hermes']);
      expect(parts(r)).toEqual(['sessions/ warning']);
      expect(r.findings.find((f) => f.code === 'HERMES_PART_MISSING')!.message).toMatch(/^sessions\/ is absent: /);
      // The rows were read: nothing else is wrong with the clean home's database.
      expect(r.findings.map((f) => f.code)).toEqual(['HERMES_PART_MISSING']);
    }
  });

  test('sessions/ alone, given and met in a tree: state.db is absent', async () => {
    const files = Object.fromEntries([...hermesCleanTree()].filter(([p]) => p.startsWith('sessions/')));
    const dir = tree('sessions-alone', files as Record<string, string>);
    for (const path of [join(dir, 'sessions'), dir]) {
      const r = await audit(path);
      expect(r.sessions.map((s) => s.format)).toEqual(['hermes']);
      expect(parts(r)).toEqual(['state.db warning']);
      expect(r.findings.find((f) => f.code === 'HERMES_PART_MISSING')!.message).toMatch(
        /^state\.db is absent: the rows Hermes resumes from are not in this copy/,
      );
    }
  });

  test('state.db beside unrelated files: only the database and its companions are the session', async () => {
    const dir = tree('db-among-others', { 'state.db': cleanDb(), 'notes.txt': 'x\n', 'other/readme.md': 'y\n' });
    const r = await audit(dir);
    expect(r.sessions).toHaveLength(1);
    expect(parts(r)).toEqual(['sessions/ warning']);
    expect(r.findings.some((f) => f.location.file.includes('notes.txt'))).toBe(false);
  });

  test('a part of a whole home given alone is audited with the database and files beside it', async () => {
    const home = join(scratch, 'whole-home');
    cpSync(CLEAN, home, { recursive: true });
    rmSync(join(home, 'expected.json'));
    for (const path of [join(home, 'state.db'), join(home, 'sessions')]) {
      const r = await audit(path);
      expect(r.sessions.map((s) => s.format)).toEqual(['hermes']);
      expect(parts(r)).toEqual([]);
    }
  });

  test('sessions/ holding only the gateway index is Hermes by its routing keys, not by its name', async () => {
    const index = [...hermesCleanTree()].find(([p]) => p === 'sessions/sessions.json')![1] as string;
    const dir = tree('index-alone', { 'sessions/sessions.json': index });
    expect(parts(await audit(join(dir, 'sessions')))).toEqual(['state.db warning']);
    const other = tree('other-index', { 'sessions/sessions.json': '{"abc": {"user": "x"}}\n' });
    expect((await cli(['audit', join(other, 'sessions')])).code).toBe(2);
  });

  test('timeline and inspect read the part given', async () => {
    const db = tree('db-timeline', { 'state.db': cleanDb() });
    const t = await cli(['timeline', join(db, 'state.db'), '--format', 'json']);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('How full is the disk?');
    const files = Object.fromEntries([...hermesCleanTree()].filter(([p]) => p.startsWith('sessions/')));
    const s = tree('sessions-timeline', files as Record<string, string>);
    const ts = await cli(['timeline', join(s, 'sessions'), '--format', 'json']);
    expect(ts.code).toBe(0);
    expect(ts.stdout).toContain('How full is the disk?');
    const i = await cli(['inspect', db]);
    expect(i.code).toBe(0);
    expect(i.stdout).toMatch(/HERMES_PART_MISSING sessions\/: sessions\/ is absent/);
  });

  test('a schema that outgrew page 1 is found on its child pages, past the 32 KB head', async () => {
    const dir = tree('db-vacuumed', {});
    const path = join(dir, 'state.db');
    copyFileSync(join(CLEAN, 'state.db'), path);
    const db = new Database(path);
    // secure_delete zeroes what the schema table leaves behind on page 1 when it splits: no stale statement.
    db.pragma('secure_delete = ON');
    db.exec('VACUUM');
    db.close();
    const bytes = readFileSync(path);
    expect(bytes[100]).toBe(0x05);
    expect(bytes.indexOf('CREATE TABLE sessions')).toBeGreaterThan(32 * 1024);
    expect(parts(await audit(dir))).toEqual(['sessions/ warning']);
  });

  test('a database copied while Hermes writes it, its schema only in state.db-wal, is found in the -wal', async () => {
    const live = tree('db-live', {});
    const db = new Database(join(live, 'state.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    const clean = new Database(join(CLEAN, 'state.db'), { readonly: true });
    const schema = clean
      .prepare(
        'SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ' +
          "AND name NOT LIKE 'messages_fts_%' AND name NOT LIKE 'sqlite_%'",
      )
      .pluck()
      .all() as string[];
    clean.close();
    for (const sql of schema) db.exec(sql);
    // Copied while the connection is open: closing would checkpoint the -wal into state.db and remove it.
    const copy = tree('db-live-copy', {});
    for (const n of ['state.db', 'state.db-wal']) copyFileSync(join(live, n), join(copy, n));
    db.close();
    expect(readFileSync(join(copy, 'state.db')).indexOf('CREATE TABLE sessions')).toBe(-1);
    const r = await audit(copy);
    expect(r.sessions.map((s) => s.format)).toEqual(['hermes']);
    expect(parts(r)).toEqual(['sessions/ warning']);
    // Without its -wal the same state.db is an empty database: not recognisably Hermes's.
    rmSync(join(copy, 'state.db-wal'));
    expect((await cli(['audit', copy])).code).toBe(2);
  });
});

describe('state.db is recognised by its bytes, never by its name', () => {
  const sqlite = (name: string, schema: string): string => {
    const dir = tree(name, {});
    const db = new Database(join(dir, 'state.db'));
    db.exec(schema);
    db.close();
    return dir;
  };

  test.each([
    [
      'another app with sessions and messages tables',
      'CREATE TABLE sessions (id TEXT PRIMARY KEY, agent TEXT NOT NULL, started_at TEXT NOT NULL);' +
        'CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT, ' +
        'timestamp TEXT NOT NULL, content TEXT NOT NULL);',
    ],
    ['an unrelated database', 'CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT);'],
  ])('a SQLite file named state.db: %s', async (name, schema) => {
    const dir = sqlite(`random-${name.replace(/\W+/g, '-')}`, schema);
    const asDir = await cli(['audit', dir]);
    expect(asDir.code).toBe(2);
    expect(asDir.stderr).toMatch(/no session found .*; it holds 1 file \(state\.db\)$/m);
    const asFile = await cli(['audit', join(dir, 'state.db')]);
    expect(asFile.code).toBe(2);
    expect(asFile.stderr).toMatch(/not a session file/);
    // --format-hint hermes does not make a Hermes database of it either, and offers no hint that would.
    const hinted = await cli(['audit', join(dir, 'state.db'), '--format-hint', 'hermes']);
    expect(hinted.code).toBe(2);
    expect(hinted.stderr).not.toMatch(/--format-hint +reads/);
  });

  test("Hermes's schema text in a file that is not a SQLite database", async () => {
    const text = `${readFileSync(join(CLEAN, 'state.db')).subarray(100).toString('latin1')}`;
    const dir = tree('text-state-db', { 'state.db': Buffer.from(text, 'latin1') });
    expect((await cli(['audit', dir])).code).toBe(2);
  });

  test('a folder named sessions without Hermes files stays unclaimed', async () => {
    const dir = tree('other-sessions', { 'sessions/abc.json': '{"user": 1}\n', 'sessions/notes.txt': 'x\n' });
    const r = await cli(['audit', join(dir, 'sessions')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no session found/);
  });
});

test('"no session found" says what the top of the path holds and what discovery passed over', async () => {
  const dir = tree('nothing', {
    'a.txt': 'a\n',
    'b.db': 'b',
    'c.json': '{}\n',
    'logs/x.log': 'x\n',
    'data/y.bin': 'y',
    '.cache/z': 'z',
    'node_modules/m/index.js': '',
  });
  const r = await cli(['audit', dir]);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain(
    '; it holds 2 directories and 3 files (a.txt, b.db, c.json, data/, logs/); dot entries passed over: .cache; ' +
      'not searched: node_modules',
  );
  // A name is the directory's content: shown escaped, so it cannot drive the terminal or break the line.
  const hostile = tree('hostile-name', { 'a\u001b[31mred\nline': '' });
  const h = await cli(['audit', hostile]);
  expect(h.stderr.trim().split('\n')).toHaveLength(1);
  expect(h.stderr).toContain('(a\\e[31mred\\nline)');
  const empty = tree('empty', {});
  expect((await cli(['audit', empty])).stderr).toMatch(/; it is empty$/m);
});
