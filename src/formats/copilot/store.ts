/**
 * `session-store.db` (formats/copilot-cli.md §1.7): the CLI's cross-session index, SQLite in WAL mode, "a subset
 * of the full data stored in the session files". Read from a private copy with its `-wal` (formats/shared/sqlite/:
 * the evidence is never opened by SQLite; read without the WAL the store misses its latest turns), opened
 * read-only; a WAL that is not the database's own is left out. What is kept: the schema version, the integrity
 * check, and per session the row and its number of turns; never the turns' text (the log has it).
 */
import type Database from 'better-sqlite3';
import type { SessionSource } from '../../model/source.js';
import type { WalState } from '../shared/sqlite/wal.js';
import { DEFAULT_MAX_DB_BYTES, withDatabaseCopy } from '../shared/sqlite/with-copy.js';
import type { LoadLimits } from '../types.js';
import { STORE, UUID_RE } from './artifacts.js';

/** The doc kind the store's facts are handed on in. */
export const STORE_KIND = 'copilot-store';
/** Sessions of the store kept (a store of more is compared on these). */
const MAX_SESSIONS = 100_000;

export interface StoreFacts {
  error?: string;
  schemaVersion?: number;
  integrity: string[];
  wal?: WalState;
  walForeign?: string[];
  hasWal: boolean;
  tables: string[];
  /**
   * Per session id: its turns; and what the home holds of it (compareLogs): the user messages of its log, or
   * `log: false` when it has none, `files: false` when not even its workspace.yaml is there.
   */
  sessions: Array<{ id: string; turns: number; updatedAt?: string; logTurns?: number; log?: boolean; files?: boolean }>;
  truncated: boolean;
}

type Row = Record<string, unknown>;

function readOpen(db: Database.Database, facts: StoreFacts): void {
  const all = (sql: string): Row[] => db.prepare(sql).all() as Row[];
  facts.tables = all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((r) => String(r.name));
  facts.integrity = all('PRAGMA integrity_check(20)')
    .map((r) => String(Object.values(r)[0]))
    .filter((t) => t !== 'ok');
  if (facts.tables.includes('schema_version')) {
    const v = all('SELECT max(version) AS v FROM schema_version')[0]?.v;
    if (typeof v === 'number') facts.schemaVersion = v;
  }
  if (!facts.tables.includes('sessions')) return;
  const turns = new Map<string, number>();
  if (facts.tables.includes('turns'))
    for (const r of db
      .prepare('SELECT session_id, count(*) AS n FROM turns GROUP BY session_id')
      .iterate() as Iterable<Row>)
      turns.set(String(r.session_id), Number(r.n));
  const cols = all('PRAGMA table_info(sessions)').map((r) => String(r.name));
  const updated = cols.includes('updated_at') ? 'updated_at' : 'NULL AS updated_at';
  for (const r of db.prepare(`SELECT id, ${updated} FROM sessions ORDER BY id`).iterate() as Iterable<Row>) {
    if (facts.sessions.length >= MAX_SESSIONS) {
      facts.truncated = true;
      break;
    }
    const id = String(r.id);
    facts.sessions.push({
      id,
      turns: turns.get(id) ?? 0,
      ...(typeof r.updated_at === 'string' ? { updatedAt: r.updated_at } : {}),
    });
  }
}

/** Read the store of a home session from a private copy (removed before this returns). */
export function readStore(source: SessionSource, limits: LoadLimits): StoreFacts {
  const facts: StoreFacts = {
    integrity: [],
    tables: [],
    sessions: [],
    truncated: false,
    hasWal: source.entry(`${STORE}-wal`)?.type === 'file',
  };
  const cap = limits.maxDbBytes ?? DEFAULT_MAX_DB_BYTES;
  const r = withDatabaseCopy(source, STORE, { maxDbBytes: cap, journal: false, rollback: false }, (db) =>
    readOpen(db, facts),
  );
  if (r.walForeign) facts.walForeign = r.walForeign;
  if (r.wal) facts.wal = r.wal;
  if (!r.ok) facts.error = r.error;
  return facts;
}

/** Sessions whose logs are read to compare (the store of a larger home is compared on these). */
const MAX_COMPARED = 2_000;

/**
 * For each session of the store (by a UUID id only: the id is the store's, hostile text), the user messages of its
 * log beside the store (`session-state/<id>/events.jsonl`, else the flat `session-state/<id>.jsonl`), read
 * read-only and never as this session's evidence.
 */
export function compareLogs(source: SessionSource, facts: StoreFacts, limits: LoadLimits): void {
  const opts = { maxLineBytes: limits.maxLineBytes };
  let n = 0;
  for (const s of facts.sessions) {
    if (!UUID_RE.test(s.id) || n++ >= MAX_COMPARED) continue;
    let turns = 0;
    const count = (r: { value: unknown }) => {
      const v = r.value as { type?: unknown } | null;
      if (typeof v === 'object' && v !== null && v.type === 'user.message') turns++;
    };
    const r =
      source.streamContext(0, `session-state/${s.id}/events.jsonl`, opts, count) ??
      source.streamContext(0, `session-state/${s.id}.jsonl`, opts, count);
    if (r?.ok) {
      s.log = true;
      s.logTurns = turns;
      continue;
    }
    s.log = false;
    const ws = source.streamContext(0, `session-state/${s.id}/workspace.yaml`, { maxLineBytes: 1024 }, () => {});
    s.files = ws !== undefined;
  }
}
