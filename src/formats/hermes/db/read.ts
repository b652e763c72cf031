/**
 * Reading a private copy of `state.db` (db/copy.ts) with SQLite itself, read-only: the WAL state, the schema
 * version, `PRAGMA integrity_check`, the tables and columns, and the session and message rows the checks need.
 * Committed transactions still in the `-wal` are read, as Hermes reads them.
 */
import { readFileSync, existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tooDeepText, tooDeepDetail } from '../../../read/json-depth.js';
import { walState } from './wal.js';
import { blankFacts, type DbFacts, type DbMessageRow, type DbSessionRow } from './facts.js';

const INTEGRITY_ROWS = 100;
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

export function readDatabase(rel: string, path: string): DbFacts {
  const facts: DbFacts = { ...blankFacts(rel), hasShm: existsSync(`${path}-shm`) };
  const header = readFileSync(path).subarray(0, 100);
  if (header.length < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') {
    facts.error = 'it is not a SQLite 3 database (no "SQLite format 3" header)';
    return facts;
  }
  facts.walHeader = header[18] === 2 && header[19] === 2;
  if (existsSync(`${path}-wal`)) facts.wal = walState(readFileSync(`${path}-wal`));
  let db: Database.Database;
  try {
    db = open(path, facts);
  } catch (e) {
    facts.error = `SQLite cannot open it (${(e as Error).message})`;
    return facts;
  }
  try {
    const all = (sql: string): Row[] => db.prepare(sql).all() as Row[];
    try {
      facts.tables = all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map((r) =>
        String(r.name),
      );
    } catch (e) {
      facts.error = `SQLite cannot read its schema (${(e as Error).message})`;
      return facts;
    }
    try {
      facts.integrity = all(`PRAGMA integrity_check(${INTEGRITY_ROWS})`)
        .map((r) => String(Object.values(r)[0]))
        .filter((t) => t !== 'ok');
    } catch (e) {
      facts.integrity = [`integrity_check itself failed: ${(e as Error).message}`];
    }
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
      readRows(facts, all);
    } catch (e) {
      facts.rowsProblem = (e as Error).message;
    }
  } finally {
    db.close();
  }
  return facts;
}

/**
 * Open the copy read-only. A hot rollback journal cannot be rolled back read-only (SQLITE_READONLY_ROLLBACK): the
 * private copy is then opened read-write once, so SQLite rolls the interrupted write back there, as Hermes's next
 * open would, and opened read-only again. The evidence is never involved: this is the copy.
 */
function open(path: string, facts: DbFacts): Database.Database {
  const first = new Database(path, { readonly: true, fileMustExist: true });
  try {
    first.prepare('SELECT count(*) FROM sqlite_master').get();
    return first;
  } catch (e) {
    first.close();
    if ((e as { code?: string }).code !== 'SQLITE_READONLY_ROLLBACK') throw e;
  }
  const rw = new Database(path, { fileMustExist: true });
  try {
    rw.prepare('SELECT count(*) FROM sqlite_master').get();
  } finally {
    rw.close();
  }
  facts.rolledBack = true;
  return new Database(path, { readonly: true, fileMustExist: true });
}

function readRows(facts: DbFacts, all: (sql: string) => Row[]): void {
  const sc = new Set(facts.sessionColumns);
  const mc = new Set(facts.messageColumns);
  const pick = (have: Set<string>, names: string[]) => names.map((c) => (have.has(c) ? c : `NULL AS ${c}`)).join(', ');
  if (sc.has('id')) {
    const rows = all(
      `SELECT ${pick(sc, [
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
      ])} FROM sessions ORDER BY started_at, id`,
    );
    facts.sessions = rows.map((r): DbSessionRow => {
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
      return row;
    });
  }
  if (mc.has('id') && mc.has('session_id')) {
    const rows = all(
      `SELECT ${pick(mc, ['id', 'session_id', 'role', 'tool_call_id', 'tool_calls', 'timestamp', 'active'])}, ` +
        `${mc.has('content') ? `substr(content, 1, ${HEAD + 6})` : 'NULL'} AS head FROM messages ORDER BY id`,
    );
    facts.messages = rows.map((r): DbMessageRow => {
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
    });
  }
}
