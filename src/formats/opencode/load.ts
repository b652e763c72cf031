/**
 * The opencode loader: the JSON trees' documents and each database, read from a private copy (db.ts), as one
 * stream of rows per opencode session (records for the schema and secret checks, events, the conversation), then one
 * doc per database (DB_KIND), one summary of the whole directory (SUMMARY_KIND: which sessions each store holds,
 * unreadable rows, clocks) and the directory's identity.
 */
import { IDENTITY_KIND, type SessionIdentity } from '../../model/identity.js';
import type { SessionEvent } from '../../model/events.js';
import type { JsonlRecord } from '../../model/records.js';
import type { Artifact, FileEndEvent, LoadSink } from '../../model/session.js';
import type { SessionSource } from '../../model/source.js';
import { isoTime } from '../../model/safe-values.js';
import type { LoadLimits } from '../types.js';
import { isObj, num } from '../shared/events.js';
import { databasesIn } from './artifacts.js';
import { DEFAULT_MAX_DB_BYTES } from '../shared/sqlite/with-copy.js';
import { DB_KIND, withOpencodeDb, type DbFacts, type OpenDb } from './db.js';
import { logEvent, OpencodeNormalizer, recordOf } from './normalize.js';
import type { OcRow, OcSession } from './rows.js';
import { readTrees } from './tree.js';

export const SUMMARY_KIND = 'opencode-summary';
const KEPT = 200;

export interface StoreSessions {
  /** The database's path, or the tree's era. */
  store: string;
  era: string;
  sessions: Array<{ id: string; file: string; messages: number; parts: number; parentId?: string; title?: string }>;
}

export interface Summary {
  stores: StoreSessions[];
  /** Rows whose record cannot be read (the first KEPT), and how many in all. */
  badRows: Array<{ file: string; line: number; table: string; id: string; problem: string }>;
  badRowCount: number;
  /** Messages whose `time_created` column is not the record's own `time.created`. */
  timeMismatch: Array<{ file: string; line: number; id: string; column: number; record: number }>;
  /** Sessions whose parts all carry one `time_created`, later than every message: the JSON import's instant. */
  imported: Array<{ file: string; line: number; session: string; parts: number; at: number }>;
}

/** Rows grouped by message (a message and its parts), session by session. */
function* groups(rows: Iterable<OcRow>): Generator<{ message?: OcRow; parts: OcRow[]; first: boolean }> {
  let cur: { message?: OcRow; parts: OcRow[]; first: boolean } | undefined;
  let session: string | undefined;
  for (const r of rows) {
    const first = r.sessionId !== session;
    if (r.table === 'message' || first || (cur && cur.message?.id !== r.messageId)) {
      if (cur) yield cur;
      cur = r.table === 'message' ? { message: r, parts: [], first } : { parts: [r], first };
      session = r.sessionId;
      continue;
    }
    cur!.parts.push(r);
  }
  if (cur) yield cur;
}

interface Emit {
  record?(r: OcRow): void;
  event(e: SessionEvent, r: JsonlRecord): void;
  chat?(c: ReturnType<OpencodeNormalizer['chats']>[number]): void;
}

/** One store's rows through the normalizer; counts per session into `store`. */
function emitRows(rows: Iterable<OcRow>, n: OpencodeNormalizer, time: boolean, out: Emit, facts?: Summary): void {
  let partTimes:
    | { session: string; file: string; line: number; times: Set<number>; lastMsg: number; n: number }
    | undefined;
  const endSession = () => {
    if (facts && partTimes && partTimes.n > 1 && partTimes.times.size === 1) {
      const at = [...partTimes.times][0]!;
      if (at > partTimes.lastMsg)
        facts.imported.push({
          file: partTimes.file,
          line: partTimes.line,
          session: partTimes.session,
          parts: partTimes.n,
          at,
        });
    }
    partTimes = undefined;
  };
  for (const g of groups(rows)) {
    if (g.first) {
      endSession();
      n.session();
    }
    for (const r of [...(g.message ? [g.message] : []), ...g.parts]) {
      out.record?.(r);
      if (facts && out.record && r.problem !== undefined && facts.badRowCount++ < KEPT)
        facts.badRows.push({ file: r.file, line: r.line, table: r.table, id: r.id, problem: r.problem });
      for (const e of n.events(r, g.message, g.parts, time)) out.event(e, recordOf(r));
    }
    const m = g.message;
    if (facts && m?.value && m.timeCreated !== undefined && m.line > 0) {
      const rec = isObj(m.value.time) ? num(m.value.time.created) : undefined;
      if (rec !== undefined && rec !== m.timeCreated && facts.timeMismatch.length < KEPT)
        facts.timeMismatch.push({ file: m.file, line: m.line, id: m.id, column: m.timeCreated, record: rec });
    }
    if (facts) {
      const sid = (m ?? g.parts[0])!.sessionId;
      partTimes ??= {
        session: sid,
        file: (m ?? g.parts[0])!.file,
        line: (m ?? g.parts[0])!.line,
        times: new Set(),
        lastMsg: 0,
        n: 0,
      };
      if (m?.timeCreated !== undefined) partTimes.lastMsg = Math.max(partTimes.lastMsg, m.timeCreated);
      for (const p of g.parts) {
        partTimes.n++;
        if (p.timeCreated !== undefined) partTimes.times.add(p.timeCreated);
      }
    }
    if (m && out.chat) for (const c of n.chats(m, g.parts)) out.chat(c);
  }
  endSession();
}

