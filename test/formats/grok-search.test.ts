/**
 * Grok's session search index (home-artifacts.md §1.1): the clean home (session_search.sqlite with a row for every
 * session) audits to no home code; each corpora case produces its codes and no other GROK_SEARCH_ code; a copied
 * clean home with sessions deleted reports exactly the deleted sessions, once each, with their source; nothing in
 * the home changes (the tree's fingerprints before and after); a corrupt index is one finding, never a stack
 * trace; a secret in a row's prompt never reaches the report.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  grokSearchCases,
  grokSearchParts,
  renderGrokSearch,
  searchDb,
} from '../../scripts/corpora/cases-grok-search.js';
import { PLANTED } from '../../scripts/corpora/secrets.js';
import type { SessionRow } from '../../src/model/session-row.js';
import { GROK_HOME } from '../../src/formats/grok/home/index.js';
import { componentGlob, homeFiles } from '../../src/read/home-files.js';
import { cli } from '../helpers/cli.js';
import { auditCase, auditFiles, auditHome, caseNamed, sessionNamed, writeFiles } from '../helpers/home-cases.js';
import { treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'grok-search-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const isSearch = (c: string) => c.startsWith('GROK_SEARCH_') || c === 'SECRET_IN_HOME';

describe('the corpora cases', () => {
  for (const c of grokSearchCases())
    test(c.name, async () => {
      await auditCase(join(tmp, 'cases', c.name), c, isSearch, c.name === 'home-search-clean');
    });

  test('home-search-gone: older than the TTL a note, newer a warning, the key redacted', async () => {
    const { home } = await auditFiles(join(tmp, 'gone-grades'), caseNamed(grokSearchCases(), 'home-search-gone').files);
    const rows = home.filter((f) => f.code === 'GROK_SEARCH_ROW_WITHOUT_SESSION');
    expect(rows.map((f) => [sessionNamed(f)?.slice(-4), f.severity]).sort()).toEqual([
      ['b001', 'note'],
      ['b002', 'warning'],
    ]);
    const b002 = rows.find((f) => sessionNamed(f)?.endsWith('b002'))!;
    expect(b002.message).toContain('[REDACTED:');
    expect(b002.message).toContain('title "Deploy to staging"');
    expect(b002.location.file).toBe('sessions/session_search.sqlite');
  });

  test('home-search-quarantine: the orphan is reported with the quarantine as its source', async () => {
    const { home } = await auditFiles(
      join(tmp, 'quarantine'),
      caseNamed(grokSearchCases(), 'home-search-quarantine').files,
    );
    const row = home.find((f) => f.code === 'GROK_SEARCH_ROW_WITHOUT_SESSION')!;
    expect(row.location.file).toMatch(/^sessions\/session_search\.sqlite\.corrupt\.[0-9]+$/);
    expect(home.find((f) => f.code === 'GROK_SEARCH_QUARANTINE')!.message).toContain('2026-08-15');
  });
});

describe('a copied clean home with sessions deleted', () => {
  const dir = join(tmp, 'deleted');
  const parts = grokSearchParts();
  writeFiles(dir, renderGrokSearch(parts));
  // The fork and the sub-agent's session: their directories go, their rows stay.
  const deleted = parts.rows.filter((r) => /a00[23]$/.test(r.id));
  for (const r of deleted)
    rmSync(join(dir, '.grok', 'sessions', '%2Fhome%2Fdev%2Fproj', r.id), { recursive: true, force: true });
  let before: Map<string, string>;

  test('every deleted session is reported once with its source, none invented', async () => {
    before = treeState(dir);
    const { home } = await auditHome(dir);
    const orphans = home.filter((f) => f.code.startsWith('GROK_SEARCH_ROW_'));
    expect(orphans.map((f) => sessionNamed(f)).sort()).toEqual(deleted.map((r) => r.id).sort());
    for (const f of orphans) {
      expect(f.location.file).toBe('sessions/session_search.sqlite');
      expect(f.message).toContain(deleted.find((r) => r.id === sessionNamed(f))!.cwd);
    }
    expect(home.every((f) => deleted.some((r) => r.id === sessionNamed(f)))).toBe(true);
  });

  test('the sessions list shows them as gone, with their source', async () => {
    const r = await cli(['sessions', dir, '--format', 'json']);
    const rows = JSON.parse(r.stdout) as { sessions?: SessionRow[] } | SessionRow[];
    const list = Array.isArray(rows) ? rows : (rows.sessions ?? []);
    const gone = list.filter((x) => x.gone);
    expect(gone.map((g) => g.id).sort()).toEqual(deleted.map((x) => x.id).sort());
    // The fork's own prompt is in the cwd's prompt history too: either file may be named as its source.
    for (const g of gone)
      expect(g.gone).toMatch(/\.grok\/sessions\/(session_search\.sqlite|%2Fhome%2Fdev%2Fproj\/prompt_history\.jsonl)$/);
  });

  test('read-only: the tree is unchanged', () => {
    expect(treeState(dir)).toEqual(before);
  });
});

test('a truncated index is one finding, not a crash', async () => {
  const dir = join(tmp, 'cut');
  const files = renderGrokSearch(grokSearchParts());
  const db = files.get('.grok/sessions/session_search.sqlite') as Buffer;
  files.set('.grok/sessions/session_search.sqlite', db.subarray(0, 1024 + 100));
  writeFiles(dir, files);
  const { report, home, raw } = await auditHome(dir);
  expect(report.toolErrors ?? []).toEqual([]);
  expect(home.map((f) => f.code)).toEqual(['GROK_SEARCH_DB_UNREADABLE']);
  expect(raw).not.toMatch(/\n\s+at .*\.ts:\d+/);
});

test('a secret in a row of a gone session never appears in the report', async () => {
  const dir = join(tmp, 'secret');
  const parts = grokSearchParts();
  const secret = PLANTED['uri-password']!;
  parts.rows.push({
    id: '019a3000-0000-7000-8000-00000000b0ee',
    cwd: '/home/dev/proj',
    updatedAt: parts.rows[0]!.updatedAt,
    title: '',
    content: `Connect with ${secret} and migrate.\n\nDone.\n\n`,
  });
  writeFiles(dir, renderGrokSearch(parts));
  const { home, raw } = await auditHome(dir);
  expect(home.map((f) => f.code)).toEqual(['GROK_SEARCH_ROW_WITHOUT_SESSION', 'SECRET_IN_HOME']);
  expect(raw).not.toContain('Pg7sQ2xVb9LmW4rT');
  const r = await cli(['sessions', dir, '--format', 'json']);
  expect(r.stdout).not.toContain('Pg7sQ2xVb9LmW4rT');
  expect(searchDb([], {}).subarray(0, 15).toString()).toBe('SQLite format 3');
});

test('home files: a `*` inside a component matches within that one name, never a leading dot, never the -shm', () => {
  const home = join(tmp, 'names', '.grok');
  const names = [
    'session_search.sqlite',
    'session_search.sqlite-wal',
    'session_search.sqlite-shm',
    'session_search.sqlite.lock',
    'session_search.h-devbox.sqlite',
    'session_search.h-devbox.sqlite-journal',
    'session_search.sqlite.corrupt.1786795200000000000',
    'session_search.sqlite-wal.corrupt.1786795200000000000',
    'session_search.sqlite-shm.corrupt.1786795200000000000',
  ];
  for (const n of names) writeFiles(home, new Map([[`sessions/${n}`, '']]));
  writeFiles(
    home,
    new Map([
      ['relocations/a.json', '{}'],
      ['relocations/.b.json', '{}'],
      ['relocations/c.txt', ''],
    ]),
  );
  expect(homeFiles(home, GROK_HOME.files)).toEqual(
    [
      'relocations/a.json',
      ...names.filter((n) => !n.includes('-shm') && !n.endsWith('.lock')).map((n) => `sessions/${n}`),
    ].sort(),
  );
  expect(componentGlob('*.json')!.test('.x.json')).toBe(false);
  expect(componentGlob('a.*')!.test('a.b/c')).toBe(false);
  expect(componentGlob('plain')).toBeUndefined();
});

test("a row dated after the audit's clock is said to be, and is never the time ages are measured against", async () => {
  const dir = join(tmp, 'future');
  const parts = grokSearchParts();
  const base = { cwd: '/home/dev/proj', title: '', content: 'Old prompt.\n\n\n\n' };
  parts.meta.last_bootstrap_at = '1000';
  parts.rows.push({ ...base, id: '019a3000-0000-7000-8000-00000000b0f1', updatedAt: Date.UTC(2099, 0, 1) / 1000 });
  parts.rows.push({ ...base, id: '019a3000-0000-7000-8000-00000000b0f2', updatedAt: Date.UTC(2026, 7, 1) / 1000 });
  writeFiles(dir, renderGrokSearch(parts));
  const { home } = await auditHome(dir);
  const by = new Map(home.map((f) => [sessionNamed(f)?.slice(-4), f]));
  expect(by.get('b0f1')!.message).toContain("after the audit's clock");
  // 2026-08-01 is within the TTL of the clean rows (2026-08-19), not of 2099.
  expect(by.get('b0f2')!.severity).toBe('warning');
  expect(by.get('b0f2')!.message).toContain('2026-08-19T09:31:46');
});

test('an index that is a symlink is one finding, never followed', async () => {
  const dir = join(tmp, 'symlink');
  const files = renderGrokSearch(grokSearchParts());
  const db = files.get('.grok/sessions/session_search.sqlite') as Buffer;
  files.delete('.grok/sessions/session_search.sqlite');
  writeFiles(dir, files);
  writeFileSync(join(dir, 'elsewhere.sqlite'), db);
  symlinkSync('../../elsewhere.sqlite', join(dir, '.grok', 'sessions', 'session_search.sqlite'));
  const { home } = await auditHome(dir);
  expect(home.map((f) => f.code)).toEqual(['GROK_SEARCH_DB_UNREADABLE']);
  expect(home[0]!.message).toContain('not a regular file');
});
