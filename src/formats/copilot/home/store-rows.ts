/**
 * The rows of Copilot CLI's `session-store.db` (formats/copilot-cli.md §1.7) that the home's checks need: each
 * session's row (`sessions`: cwd, summary, times) and its turns in order (`turns`: user_message,
 * assistant_response, timestamp). Read as store.ts reads the store: a private copy with its `-wal`
 * (formats/shared/sqlite/), opened read-only, bounded by `--max-db-bytes`, never the evidence itself. Columns
 * differ by schema version: only those the file has are read. A store that cannot be read gives no rows (the
 * store's own session says why: COPILOT_STORE_UNREADABLE).
 */
import type Database from 'better-sqlite3';
import type { SessionSource } from '../../../model/source.js';
import { tablesOf } from '../../shared/sqlite/open.js';
import { withDatabaseCopy } from '../../shared/sqlite/with-copy.js';
import { STORE } from '../artifacts.js';
import { DEFAULT_MAX_DB_BYTES } from '../../shared/sqlite/with-copy.js';

/** Sessions of the store read (as store.ts keeps). */
const MAX_SESSIONS = 100_000;

type Row = Record<string, unknown>;

export interface StoreSessionRow {
  id: string;
  cwd?: string;
  summary?: string;
  createdAt?: string;
  updatedAt?: string;
}

export interface StoreTurnRow {
  index?: number;
  user?: string;
  assistant?: string;
  timestamp?: string;
}

/** What the store holds of its sessions: their rows by id, and each one's turns in turn order. */
export interface StoreRows {
  sessions: StoreSessionRow[];
  turns: ReadonlyMap<string, StoreTurnRow[]>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;
const columnsOf = (db: Database.Database, table: string): string[] =>
  (db.prepare(`PRAGMA table_info(${table})`).all() as Row[]).map((r) => String(r.name));
const pick = (have: readonly string[], names: readonly string[]): string =>
  names.map((c) => (have.includes(c) ? c : `NULL AS ${c}`)).join(', ');

function sessionRow(r: Row): StoreSessionRow {
  const row: StoreSessionRow = { id: String(r.id) };
  const [cwd, summary, createdAt, updatedAt] = [r.cwd, r.summary, r.created_at, r.updated_at].map(str);
  if (cwd) row.cwd = cwd;
  if (summary) row.summary = summary;
  if (createdAt) row.createdAt = createdAt;
  if (updatedAt) row.updatedAt = updatedAt;
  return row;
}

function turnRow(r: Row): StoreTurnRow {
  const t: StoreTurnRow = {};
  const index = num(r.turn_index);
  if (index !== undefined) t.index = index;
  const [user, assistant, timestamp] = [r.user_message, r.assistant_response, r.timestamp].map(str);
  if (user) t.user = user;
  if (assistant) t.assistant = assistant;
  if (timestamp) t.timestamp = timestamp;
  return t;
}

function rowsOf(db: Database.Database): StoreRows {
  const tables = tablesOf(db);
  const sCols = tables.includes('sessions') ? columnsOf(db, 'sessions') : [];
  const tCols = tables.includes('turns') ? columnsOf(db, 'turns') : [];
  if (!sCols.includes('id')) return { sessions: [], turns: new Map() };
  const sessionSql =
    `SELECT ${pick(sCols, ['id', 'cwd', 'summary', 'created_at', 'updated_at'])} FROM sessions ` +
    `ORDER BY id LIMIT ${MAX_SESSIONS}`;
  const sessions = (db.prepare(sessionSql).all() as Row[]).map(sessionRow);
  const turns = new Map<string, StoreTurnRow[]>(sessions.map((s) => [s.id, []]));
  if (tCols.includes('session_id')) {
    const order = ['session_id', ...['turn_index', 'id'].filter((c) => tCols.includes(c))].join(', ');
    const turnSql =
      `SELECT session_id, ${pick(tCols, ['turn_index', 'user_message', 'assistant_response', 'timestamp'])} ` +
      `FROM turns ORDER BY ${order}`;
    for (const r of db.prepare(turnSql).iterate() as Iterable<Row>) turns.get(String(r.session_id))?.push(turnRow(r));
  }
  return { sessions, turns };
}

/**
 * The home's store, read from its private copy (removed before this returns); undefined when the home has none or
 * it cannot be read (the store's own session says why). Every turn's text is kept: a check's judgement and the
 * recall the secret scan asks for share one read (HomeCheckContext.memo).
 */
export function readStoreRows(source: SessionSource, maxDbBytes: number | undefined): StoreRows | undefined {
  if (source.entry(STORE)?.type !== 'file') return undefined;
  const opts = { maxDbBytes: maxDbBytes ?? DEFAULT_MAX_DB_BYTES, journal: false, rollback: false };
  const r = withDatabaseCopy(source, STORE, opts, rowsOf);
  return r.ok ? r.value : undefined;
}

/**
 * A time the store records as an ISO string (`2026-04-06T08:41:14.786Z`) or as SQLite's `datetime('now')` default
 * writes it (`2026-04-06 08:41:14`, UTC), in ms; undefined when it is neither.
 */
export function storeTimeMs(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const sqlite = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/.exec(v);
  const ms = Date.parse(sqlite ? `${sqlite[1]}T${sqlite[2]}Z` : v);
  return Number.isFinite(ms) && /^\d{4}-\d{2}-\d{2}/.test(v) ? ms : undefined;
}