const files = (source: SessionSource): string[] => source.inventory.filter((e) => e.type === 'file').map((e) => e.path);

/** The databases at the top of the directory (any entry of their names: one that is not a file is reported). */
const dbsOf = (source: SessionSource): string[] =>
  databasesIn(source.inventory.map((e) => e.path).filter((p) => !p.includes('/')));

function countStore(store: StoreSessions, sessions: readonly OcSession[], rows: OcRow[] | undefined): void {
  for (const s of sessions) {
    const e: StoreSessions['sessions'][number] = { id: s.id, file: s.file, messages: 0, parts: 0 };
    if (s.parentId !== undefined) e.parentId = s.parentId;
    if (s.title !== undefined) e.title = s.title;
    for (const r of rows ?? []) if (r.sessionId === s.id) e[r.table === 'message' ? 'messages' : 'parts']++;
    store.sessions.push(e);
  }
}

export function loadOpencode(
  source: SessionSource,
  _artifacts: ReadonlyMap<string, Artifact>,
  sink: LoadSink,
  limits: LoadLimits,
): void {
  const summary: Summary = { stores: [], badRows: [], badRowCount: 0, timeMismatch: [], imported: [] };
  const n = new OpencodeNormalizer();
  const all: OcSession[] = [];
  readTrees(source, files(source), sink.doc, (s, era, rows) => {
    all.push(s);
    let store = summary.stores.find((x) => x.store === era);
    if (!store) summary.stores.push((store = { store: era, era, sessions: [] }));
    countStore(store, [s], rows);
    emitRows(rows, n, false, { event: (e) => sink.event(e), chat: (c) => sink.chat(c) }, summary);
  });
  const cap = limits.maxDbBytes ?? DEFAULT_MAX_DB_BYTES;
  for (const db of dbsOf(source)) {
    withOpencodeDb(source, db, cap, (open) => {
      const f = open.facts;
      const store: StoreSessions = { store: db, era: f.era ?? '?', sessions: [] };
      const per = new Map<string, { messages: number; parts: number }>();
      emitRows(
        open.rows(),
        n,
        false,
        {
          record: (r) => {
            // A row whose data does not parse is OPENCODE_ROW_UNREADABLE, not also a schema finding.
            if (r.problem === undefined) sink.record({ file: r.file, kind: r.table, record: recordOf(r) });
            const c = per.get(r.sessionId) ?? { messages: 0, parts: 0 };
            c[r.table === 'message' ? 'messages' : 'parts']++;
            per.set(r.sessionId, c);
          },
          event: (e) => sink.event(e),
          chat: (c) => sink.chat(c),
        },
        summary,
      );
      for (const s of f.sessions) {
        const c = per.get(s.id) ?? { messages: 0, parts: 0 };
        const e: StoreSessions['sessions'][number] = { id: s.id, file: s.file, ...c };
        if (s.parentId !== undefined) e.parentId = s.parentId;
        if (s.title !== undefined) e.title = s.title;
        store.sessions.push(e);
      }
      all.push(...f.sessions);
      if (f.error === undefined) summary.stores.push(store);
      sink.doc({ file: db, kind: DB_KIND, size: source.entry(db)?.size ?? 0, value: f satisfies DbFacts });
    });
  }
  sink.doc({ file: '.', kind: SUMMARY_KIND, size: 0, value: summary });
  sink.doc({ file: '.', kind: IDENTITY_KIND, size: 0, value: identity(source, all) });
  source.hashUnread();
}

/**
 * What the directory records about itself: when its first session began and its last was updated, and the session
 * a resume would most likely continue (the one updated last, of the newest store: a database's before a tree's),
 * with its directory.
 */
function identity(source: SessionSource, sessions: readonly OcSession[]): SessionIdentity {
  const id: SessionIdentity = { subagents: [], id: source.found.id };
  const created = sessions.map((s) => s.timeCreated).filter((t): t is number => t !== undefined);
  const updated = sessions.flatMap((s) => [s.timeCreated, s.timeUpdated]).filter((t): t is number => t !== undefined);
  const c = isoTime(created.length ? Math.min(...created) : undefined);
  const u = isoTime(updated.length ? Math.max(...updated) : undefined);
  if (c !== undefined) id.createdAt = c;
  if (u !== undefined) id.updatedAt = u;
  const pool = sessions.some((s) => s.origin === 'db') ? sessions.filter((s) => s.origin === 'db') : sessions;
  const when = (s: OcSession) => s.timeUpdated ?? s.timeCreated ?? 0;
  const last = pool
    .filter((s) => s.parentId === undefined)
    .reduce<OcSession | undefined>((a, s) => (a === undefined || when(s) >= when(a) ? s : a), undefined);
  if (last) {
    id.id = last.id;
    if (last.directory) id.cwd = last.directory;
  }
  return id;
}

