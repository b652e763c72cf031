/**
 * The Hermes loader: the documents first (the gateway index, each CLI snapshot), then the database, read from a
 * private copy (formats/shared/sqlite/with-copy.ts, db/read.ts) and handed on as one doc of kind DB_KIND, then every
 * gateway transcript streamed as a log (records, events, conversation items, damage), then the home's identity.
 */
import type { SessionSource } from '../../model/source.js';
import type { JsonlRecord } from '../../model/records.js';
import type { SessionEvent } from '../../model/events.js';
import type { Artifact, FileEndEvent, LoadSink } from '../../model/session.js';
import { IDENTITY_KIND, type SessionIdentity } from '../../model/identity.js';
import { isoTime, validTimeMs } from '../../model/safe-values.js';
import type { LoadLimits } from '../types.js';
import { parseDoc } from '../shared/docs.js';
import { streamNormalizedLog, type LogHandlers } from '../shared/log-lines.js';
import { isObj } from '../shared/events.js';
import { DB_FILE, TRANSCRIPT, hermesIdOf } from './artifacts.js';
import { DB_SUFFIXES } from '../shared/sqlite/copy.js';
import { DEFAULT_MAX_DB_BYTES, withDatabaseCopy } from '../shared/sqlite/with-copy.js';
import { blankFacts, DB_KIND, DB_ROW_KIND, type DbFacts, type DbMessageRow } from './db/facts.js';
import { readDatabase } from './db/read.js';
import { HermesNormalizer } from './normalize.js';

const MAX_DOC_BYTES = 256 * 1024 * 1024;

/** What merged-line recovery may take for a record: a message dict with a role. */
export const looksLikeMessage = (v: unknown): boolean => isObj(v) && typeof v.role === 'string';

const of = (artifacts: ReadonlyMap<string, Artifact>, source: SessionSource, kind: string): Artifact[] =>
  [...artifacts.values()].filter((a) => a.kind === kind && source.entry(a.path)?.type === 'file');

/**
 * Read `state.db` (with its -wal and -journal) from a private copy and hand what was read to `use` while the copy
 * is open (the message rows stream from it); the copy is closed and removed before this returns, whatever `use`
 * does. Undefined when the home has no state.db.
 */
export function withDatabase<T>(source: SessionSource, limits: LoadLimits, use: (db: DbFacts) => T): T | undefined {
  const e = source.entry(DB_FILE);
  if (!e) return undefined;
  const blank = blankFacts(DB_FILE);
  const cap = limits.maxDbBytes ?? DEFAULT_MAX_DB_BYTES;
  const bytes = DB_SUFFIXES.reduce((n, x) => n + (source.entry(`${DB_FILE}${x}`)?.size ?? 0), 0);
  if (bytes > cap) return use({ ...blank, error: 'larger than the cap', tooLarge: { bytes, cap } });
  const facts: DbFacts = { ...blank, hasShm: source.entry(`${DB_FILE}-shm`)?.type === 'file' };
  const onRollback = (): void => {
    facts.rolledBack = true;
  };
  // What `use` throws is its own, not a failure to read the database: it is thrown again as it is.
  let thrown: { error: unknown } | undefined;
  const r = withDatabaseCopy(source, DB_FILE, { maxDbBytes: cap, onRollback }, (db, logs) => {
    const open = readDatabase(facts, db, logs);
    try {
      return { used: use(open.facts) };
    } catch (error) {
      thrown = { error };
      throw error;
    } finally {
      open.close();
    }
  });
  if (thrown) throw thrown.error;
  return r.ok ? r.value.used : use({ ...blank, error: r.error });
}

function streamTranscript(source: SessionSource, a: Artifact, limits: LoadLimits, h: LogHandlers): FileEndEvent {
  const n = new HermesNormalizer(a.path, hermesIdOf(a.path) ?? a.path);
  const r = streamNormalizedLog(source, a.path, looksLikeMessage, limits.maxLineBytes, n, h);
  return r.ok
    ? { file: a.path, kind: 'transcript', stats: r.value }
    : { file: a.path, kind: 'transcript', error: r.error };
}

export function loadHermes(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  sink: LoadSink,
  limits: LoadLimits,
): void {
  for (const kind of ['index', 'snapshot']) {
    for (const a of of(artifacts, source, kind)) {
      const r = source.readFile(a.path, MAX_DOC_BYTES);
      const size = source.entry(a.path)?.size ?? 0;
      if (!r.ok) sink.doc({ file: a.path, kind, size, problem: { kind: 'unreadable', detail: r.error } });
      else if (r.value.truncated)
        sink.doc({
          file: a.path,
          kind,
          size,
          problem: { kind: 'too-large', detail: `larger than ${MAX_DOC_BYTES} bytes` },
        });
      else sink.doc(parseDoc(a.path, kind, r.value.bytes, size));
    }
  }
  const transcripts = of(artifacts, source, 'transcript');
  // The session rows outlive the open copy (they are in memory; the message rows are not): the identity reads them.
  let facts: DbFacts | undefined;
  withDatabase(source, limits, (db) => {
    facts = db;
    if (db.error === undefined) {
      const covered = new Set(transcripts.map((a) => hermesIdOf(a.path)));
      // The sessions no transcript holds are the database's alone: their rows are the conversation. Every row
      // is a record too (the secret scan reads it). First, so that a read that stops part way is in the doc.
      dbConversation(db, (id) => !covered.has(id), sink);
    }
    sink.doc({ file: DB_FILE, kind: DB_KIND, size: source.entry(DB_FILE)?.size ?? 0, value: db });
  });
  for (const a of transcripts) {
    sink.fileEnd(
      streamTranscript(source, a, limits, {
        record: (record) => sink.record({ file: a.path, kind: 'transcript', record }),
        event: (e) => sink.event(e),
        chat: (c) => sink.chat(c),
        damage: (damage) => sink.damage({ file: a.path, kind: 'transcript', damage }),
      }),
    );
  }
  sink.doc({ file: DB_FILE, kind: IDENTITY_KIND, size: 0, value: homeIdentity(facts) });
  source.hashUnread();
}

