/**
 * `worktrees.db` (home-artifacts.md §1.5): Grok's worktree pool, a `worktrees` table (`id, path, source_repo,
 * repo_name, kind, session_id, creator_pid, created_at, last_accessed_at, status`, …) and a `meta` table,
 * SCHEMA_VERSION 1; on a network filesystem one `worktrees.h-<host>.db` per host. Read from a private copy with its
 * `-wal` and `-journal` (formats/shared/sqlite/: the evidence is never opened by SQLite; a log that is not the
 * database's own is left out), opened read-only, bounded by the cap on a database's size. Never throws.
 */
import type Database from 'better-sqlite3';
import type { SessionSource } from '../../../model/source.js';
import { integrity, tablesOf } from '../../shared/sqlite/open.js';
import { withDatabaseCopy } from '../../shared/sqlite/with-copy.js';
import { DEFAULT_MAX_DB_BYTES } from '../../shared/sqlite/with-copy.js';

export const WORKTREE_FILES: readonly string[] = ['worktrees.db', 'worktrees.h-*.db'].flatMap((b) => [
  b,
  `${b}-wal`,
  `${b}-journal`,
]);
const DB_RE = /^worktrees(?:\.h-[^/]+)?\.db$/;
export const worktreeDbs = (paths: readonly string[]): string[] => paths.filter((p) => DB_RE.test(p));

/** Rows kept (a larger pool is judged on these, and says so). */
const MAX_ROWS = 100_000;
const NEEDED = ['id', 'path', 'session_id', 'status', 'created_at'];

export interface WorktreeRow {
  id: string;
  path: string;
  sessionId?: string;
  status: string;
  kind?: string;
  repoName?: string;
  /** Unix time as stored (seconds or milliseconds: the writer's unit is not pinned). */
  createdAt?: number;
  creatorPid?: number;
}

export interface WorktreeFacts {
  error?: string;
  /** What was read, but not whole: an integrity problem, a foreign log left out, rows beyond the cap. */
  partial: string[];
  schemaVersion?: string;
  rows: WorktreeRow[];
}

type Row = Record<string, unknown>;
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : undefined;
const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : undefined;

function readRows(db: Database.Database, facts: WorktreeFacts): void {
  const tables = tablesOf(db);
  if (!tables.includes('worktrees')) {
    facts.error = `it has no worktrees table (its tables: ${tables.slice(0, 10).join(', ') || 'none'})`;
    return;
  }
  const cols = (db.prepare('PRAGMA table_info(worktrees)').all() as Row[]).map((r) => String(r.name));
  const lacking = NEEDED.filter((c) => !cols.includes(c));
  if (lacking.length) {
    facts.error = `its worktrees table lacks ${lacking.join(', ')}: a schema this audit does not know`;
    return;
  }
  if (tables.includes('meta')) {
    const cell = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as Row | undefined;
    const v = text(cell?.value);
    if (v !== undefined) facts.schemaVersion = v;
  }
  const opt = (c: string) => (cols.includes(c) ? c : `NULL AS ${c}`);
  const sql =
    `SELECT id, path, session_id, status, created_at, ${opt('kind')}, ${opt('repo_name')}, ${opt('creator_pid')} ` +
    'FROM worktrees ORDER BY created_at, id';
  for (const r of db.prepare(sql).iterate() as Iterable<Row>) {
    if (facts.rows.length >= MAX_ROWS) {
      facts.partial.push(`only its first ${MAX_ROWS} rows were judged`);
      break;
    }
    const row: WorktreeRow = { id: text(r.id) ?? String(r.id), path: text(r.path) ?? '', status: text(r.status) ?? '' };
    const sid = text(r.session_id);
    if (sid !== undefined && sid !== '') row.sessionId = sid;
    const kind = text(r.kind);
    if (kind !== undefined) row.kind = kind;
    const repo = text(r.repo_name);
    if (repo !== undefined) row.repoName = repo;
    const created = num(r.created_at);
    if (created !== undefined) row.createdAt = created;
    const pid = num(r.creator_pid);
    if (pid !== undefined) row.creatorPid = pid;
    facts.rows.push(row);
  }
}

/** Read one worktree pool of the home (`rel` relative to it) from a private copy, removed before this returns. */
export function readWorktreesDb(source: SessionSource, rel: string, maxDbBytes = DEFAULT_MAX_DB_BYTES): WorktreeFacts {
  const facts: WorktreeFacts = { partial: [], rows: [] };
  const r = withDatabaseCopy(source, rel, { maxDbBytes }, (db) => {
    const problems = integrity(db);
    if (problems.length)
      facts.partial.push(`PRAGMA integrity_check reports ${problems.length} problem(s) (${problems[0]!})`);
    readRows(db, facts);
  });
  const left = (log: string, why: readonly string[] | undefined): string[] =>
    why?.length ? [`its ${log} is not its own (${why.join('; ')}) and was left out`] : [];
  facts.partial.unshift(...left('-wal', r.walForeign), ...left('-journal', r.journalForeign));
  if (!r.ok) facts.error = r.error;
  return facts;
}