/**
 * One session of an E3 database told from its event log, in `seq` order: every state each row went through (a tool
 * part pending, running, then completed), each at the row that holds its last state (its line), rows removed since
 * at the line before.
 */
function replay(
  open: OpenDb,
  session: string,
  rows: readonly OcRow[],
  n: OpencodeNormalizer,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
): void {
  const lineOf = new Map(rows.map((r) => [r.id, r.line]));
  const file = rows[0]!.file;
  const messages = new Map<string, OcRow>();
  const shown = new Set<string>();
  const prompted = new Set<string>();
  let line = rows[0]!.line;
  n.session();
  for (const ev of open.events(session)) {
    const d = ev.data;
    const info = d && isObj(d.info) ? d.info : undefined;
    const part = d && isObj(d.part) ? d.part : undefined;
    const base = ev.type.replace(/\.\d+$/, '');
    if (base === 'message.updated' && info && typeof info.id === 'string') {
      line = lineOf.get(info.id) ?? line;
      const r: OcRow = {
        table: 'message',
        id: info.id,
        sessionId: session,
        file,
        line,
        byteLength: ev.byteLength,
        value: info,
      };
      const t = isObj(info.time) ? num(info.time.created) : undefined;
      if (t !== undefined) r.timeCreated = t;
      messages.set(info.id, r);
      // A user message's prompt is its first text part, which the log records after it.
      const prompt: OcRow[] = info.role === 'user' ? [{ ...r, table: 'part', value: { type: 'text', text: '' } }] : [];
      for (const e of n.events(r, undefined, prompt, true, shown)) onEvent(e, recordOf(r));
    } else if (base === 'message.part.updated' && part && typeof part.id === 'string') {
      line = lineOf.get(part.id) ?? line;
      const msg = typeof part.messageID === 'string' ? messages.get(part.messageID) : undefined;
      const r: OcRow = {
        table: 'part',
        id: part.id,
        sessionId: session,
        file,
        line,
        byteLength: ev.byteLength,
        value: part,
      };
      if (typeof part.messageID === 'string') r.messageId = part.messageID;
      const t = num(d?.time);
      if (t !== undefined) r.timeCreated = t;
      // The first text part of a user message opens its turn (a rewrite of the same part does not).
      const first = part.type === 'text' && msg !== undefined && !prompted.has(msg.id);
      if (first) prompted.add(msg!.id);
      const parts = first ? [r] : [];
      for (const e of n.events(r, msg, parts, true, shown)) onEvent(e, recordOf(r));
    } else {
      const { event, record } = logEvent(n, file, line, session, ev.type, d);
      onEvent(event, record);
    }
  }
}

/**
 * The timeline's log: every session's rows (an E3 session's told from its event log: every state of each row), each
 * event at its own clock (`time_created`, milliseconds since the
 * epoch, opencode's process clock; a JSON tree's part has no time of its own), the JSON trees first, then each
 * database.
 */
export function streamOpencodeLog(
  source: SessionSource,
  _artifacts: ReadonlyMap<string, Artifact>,
  limits: LoadLimits,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
): FileEndEvent | undefined {
  const n = new OpencodeNormalizer();
  let end: FileEndEvent | undefined;
  readTrees(
    source,
    files(source),
    () => {},
    (_s, era, rows) => {
      emitRows(rows, n, true, { event: onEvent });
      end = {
        file: rows[0]?.file ?? era,
        kind: 'tree',
        stats: { lines: rows.length, records: rows.length, bytes: 0, endsWithNewline: true },
      };
    },
  );
  const cap = limits.maxDbBytes ?? DEFAULT_MAX_DB_BYTES;
  for (const db of dbsOf(source))
    withOpencodeDb(source, db, cap, (open) => {
      if (open.facts.error !== undefined) return;
      let count = 0;
      const logged = new Set(open.facts.events?.sessions ?? []);
      let held: OcRow[] = [];
      const flush = () => {
        const sid = held[0]?.sessionId;
        if (sid !== undefined && logged.has(sid)) replay(open, sid, held, n, onEvent);
        else emitRows(held, n, true, { event: onEvent });
        held = [];
      };
      for (const r of open.rows()) {
        count++;
        if (held.length && held[0]!.sessionId !== r.sessionId) flush();
        held.push(r);
      }
      flush();
      end = {
        file: db,
        kind: 'db',
        stats: { lines: count, records: count, bytes: source.entry(db)?.size ?? 0, endsWithNewline: true },
      };
    });
  return end;
}
