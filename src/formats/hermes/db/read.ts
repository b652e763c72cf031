/**
 * Reading a private copy of `state.db` (formats/shared/sqlite/with-copy.ts makes and opens it) with SQLite itself,
 * read-only: the WAL state, the schema version, `PRAGMA integrity_check`, the tables and columns, the session rows,
 * and the message rows streamed (never all in memory). Committed transactions still in the `-wal` are read, as
 * Hermes reads them, unless the WAL is not the database's own (shared/sqlite/own.ts, or its frames damage an intact
 * database): then the database is read without it, as it is.
 */
import { renameSync, rmSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { tooDeepText, tooDeepDetail } from '../../../read/json-depth.js';
import { integrity, openCopy, tablesOf } from '../../shared/sqlite/open.js';
import type { CopyLogs } from '../../shared/sqlite/with-copy.js';
import { CALL_PROBLEMS_KEPT, type DbFacts, type DbMessageRow, type DbSessionRow } from './facts.js';

const HEAD = 400;

type Row = Record<string, unknown>;
const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const n = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : undefined;

/** A JSON cell parsed (never one nested deeper than MAX_JSON_DEPTH), or why not. */
function parseCell(text: string): { value: unknown } | { problem: string } {
  const deep = tooDeepText(text);
  if (deep) return { problem: tooDeepDetail(deep) };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { problem: 'not valid JSON' };
  }
}

/** The `model_config` of a session row (undefined when the column is empty), or why it cannot be read. */
function modelConfig(v: unknown): { config?: Row; problem?: string } {
  if (typeof v !== 'string' || v === '') return {};
  const p = parseCell(v);
  if ('problem' in p) return { problem: p.problem };
  const c = p.value;
  return typeof c === 'object' && c !== null && !Array.isArray(c) ? { config: c as Row } : {};
}

function calls(v: unknown): { calls?: DbMessageRow['calls']; problem?: string } {
  if (v === null || v === undefined || v === '') return {};
  const p = parseCell(String(v));
  if ('problem' in p) return { problem: p.problem };
  const parsed = p.value;
  if (!Array.isArray(parsed)) return { problem: 'not a JSON list' };
  return {
    calls: parsed.map((c) => {
      const o = (typeof c === 'object' && c !== null ? c : {}) as Row;
      const f = (typeof o.function === 'object' && o.function !== null ? o.function : {}) as Row;
      return { id: s(o.id) ?? s(o.call_id) ?? '', name: s(f.name) ?? s(o.name) ?? '' };
    }),
  };
}

/** The text of a content cell: Hermes stores list/dict content as "\x00json:" + JSON. */
function head(v: unknown): string {
  const t = typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
  return (t.startsWith('\u0000json:') ? t.slice(6) : t).slice(0, HEAD);
}

export interface OpenDatabase {
  facts: DbFacts;
  /** Close the database (the caller removes the copy after). */
  close(): void;
}

/**
 * Read what the checks need from the private copy `first` (opened by formats/shared/sqlite/with-copy.ts, which
 * judged its -wal and -journal: `logs`) but the message rows, which `facts.rows` streams while the database stays
 * open. `facts` holds what was known before: whether the evidence has a -shm, whether opening rolled a journal back.
 */
