/**
 * Reading an opencode database (formats/opencode.md §2, §3.2, §6.9) the way a forensic reader must: never the
 * evidence itself, which opencode checkpoints and migrates (deleting rows) on every open, but a private copy made
 * through the session source with its `-wal` and `-journal` (formats/shared/sqlite/), opened read-only. Committed
 * frames still in the `-wal` are counted and read, as opencode would read them; a WAL that is not the database's
 * own is left out. The era is told from the migration tables (E2 `__drizzle_migrations`, E3 `migration`), the
 * credential tables are counted, never read, and the rows stream from the open copy (never all in memory).
 */
import type Database from 'better-sqlite3';
import { tooDeepDetail, tooDeepText } from '../../read/json-depth.js';
import type { SessionSource } from '../../model/source.js';
import { DB_SUFFIXES } from '../shared/sqlite/copy.js';
import { integrity, tablesOf } from '../shared/sqlite/open.js';
import type { WalState } from '../shared/sqlite/wal.js';
import { withDatabaseCopy, type CopyLogs } from '../shared/sqlite/with-copy.js';
import type { OcRow, OcSession } from './rows.js';

export const DB_KIND = 'opencode-db';
/** The tables that hold credentials (§1.3): their rows are counted, never read. */
export const SECRET_TABLES = ['account', 'control_account', 'credential', 'session_share'] as const;

export interface DbFacts {
  file: string;
  error?: string;
  tooLarge?: { bytes: number; cap: number };
  /** A -wal (or -shm) is there but the database is not. */
  walWithoutDb?: string[];
  walHeader: boolean;
  wal?: WalState;
  walForeign?: string[];
  journalForeign?: string[];
  rolledBack?: boolean;
  integrity: string[];
  tables: string[];
  era?: 'E2' | 'E3';
  /** The applied migrations (E3 `migration.id`, else E2 `__drizzle_migrations.name`), in the order applied. */
  migrations: string[];
  /** `PRAGMA user_version` (opencode never sets it: 0). */
  userVersion?: number;
  sessions: OcSession[];
  secretRows: Array<{ table: string; rows: number }>;
  /** E3's event log: rows, and what is wrong with its sequence numbers. */
  events?: { rows: number; problems: string[]; sessions: string[] };
  /**
   * E3: each session's permission ruleset as its session.created / session.updated events recorded it, when it
   * changed (the first MAX_PERMISSION_STEPS of them).
   */
  permissionSteps: Array<{ session: string; seq: number; permission: unknown }>;
  /** Sessions with a pending revert: the messages after it, which opencode deletes at the next prompt. */
  reverts: Array<{ session: string; messageId: string; after: number }>;
  messageRows: number;
  partRows: number;
  /** Reading the rows stopped part way. */
  partial?: string;
}

type Row = Record<string, unknown>;
const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const n = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'bigint' ? Number(v) : undefined;

export const blankFacts = (file: string): DbFacts => ({
  file,
  walHeader: false,
  integrity: [],
  tables: [],
  migrations: [],
  sessions: [],
  secretRows: [],
  permissionSteps: [],
  reverts: [],
  messageRows: 0,
  partRows: 0,
});

/** A `data` cell parsed into an object, or why not (never one nested deeper than MAX_JSON_DEPTH). */
export function parseData(text: unknown): { value: Record<string, unknown> } | { problem: string } {
  if (typeof text !== 'string') return { problem: 'the data column is not text' };
  if (text === '') return { problem: 'the data column is empty ("")' };
  const deep = tooDeepText(text);
  if (deep) return { problem: tooDeepDetail(deep) };
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return { problem: 'the data column is not an object' };
    return { value: v as Record<string, unknown> };
  } catch {
    return { problem: 'the data column is not valid JSON' };
  }
}

const columns = (db: Database.Database, t: string): string[] =>
  (db.prepare(`PRAGMA table_info(${JSON.stringify(t)})`).all() as Row[]).map((r) => String(r.name));

