/**
 * `state_5.sqlite` (home-artifacts.md §2.1, §2.2): Codex's thread index, SQLite in WAL mode. Read from a private
 * copy with its `-wal` and `-journal` (formats/shared/sqlite/: the evidence is never opened by SQLite; never the
 * `-shm`), opened read-only; a log that is not the database's own is left out. Columns differ by version (sqlx
 * migrations add them): only those the file has are read. What is kept: the `threads` rows and, when the table
 * exists, the threads `security_events` names with their counts and times.
 */
import type Database from 'better-sqlite3';
import type { SessionSource } from '../../../model/source.js';
import { integrity, tablesOf } from '../../shared/sqlite/open.js';
import { DEFAULT_MAX_DB_BYTES, withDatabaseCopy } from '../../shared/sqlite/with-copy.js';

export const STATE_DB = 'state_5.sqlite';
/** Rows of `threads` kept (a larger index is judged on these, and says so). */
const MAX_THREADS = 200_000;

type Row = Record<string, unknown>;

export interface ThreadRow {
  id: string;
  rolloutPath?: string;
  createdAt?: unknown;
  updatedAt?: unknown;
  cwd?: string;
  title?: string;
  firstUserMessage?: string;
  archived?: number;
}

export interface SecurityThread {
  threadId: string;
  events: number;
  kinds: string[];
  firstAt?: unknown;
  lastAt?: unknown;
}

export interface StateFacts {
  error?: string;
  integrity: string[];
  walForeign?: string[];
  journalForeign?: string[];
  tables: string[];
  threadColumns: string[];
  threads: ThreadRow[];
  truncated: boolean;
  /** Undefined when the database has no security_events table. */
  security?: SecurityThread[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;

const pick = (have: readonly string[], names: readonly string[]): string =>
  names.map((c) => (have.includes(c) ? c : `NULL AS ${c}`)).join(', ');

const THREAD_COLUMNS = [
  'id',
  'rollout_path',
  'created_at',
  'updated_at',
  'cwd',
  'title',
  'first_user_message',
  'archived',
] as const;

function readThreads(db: Database.Database, facts: StateFacts): void {
  const cols = (db.prepare('PRAGMA table_info(threads)').all() as Row[]).map((r) => String(r.name));
  facts.threadColumns = cols;
  if (!cols.includes('id')) return;
  const sql = `SELECT ${pick(cols, THREAD_COLUMNS)} FROM threads ORDER BY id`;
  for (const r of db.prepare(sql).iterate() as Iterable<Row>) {
    if (facts.threads.length >= MAX_THREADS) {
      facts.truncated = true;
      break;
    }
    const row: ThreadRow = { id: String(r.id) };
    const rp = str(r.rollout_path);
    if (rp !== undefined) row.rolloutPath = rp;
    if (r.created_at !== null) row.createdAt = r.created_at;
    if (r.updated_at !== null) row.updatedAt = r.updated_at;
    const cwd = str(r.cwd);
    if (cwd !== undefined) row.cwd = cwd;
    const title = str(r.title);
    if (title !== undefined) row.title = title;
    const first = str(r.first_user_message);
    if (first !== undefined) row.firstUserMessage = first;
    const a = num(r.archived);
    if (a !== undefined) row.archived = a;
    facts.threads.push(row);
  }
}

function readSecurity(db: Database.Database, facts: StateFacts): void {
  const cols = (db.prepare('PRAGMA table_info(security_events)').all() as Row[]).map((r) => String(r.name));
  if (!cols.includes('thread_id')) return;
  const kind = cols.includes('kind') ? 'group_concat(DISTINCT kind)' : 'NULL';
  const at = cols.includes('created_at');
  const sql =
    `SELECT thread_id, count(*) AS n, ${kind} AS kinds, ${at ? 'min(created_at)' : 'NULL'} AS f, ` +
    `${at ? 'max(created_at)' : 'NULL'} AS l FROM security_events WHERE thread_id IS NOT NULL ` +
    'GROUP BY thread_id ORDER BY thread_id';
  facts.security = [];
  for (const r of db.prepare(sql).iterate() as Iterable<Row>) {
    if (facts.security.length >= MAX_THREADS) break;
    const kinds = str(r.kinds);
    facts.security.push({
      threadId: String(r.thread_id),
      events: num(r.n) ?? 0,
      kinds: kinds ? kinds.split(',').sort() : [],
      ...(r.f !== null ? { firstAt: r.f } : {}),
      ...(r.l !== null ? { lastAt: r.l } : {}),
    });
  }
}

/** Read the home's state DB from a private copy (removed before this returns); never throws. */
export function readStateDb(source: SessionSource, maxDbBytes = DEFAULT_MAX_DB_BYTES): StateFacts {
  const facts: StateFacts = { integrity: [], tables: [], threadColumns: [], threads: [], truncated: false };
  const r = withDatabaseCopy(source, STATE_DB, { maxDbBytes }, (db) => {
    facts.tables = tablesOf(db);
    facts.integrity = integrity(db);
    if (facts.tables.includes('threads')) readThreads(db, facts);
    if (facts.tables.includes('security_events')) readSecurity(db, facts);
  });
  if (r.walForeign) facts.walForeign = r.walForeign;
  if (r.journalForeign) facts.journalForeign = r.journalForeign;
  if (!r.ok) facts.error = r.error;
  return facts;
}