export function readDatabase(facts: DbFacts, first: Database.Database, logs: Readonly<CopyLogs>): OpenDatabase {
  const none: OpenDatabase = { facts, close: () => {} };
  facts.walHeader = logs.walHeader ?? false;
  if (logs.walForeign) facts.walForeign = logs.walForeign;
  if (logs.wal) facts.wal = logs.wal;
  if (logs.journalForeign) facts.journalForeign = logs.journalForeign;
  const path = first.name;
  const walPath = `${path}-wal`;
  let db = first;
  try {
    facts.tables = tablesOf(db);
  } catch (e) {
    db.close();
    facts.error = `SQLite cannot read its schema (${(e as Error).message})`;
    return none;
  }
  facts.integrity = integrity(db);
  // A WAL whose frames make a damaged database of an intact one is not this database's: read it without.
  if (facts.integrity.length && facts.wal && facts.wal.committedFrames > 0) {
    db.close();
    renameSync(walPath, `${walPath}.aside`);
    rmSync(`${path}-shm`, { force: true });
    let alone: string[] = ['not opened'];
    try {
      db = open(path, facts);
      alone = integrity(db);
    } catch {
      /* read with the WAL again below */
    }
    if (alone.length === 0) {
      facts.walForeign = [
        `with its frames, integrity_check reports ${facts.integrity.length} problem(s) ` +
          `(${facts.integrity[0]!}); without them, none: its frames are not pages of this database`,
      ];
      delete facts.wal;
      facts.integrity = [];
      facts.tables = tablesOf(db);
    } else {
      db.close();
      rmSync(`${path}-shm`, { force: true });
      renameSync(`${walPath}.aside`, walPath);
      db = open(path, facts);
    }
  }
  const all = (sql: string): Row[] => db.prepare(sql).all() as Row[];
  try {
    if (facts.tables.includes('schema_version')) {
      try {
        facts.schemaVersions = all('SELECT version FROM schema_version').map((r) => n(r.version) ?? Number.NaN);
      } catch (e) {
        facts.schemaVersionProblem = (e as Error).message;
      }
    }
    const cols = (t: string): string[] =>
      facts.tables.includes(t) ? all(`PRAGMA table_info(${t})`).map((r) => String(r.name)) : [];
    facts.sessionColumns = cols('sessions');
    facts.messageColumns = cols('messages');
    try {
      readSessions(facts, db);
      countRows(facts, db);
      facts.rows = (sessions, byId) => streamRows(facts, db, sessions, byId);
    } catch (e) {
      facts.rowsProblem = (e as Error).message;
    }
  } catch (e) {
    db.close();
    throw e;
  }
  return {
    facts,
    close: () => {
      facts.rows = () => {
        throw new Error('the rows of state.db are read during the doc hook only');
      };
      db.close();
    },
  };
}

const open = (path: string, facts: DbFacts): Database.Database =>
  openCopy(path, () => {
    facts.rolledBack = true;
  });

const pick = (have: readonly string[], names: string[]) =>
  names.map((c) => (have.includes(c) ? c : `NULL AS ${c}`)).join(', ');

function readSessions(facts: DbFacts, db: Database.Database): void {
  if (!facts.sessionColumns.includes('id')) return;
  const cols = pick(facts.sessionColumns, [
    'id',
    'source',
    'parent_session_id',
    'started_at',
    'ended_at',
    'end_reason',
    'message_count',
    'tool_call_count',
    'rewind_count',
    'model_config',
  ]);
  for (const r of db.prepare(`SELECT ${cols} FROM sessions ORDER BY started_at, id`).iterate() as Iterable<Row>) {
    const row: DbSessionRow = { id: String(r.id) };
    const set = <K extends keyof DbSessionRow>(k: K, v: DbSessionRow[K] | undefined) => {
      if (v !== undefined) row[k] = v;
    };
    set('source', s(r.source));
    set('parentId', s(r.parent_session_id));
    set('startedAt', n(r.started_at));
    set('endedAt', n(r.ended_at));
    set('endReason', s(r.end_reason));
    set('messageCount', n(r.message_count));
    set('toolCallCount', n(r.tool_call_count));
    set('rewindCount', n(r.rewind_count));
    const mc = modelConfig(r.model_config);
    set('branchedFrom', s(mc.config?._branched_from));
    set('delegateFrom', s(mc.config?._delegate_from));
    set('configProblem', mc.problem);
    facts.sessions.push(row);
  }
}

const hasRows = (facts: DbFacts): boolean =>
  facts.messageColumns.includes('id') && facts.messageColumns.includes('session_id');

/**
 * The sessions that have message rows, with their first row (one entry per session in memory, never one per
 * message; Hermes's idx_messages_session answers it without reading the table). The rows are counted by the first
 * full pass of `rows()`.
 */
function countRows(facts: DbFacts, db: Database.Database): void {
  if (!hasRows(facts)) return;
  const sql = 'SELECT session_id, min(id) AS f FROM messages GROUP BY session_id';
  for (const r of db.prepare(sql).iterate() as Iterable<Row>)
    facts.rowCounts.set(String(r.session_id), { all: 0, active: 0, first: n(r.f) ?? 0 });
}