/** Read what the checks need (everything but the rows, which `rows` streams while the copy is open). */
function readFacts(db: Database.Database, facts: DbFacts): void {
  const all = (sql: string): Row[] => db.prepare(sql).all() as Row[];
  const has = (t: string) => facts.tables.includes(t);
  facts.userVersion = n((db.pragma('user_version') as Row[])[0]?.user_version);
  if (has('migration')) {
    facts.era = 'E3';
    facts.migrations = all('SELECT id FROM migration ORDER BY time_completed, id').map((r) => String(r.id));
  } else if (has('__drizzle_migrations')) {
    facts.era = 'E2';
    facts.migrations = all('SELECT name FROM __drizzle_migrations ORDER BY id').map((r) => String(r.name ?? ''));
  }
  for (const t of SECRET_TABLES)
    if (has(t)) facts.secretRows.push({ table: t, rows: n(all(`SELECT count(*) AS c FROM ${t}`)[0]?.c) ?? 0 });
  if (has('session')) {
    const have = columns(db, 'session');
    const pick = (c: string) => (have.includes(c) ? c : `NULL AS ${c}`);
    const cols = [
      'id',
      'parent_id',
      'project_id',
      'title',
      'version',
      'directory',
      'time_created',
      'time_updated',
      'revert',
      'permission',
      'share_url',
    ].map(pick);
    for (const r of db
      .prepare(`SELECT ${cols.join(', ')} FROM session ORDER BY time_created, id`)
      .iterate() as Iterable<Row>) {
      const row: OcSession = { id: String(r.id), origin: 'db', file: facts.file };
      const set = <K extends keyof OcSession>(k: K, v: OcSession[K] | undefined) => {
        if (v !== undefined) row[k] = v;
      };
      set('parentId', s(r.parent_id));
      set('projectId', s(r.project_id));
      set('title', s(r.title));
      set('version', s(r.version));
      set('directory', s(r.directory));
      set('timeCreated', n(r.time_created));
      set('timeUpdated', n(r.time_updated));
      set('permission', s(r.permission));
      set('shareUrl', s(r.share_url));
      const rv = parseData(r.revert);
      if ('value' in rv && typeof rv.value.messageID === 'string') row.revertMessageId = rv.value.messageID;
      facts.sessions.push(row);
    }
  }
  if (has('message'))
    for (const x of facts.sessions)
      if (x.revertMessageId !== undefined) {
        // opencode's cleanup compares ids as strings (revert.ts:100-134): what it would delete at the next prompt.
        const q = 'SELECT count(*) AS c FROM message WHERE session_id = ? AND id > ?';
        const after = n((db.prepare(q).get(x.id, x.revertMessageId) as Row | undefined)?.c) ?? 0;
        facts.reverts.push({ session: x.id, messageId: x.revertMessageId, after });
      }
  if (has('message')) facts.messageRows = n(all('SELECT count(*) AS c FROM message')[0]?.c) ?? 0;
  if (has('part')) facts.partRows = n(all('SELECT count(*) AS c FROM part')[0]?.c) ?? 0;
  if (has('event')) {
    facts.events = eventFacts(db, has('event_sequence'));
    permissionSteps(db, facts);
  }
}

const MAX_PERMISSION_STEPS = 1000;

/** The permission ruleset of every session.created / session.updated event, where it differs from the one before. */
function permissionSteps(db: Database.Database, facts: DbFacts): void {
  const q =
    "SELECT aggregate_id AS a, seq, data FROM event WHERE type LIKE 'session.created.%' OR type LIKE " +
    "'session.updated.%' ORDER BY aggregate_id, seq";
  const last = new Map<string, string>();
  for (const r of db.prepare(q).iterate() as Iterable<Row>) {
    const p = parseData(r.data);
    if (!('value' in p)) continue;
    const info = p.value.info;
    if (typeof info !== 'object' || info === null) continue;
    const perm = (info as Row).permission;
    const key = JSON.stringify(perm ?? null);
    const a = String(r.a);
    if (last.get(a) === key) continue;
    last.set(a, key);
    if (facts.permissionSteps.length >= MAX_PERMISSION_STEPS) return;
    facts.permissionSteps.push({ session: a, seq: n(r.seq) ?? -1, permission: perm ?? null });
  }
}

