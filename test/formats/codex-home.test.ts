/**
 * Codex home artifacts (home-artifacts.md §2): the clean home (state_5.sqlite, session_index.jsonl, history.jsonl
 * beside the rollouts) audits to no home code; each case produces its code; a copied clean home with rollouts
 * deleted reports exactly the deleted sessions, each with its source, none invented; nothing in the home changes
 * (every file's fingerprint before and after); a database that is not one is a finding, not a crash.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  codexHomeCases,
  codexHomeParts,
  renderHome,
  stateDb,
  threadOf,
} from '../../scripts/corpora/cases-codex-home.js';
import type { AuditReport } from '../../src/model/report.js';
import type { SessionRow } from '../../src/model/session-row.js';
import { cli } from '../helpers/cli.js';
import { auditCase, auditHome, firstSessionId, writeFiles } from '../helpers/home-cases.js';
import { treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'codex-home-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const HOME_PREFIXES = ['CODEX_STATE_', 'CODEX_SECURITY_', 'CODEX_SESSION_INDEX_', 'CODEX_HISTORY_'];
const isHomeCode = (c: string) => HOME_PREFIXES.some((p) => c.startsWith(p));

describe('the corpora cases', () => {
  for (const c of codexHomeCases())
    test(c.name, async () => {
      await auditCase(join(tmp, 'cases', c.name), c, isHomeCode, c.name === 'home-clean');
    });
});

describe('a copied clean home with rollouts deleted', () => {
  const dir = join(tmp, 'deleted');
  const homeAbs = join(dir, '.codex');
  const parts = codexHomeParts();
  // The rows name this home: a deletion here is a warning, not a moved home's note.
  parts.threads = parts.rollouts.map((r) => threadOf(r, homeAbs));
  writeFiles(dir, renderHome(parts));
  const deleted = parts.rollouts.filter((r) => /c00[24]$/.test(r.id));
  for (const r of deleted) unlinkSync(join(homeAbs, r.path));
  let before: Map<string, string>;

  test('every deleted session is reported with its source, none invented', async () => {
    before = treeState(dir);
    const { home } = await auditHome(dir);
    const orphans = home.filter((f) => f.code === 'CODEX_STATE_THREAD_WITHOUT_ROLLOUT');
    expect(orphans.map((f) => firstSessionId(f)).sort()).toEqual(deleted.map((r) => r.id).sort());
    for (const f of orphans) {
      expect(f.severity).toBe('warning');
      expect(f.location.file).toBe('state_5.sqlite');
      const r = deleted.find((x) => x.id === firstSessionId(f))!;
      expect(f.message).toContain(r.cwd);
    }
    // The fork is named in session_index.jsonl too: that file reports it as well.
    const named = home.filter((f) => f.code === 'CODEX_SESSION_INDEX_WITHOUT_ROLLOUT').map((f) => firstSessionId(f));
    expect(named).toEqual(deleted.filter((r) => parts.index.some((l) => l.includes(r.id))).map((r) => r.id));
    expect(home.every((f) => deleted.some((r) => r.id === firstSessionId(f)))).toBe(true);
  });

  test('the sessions list shows them as gone, with their source', async () => {
    const r = await cli(['sessions', dir, '--format', 'json']);
    const rows = JSON.parse(r.stdout) as { sessions?: SessionRow[] } | SessionRow[];
    const list = Array.isArray(rows) ? rows : (rows.sessions ?? []);
    const gone = list.filter((x) => x.gone);
    expect([...new Set(gone.map((g) => g.id))].sort()).toEqual(deleted.map((x) => x.id).sort());
    // One row per session, naming every home file that knows it.
    expect(gone.length).toBe(new Set(gone.map((g) => g.id)).size);
    for (const g of gone)
      for (const p of g.gone!.split(', '))
        expect(p).toMatch(/\.codex\/(state_5\.sqlite|session_index\.jsonl|history\.jsonl)$/);
    const paged = gone.find((g) => g.id.endsWith('c004') && g.gone!.includes('state_5.sqlite'))!;
    expect(paged.prompts).toBeGreaterThanOrEqual(1);
    expect(paged.project).toBe(deleted.find((x) => x.id === paged.id)!.cwd);
  });

  test('read-only: every file is unchanged', () => {
    expect(treeState(dir)).toEqual(before);
  });
});

test('a database with a WAL: the rows only in the -wal are read; the -shm is never read', async () => {
  const dir = join(tmp, 'wal');
  const parts = codexHomeParts();
  writeFiles(dir, renderHome(parts));
  const dbPath = join(dir, '.codex', 'state_5.sqlite');
  // Put the rows in a WAL the database has not checkpointed: a copy of the db opened in WAL mode by SQLite.
  const { default: Database } = await import('better-sqlite3');
  writeFileSync(dbPath, stateDb([]));
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  const live = new Database(dbPath);
  live.prepare('SELECT count(*) FROM threads').get();
  const extra = { ...threadOf(parts.rollouts[0]!), id: '019cb100-0000-7000-8000-00000000c0ee' };
  db.prepare(
    'INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, ' +
      "sandbox_policy, approval_mode) VALUES (?, ?, ?, ?, 'cli', 'openai', ?, ?, '{}', 'on-request')",
  ).run(extra.id, extra.rolloutPath, extra.createdAt, extra.updatedAt, extra.cwd, 'only in the WAL');
  // Copy the three files while both connections are open (the WAL is not checkpointed into the db).
  const snap = join(tmp, 'wal-copy', '.codex');
  mkdirSync(snap, { recursive: true });
  for (const [rel, c] of renderHome(parts))
    if (rel !== '.codex/state_5.sqlite' && (typeof c === 'string' || Buffer.isBuffer(c))) {
      mkdirSync(dirname(join(tmp, 'wal-copy', rel)), { recursive: true });
      writeFileSync(join(tmp, 'wal-copy', rel), c);
    }
  for (const s of ['', '-wal', '-shm']) writeFileSync(join(snap, `state_5.sqlite${s}`), readFileSync(`${dbPath}${s}`));
  live.close();
  db.close();
  writeFileSync(join(snap, 'state_5.sqlite-shm'), Buffer.alloc(32768, 0xff));
  const before = treeState(join(tmp, 'wal-copy'));
  const { home } = await auditHome(join(tmp, 'wal-copy'));
  expect(home.map((f) => [f.code, firstSessionId(f)])).toEqual([['CODEX_STATE_THREAD_WITHOUT_ROLLOUT', extra.id]]);
  expect(home[0]!.message).toContain('only in the WAL');
  expect(treeState(join(tmp, 'wal-copy'))).toEqual(before);
});

test('a truncated database is a finding, not a crash', async () => {
  const dir = join(tmp, 'cut');
  const files = renderHome(codexHomeParts());
  const db = files.get('.codex/state_5.sqlite') as Buffer;
  files.set('.codex/state_5.sqlite', db.subarray(0, 1024 + 100));
  writeFiles(dir, files);
  const { report, home } = await auditHome(dir);
  expect(report.toolErrors ?? []).toEqual([]);
  expect(home.map((f) => f.code)).toContain('CODEX_STATE_DB_UNREADABLE');
});

test('--max-db-bytes bounds the state database as it bounds every database: a larger one is not read', async () => {
  const dir = join(tmp, 'capped');
  writeFiles(dir, renderHome(codexHomeParts()));
  const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never', '--max-db-bytes', '4096']);
  const report = JSON.parse(r.stdout) as AuditReport;
  const unreadable = report.findings.filter((f) => f.code === 'CODEX_STATE_DB_UNREADABLE');
  expect(unreadable.map((f) => f.message)).toEqual([expect.stringMatching(/larger than the cap \(\d+ > 4096 bytes/)]);
});