/**
 * What the home records about itself: when its first session started and its last one ended (the database's
 * `started_at` / `ended_at`, seconds since the epoch).
 */
function homeIdentity(db: DbFacts | undefined): SessionIdentity {
  const identity: SessionIdentity = { subagents: [] };
  if (!db || db.error !== undefined) return identity;
  let first: number | undefined;
  let last: number | undefined;
  for (const s of db.sessions) {
    if (s.startedAt !== undefined && (first === undefined || s.startedAt < first)) first = s.startedAt;
    for (const t of [s.startedAt, s.endedAt]) if (t !== undefined && (last === undefined || t > last)) last = t;
  }
  const created = isoTime(first === undefined ? undefined : first * 1000);
  const updated = isoTime(last === undefined ? undefined : last * 1000);
  if (created !== undefined) identity.createdAt = created;
  if (updated !== undefined) identity.updatedAt = updated;
  return identity;
}

/** A row as the message dict a transcript line would hold (content cut to its first characters). */
function rowRecord(m: DbMessageRow): JsonlRecord {
  const value: Record<string, unknown> = { role: m.role, content: m.head };
  if (m.toolCallId !== undefined) value.tool_call_id = m.toolCallId;
  if (m.calls?.length)
    value.tool_calls = m.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name } }));
  return { line: m.id, byteOffset: 0, byteLength: 0, value };
}

/**
 * Every row of state.db as a record of the database (`line` is the row's id), and the rows of the sessions
 * `wanted` selects, session by session (each in insertion order, sessions by their first row), as events and
 * conversation items. No times: rows of sessions that ran at once interleave, and the timeline shows the
 * database's clock. Streamed: one row in memory at a time.
 */
function dbConversation(db: DbFacts, wanted: (id: string) => boolean, sink: LoadSink): void {
  const n = new HermesNormalizer(db.file, db.file);
  let session: string | undefined;
  let take = false;
  for (const m of db.rows()) {
    const r = rowRecord(m);
    sink.record({ file: db.file, kind: DB_ROW_KIND, record: r });
    if (m.sessionId !== session) {
      session = m.sessionId;
      take = wanted(session);
      if (take) n.session();
    }
    if (!take) continue;
    const { event, chats } = n.push(r, 'state.db');
    event.sessionId = m.sessionId;
    event.summary = `[${m.sessionId}${m.active === 0 ? ', rewound' : ''}] ${event.summary}`;
    sink.event(event);
    for (const c of chats) sink.chat(c);
  }
}

/**
 * The rows of state.db as events, in insertion order (`messages.id`, the order Hermes replays), each with its
 * UTC time (epoch seconds in the row) and its session; `line` is the row's id.
 */
function streamDbRows(db: DbFacts, onEvent: (e: SessionEvent, r: JsonlRecord) => void): number {
  const n = new HermesNormalizer(db.file, db.file);
  let session: string | undefined;
  let rows = 0;
  for (const m of db.rows(undefined, true)) {
    rows++;
    if (m.sessionId !== session) {
      session = m.sessionId;
      n.session();
    }
    const r = rowRecord(m);
    const { event } = n.push(r, 'state.db');
    event.sessionId = m.sessionId;
    event.summary = `[${m.sessionId}${m.active === 0 ? ', rewound' : ''}] ${event.summary}`;
    const ms = validTimeMs(m.timestamp !== undefined ? m.timestamp * 1000 : undefined);
    if (ms !== undefined) {
      event.timeMs = ms;
      event.timeSource = 'line';
    }
    onEvent(event, r);
  }
  return rows;
}

/**
 * The timeline's logs: the rows of state.db (UTC times: the database's clock), then each gateway transcript
 * (naive local times, shown as written, never converted: each file is its own clock).
 */
export function streamHermesLog(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  limits: LoadLimits,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
): FileEndEvent | undefined {
  let end: FileEndEvent | undefined;
  withDatabase(source, limits, (db) => {
    if (db.error !== undefined) return;
    const rows = streamDbRows(db, onEvent);
    end = {
      file: db.file,
      kind: 'state-db',
      stats: { lines: rows, records: rows, bytes: source.entry(db.file)?.size ?? 0, endsWithNewline: true },
    };
  });
  for (const a of of(artifacts, source, 'transcript').filter((x) => TRANSCRIPT.test(x.path))) {
    const name = a.path.slice(a.path.lastIndexOf('/') + 1);
    end = streamTranscript(source, a, limits, {
      event: (e, r) => {
        e.summary = `[${name}] ${e.summary}`;
        onEvent(e, r);
      },
    });
  }
  return end;
}