/** E3's event log: per aggregate, seq contiguous from 0 and unique, and `event_sequence.seq` its last (§7.3). */
function eventFacts(db: Database.Database, withSequence: boolean): NonNullable<DbFacts['events']> {
  const problems: string[] = [];
  let rows = 0;
  let agg: string | undefined;
  let next = 0;
  const last = new Map<string, number>();
  const q = 'SELECT aggregate_id AS a, seq FROM event ORDER BY aggregate_id, seq';
  for (const r of db.prepare(q).iterate() as Iterable<Row>) {
    rows++;
    const a = String(r.a);
    const seq = n(r.seq) ?? -1;
    if (a !== agg) {
      agg = a;
      next = 0;
    }
    if (problems.length < 20) {
      if (seq < next) problems.push(`${a}: seq ${seq} repeats`);
      else if (seq > next) problems.push(`${a}: seq ${next}${seq - 1 > next ? `-${seq - 1}` : ''} missing`);
    }
    next = Math.max(next, seq + 1);
    last.set(a, seq);
  }
  if (withSequence)
    for (const r of db.prepare('SELECT aggregate_id AS a, seq FROM event_sequence').iterate() as Iterable<Row>) {
      const a = String(r.a);
      const have = last.get(a);
      if (have !== undefined && have !== n(r.seq) && problems.length < 20)
        problems.push(`${a}: event_sequence.seq is ${String(r.seq)}, the last event's seq ${have}`);
    }
  return { rows, problems, sessions: [...last.keys()] };
}

/**
 * The messages and parts, session by session (sessions by creation), each session's messages by (time_created, id)
 * and each message followed by its parts by (time_created, id): opencode's own order, never the id alone (ids wrap,
 * §7.2). Parts whose message is not in the table come at the end of their session.
 */
function* streamRows(db: Database.Database, facts: DbFacts, only?: string): Generator<OcRow> {
  if (!facts.tables.includes('message') || !facts.tables.includes('part')) return;
  let line = 0;
  // Columns a foreign or damaged schema lacks read as NULL (a row without its data is unreadable, not a crash).
  const mc = columns(db, 'message');
  const pc = columns(db, 'part');
  const pick = (have: string[], p: string, c: string) => (have.includes(c) ? `${p}${c}` : `NULL AS ${c}`);
  const m = (c: string) => pick(mc, '', c);
  const pp = (c: string, p = '') => pick(pc, p, c);
  const orderBy = (have: string[], p = '') => (have.includes('time_created') ? `${p}time_created, ${p}id` : `${p}id`);
  const mdata = mc.includes('data') ? 'data, length(data) AS len' : 'NULL AS data, 0 AS len';
  const pdata = (p = '') => (pc.includes('data') ? `${p}data, length(${p}data) AS len` : 'NULL AS data, 0 AS len');
  let msgs: Database.Statement;
  let parts: Database.Statement;
  let strays: Database.Statement | undefined;
  try {
    msgs = db.prepare(
      `SELECT id, session_id, ${m('time_created')}, ${m('time_updated')}, ${mdata} FROM message ` +
        `WHERE session_id = ? ORDER BY ${orderBy(mc)}`,
    );
    parts = db.prepare(
      `SELECT id, ${pp('message_id')}, ${pp('session_id')}, ${pp('time_created')}, ${pp('time_updated')}, ` +
        `${pdata()} FROM part WHERE ${pc.includes('message_id') ? 'message_id' : 'NULL'} = ? ORDER BY ${orderBy(pc)}`,
    );
    if (pc.includes('message_id'))
      strays = db.prepare(
        `SELECT p.id, ${pp('message_id', 'p.')}, ${pp('session_id', 'p.')}, ${pp('time_created', 'p.')}, ` +
          `${pp('time_updated', 'p.')}, ${pdata('p.')} FROM part p LEFT JOIN message m ON m.id = p.message_id ` +
          `WHERE m.id IS NULL ORDER BY ${pc.includes('session_id') ? 'p.session_id, ' : ''}${orderBy(pc, 'p.')}`,
      );
  } catch (e) {
    facts.partial ??= `the message and part tables cannot be read (${(e as Error).message})`;
    return;
  }
  const row = (table: OcRow['table'], r: Row): OcRow => {
    const out: OcRow = {
      table,
      id: String(r.id),
      sessionId: String(r.session_id),
      file: facts.file,
      line: ++line,
      byteLength: n(r.len) ?? 0,
    };
    if (table === 'part') out.messageId = String(r.message_id);
    const tc = n(r.time_created);
    const tu = n(r.time_updated);
    if (tc !== undefined) out.timeCreated = tc;
    if (tu !== undefined) out.timeUpdated = tu;
    const p = parseData(r.data);
    if ('value' in p) {
      out.value = { ...p.value, id: out.id, sessionID: out.sessionId };
      if (out.messageId !== undefined) out.value.messageID = out.messageId;
    } else out.problem = p.problem;
    return out;
  };
  const order = [...facts.sessions.map((x) => x.id)];
  const known = new Set(order);
  // Messages of a session that is not in the session table (no foreign key held them) come after the others.
  for (const r of db
    .prepare('SELECT DISTINCT session_id AS s FROM message ORDER BY session_id')
    .iterate() as Iterable<Row>)
    if (!known.has(String(r.s))) order.push(String(r.s));
  try {
    for (const sid of only === undefined ? order : [only]) {
      for (const m of msgs.iterate(sid) as Iterable<Row>) {
        yield row('message', m);
        for (const p of parts.iterate(String(m.id)) as Iterable<Row>) yield row('part', p);
      }
    }
    if (only === undefined && strays) for (const p of strays.iterate() as Iterable<Row>) yield row('part', p);
  } catch (e) {
    facts.partial ??= (e as Error).message;
  }
}