/** Whether an index of `messages` starts with session_id (Hermes's idx_messages_session): per-session queries. */
function sessionIndexed(db: Database.Database): boolean {
  try {
    for (const ix of db.prepare('PRAGMA index_list(messages)').all() as Row[]) {
      const first = (db.prepare(`PRAGMA index_info(${JSON.stringify(String(ix.name))})`).all() as Row[])[0];
      if (first && first.name === 'session_id') return true;
    }
  } catch {
    /* no index list: sort */
  }
  return false;
}

function toRow(r: Row): DbMessageRow {
  const row: DbMessageRow = {
    id: n(r.id) ?? 0,
    sessionId: String(r.session_id),
    role: s(r.role) ?? '',
    head: head(r.head),
  };
  const tc = s(r.tool_call_id);
  if (tc !== undefined) row.toolCallId = tc;
  const c = calls(r.tool_calls);
  if (c.calls) row.calls = c.calls;
  if (c.problem !== undefined) row.callsProblem = c.problem;
  const ts = n(r.timestamp);
  if (ts !== undefined) row.timestamp = ts;
  const a = n(r.active);
  if (a !== undefined) row.active = a;
  return row;
}

/**
 * The message rows, one at a time (better-sqlite3 `iterate`: SQLite's cursor, never the whole result): by session
 * with one query per session when an index leads with session_id, else one query sorted by SQLite (its sorter
 * spills to temporary files, not to this heap). A read that fails part way ends the stream and says so.
 */
function* streamRows(
  facts: DbFacts,
  db: Database.Database,
  sessions: Iterable<string> | undefined,
  byId: boolean | undefined,
): Generator<DbMessageRow> {
  if (!hasRows(facts)) return;
  const mc = facts.messageColumns;
  const cols =
    `${pick(mc, ['id', 'session_id', 'role', 'tool_call_id', 'tool_calls', 'timestamp', 'active'])}, ` +
    `${mc.includes('content') ? `substr(content, 1, ${HEAD + 6})` : 'NULL'} AS head`;
  try {
    if (byId) {
      for (const r of db.prepare(`SELECT ${cols} FROM messages ORDER BY id`).iterate() as Iterable<Row>) yield toRow(r);
      return;
    }
    const wanted =
      sessions === undefined
        ? [...facts.rowCounts].sort((a, b) => a[1].first - b[1].first).map(([id]) => id)
        : [...new Set(sessions)]
            .filter((id) => facts.rowCounts.has(id))
            .sort((a, b) => facts.rowCounts.get(a)!.first - facts.rowCounts.get(b)!.first);
    // The first pass over every session counts the rows.
    const count = sessions === undefined && !facts.counted;
    const seen = (m: DbMessageRow): DbMessageRow => {
      if (!count) return m;
      const c = facts.rowCounts.get(m.sessionId);
      if (c) {
        c.all++;
        if (m.active !== 0) c.active++;
      }
      facts.messageRows++;
      if (m.callsProblem !== undefined && facts.callProblemCount++ < CALL_PROBLEMS_KEPT)
        facts.callProblems.push({ id: m.id, sessionId: m.sessionId, problem: m.callsProblem });
      return m;
    };
    if (sessions !== undefined || sessionIndexed(db)) {
      const q = db.prepare(`SELECT ${cols} FROM messages WHERE session_id = ? ORDER BY id`);
      for (const id of wanted) for (const r of q.iterate(id) as Iterable<Row>) yield seen(toRow(r));
    } else {
      const sql =
        `SELECT ${cols} FROM messages m JOIN (SELECT session_id AS sid, min(id) AS first FROM messages ` +
        'GROUP BY session_id) f ON m.session_id IS f.sid ORDER BY f.first, m.id';
      for (const r of db.prepare(sql).iterate() as Iterable<Row>) yield seen(toRow(r));
    }
    if (count) facts.counted = true;
  } catch (e) {
    facts.partial ??= (e as Error).message;
  }
}