/** One row of E3's `event` log, its data parsed (undefined when it does not parse). */
export interface EventRow {
  id: string;
  seq: number;
  type: string;
  data?: Record<string, unknown>;
  byteLength: number;
}

export interface OpenDb {
  facts: DbFacts;
  /** Every session's rows, or one session's. */
  rows(session?: string): Iterable<OcRow>;
  /** One session's events in `seq` order (E3; none when the table is absent). */
  events(session: string): Iterable<EventRow>;
}

function* streamEvents(db: Database.Database, facts: DbFacts, session: string): Generator<EventRow> {
  if (!facts.tables.includes('event')) return;
  const q = 'SELECT id, seq, type, data, length(data) AS len FROM event WHERE aggregate_id = ? ORDER BY seq';
  try {
    for (const r of db.prepare(q).iterate(session) as Iterable<Row>) {
      const p = parseData(r.data);
      const e: EventRow = { id: String(r.id), seq: n(r.seq) ?? -1, type: String(r.type), byteLength: n(r.len) ?? 0 };
      if ('value' in p) e.data = p.value;
      yield e;
    }
  } catch (e) {
    facts.partial ??= (e as Error).message;
  }
}

/**
 * Copy the database at `rel` (with its -wal and -journal) into a private directory, open the copy read-only and
 * hand it to `use`; the copy is closed and removed before this returns, whatever `use` does.
 */
export function withOpencodeDb<T>(source: SessionSource, rel: string, cap: number, use: (db: OpenDb) => T): T {
  const facts = blankFacts(rel);
  const none: OpenDb = { facts, rows: () => [], events: () => [] };
  const main = source.entry(rel);
  if (!main) {
    facts.error = 'the database is missing';
    facts.walWithoutDb = ['-wal', '-shm', '-journal'].map((x) => `${rel}${x}`).filter((p) => source.entry(p));
    return use(none);
  }
  const bytes = DB_SUFFIXES.reduce((t, x) => t + (source.entry(`${rel}${x}`)?.size ?? 0), 0);
  if (bytes > cap) {
    facts.error = 'larger than the cap';
    facts.tooLarge = { bytes, cap };
    return use(none);
  }
  const onRollback = (): void => {
    facts.rolledBack = true;
  };
  const notDatabase = (head: Buffer): string =>
    head.length === 0 ? 'the database file is empty' : 'it is not a SQLite 3 database';
  // What `use` throws is its own, not a failure to read the database: it is thrown again as it is.
  let thrown: { error: unknown } | undefined;
  const r = withDatabaseCopy(source, rel, { maxDbBytes: cap, onRollback, notDatabase }, (db, logs) => {
    copyLogs(facts, logs);
    try {
      facts.tables = tablesOf(db);
    } catch (e) {
      facts.error = `SQLite cannot open it (${(e as Error).message})`;
      return undefined;
    }
    facts.integrity = integrity(db);
    try {
      readFacts(db, facts);
    } catch (e) {
      facts.partial = (e as Error).message;
    }
    try {
      return {
        used: use({
          facts,
          rows: (only) => streamRows(db, facts, only),
          events: (session) => streamEvents(db, facts, session),
        }),
      };
    } catch (error) {
      thrown = { error };
      throw error;
    }
  });
  if (thrown) throw thrown.error;
  if (r.ok && r.value) return r.value.used;
  if (!r.ok) {
    copyLogs(facts, r);
    facts.error = r.error;
  }
  return use(none);
}

/** What with-copy.ts saw of the copy's -wal and -journal. */
function copyLogs(facts: DbFacts, logs: Readonly<CopyLogs>): void {
  if (logs.walHeader !== undefined) facts.walHeader = logs.walHeader;
  if (logs.walForeign) facts.walForeign = logs.walForeign;
  if (logs.wal) facts.wal = logs.wal;
  if (logs.journalForeign) facts.journalForeign = logs.journalForeign;
}
