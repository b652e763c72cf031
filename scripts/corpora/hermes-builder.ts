/**
 * Builds Hermes homes for the corpora and tests (formats/pi-hermes.md §2): a `state.db` made with SQLite itself
 * (an in-memory database of schema v16, serialized: the same bytes on every run with the same SQLite), the gateway
 * transcripts, CLI snapshots and the gateway index, and a write-ahead log written frame by frame with fixed salts
 * (sqlite.org/fileformat2.html §4), so a home with committed transactions still in its `-wal` is byte-stable too.
 */
import Database from 'better-sqlite3';

export type Json = Record<string, unknown>;

export interface HermesMessage {
  role: 'user' | 'assistant' | 'tool' | 'system';
  content?: string;
  tool_calls?: Array<{ id: string; name: string; args: Json }>;
  tool_call_id?: string;
  /** Epoch seconds (UTC) in the database; the files write it as naive local time (UTC+2 here). */
  ts: number;
  /** 0: soft-deleted by a rewind (v15+). */
  active?: number;
}

export interface HermesSession {
  id: string;
  source: string;
  startedAt: number;
  endedAt?: number;
  endReason?: string;
  parentId?: string;
  modelConfig?: Json;
  messageCount?: number;
  rewindCount?: number;
  messages: HermesMessage[];
}

/** The host's UTC offset in these homes: files and ids carry local time, the database UTC epoch seconds. */
const LOCAL_OFFSET_S = 2 * 3600;
export const localIso = (epochS: number): string =>
  new Date((epochS + LOCAL_OFFSET_S) * 1000).toISOString().slice(0, -1) + '000';

/** The schema-v16 tables and indexes of state.db (statements separated by `;\n`). */
export const SCHEMA = `
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE sessions (
  id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, model TEXT, model_config TEXT, system_prompt TEXT,
  parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT,
  message_count INTEGER DEFAULT 0, tool_call_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0,
  output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0, cache_write_tokens INTEGER DEFAULT 0,
  reasoning_tokens INTEGER DEFAULT 0, billing_provider TEXT, billing_base_url TEXT, billing_mode TEXT,
  estimated_cost_usd REAL, actual_cost_usd REAL, cost_status TEXT, cost_source TEXT, pricing_version TEXT,
  title TEXT, api_call_count INTEGER DEFAULT 0, handoff_state TEXT, handoff_platform TEXT, handoff_error TEXT,
  cwd TEXT, rewind_count INTEGER DEFAULT 0, archived INTEGER DEFAULT 0,
  FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
);
CREATE TABLE messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
  content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, token_count INTEGER,
  finish_reason TEXT, reasoning TEXT, reasoning_details TEXT, codex_reasoning_items TEXT, reasoning_content TEXT,
  codex_message_items TEXT, platform_message_id TEXT, observed INTEGER DEFAULT 0, active INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE compression_locks (session_id TEXT PRIMARY KEY, holder TEXT, acquired_at REAL, expires_at REAL);
CREATE INDEX idx_sessions_source ON sessions(source);
CREATE INDEX idx_sessions_parent ON sessions(parent_session_id);
CREATE INDEX idx_sessions_started ON sessions(started_at DESC);
CREATE UNIQUE INDEX idx_sessions_title_unique ON sessions(title) WHERE title IS NOT NULL;
CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
CREATE VIRTUAL TABLE messages_fts USING fts5(content);
CREATE VIRTUAL TABLE messages_fts_trigram USING fts5(content, tokenize='trigram');
`;

export const toolCallsJson = (m: HermesMessage): string | null =>
  m.tool_calls
    ? JSON.stringify(
        m.tool_calls.map((c) => ({
          id: c.id,
          call_id: c.id,
          response_item_id: `fc_${c.id.slice(5)}`,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        })),
      )
    : null;

export interface DbOptions {
  version?: number;
  /** Tables left out (an incomplete schema). */
  without?: string[];
  /** Bytes replaced inside an index's root page (a row changed behind the index: integrity_check fails). */
  corruptIndex?: { index: string; from: string; to: string };
  /** Statements run on the finished database before it is serialized (cells no Hermes writes). */
  edit?: string[];
  /** A table whose last leaf page (the root's right-most child) gets a page type no b-tree page has. */
  corruptLastLeaf?: string;
}

/** A schema-v16 state.db holding `sessions`, as bytes (serialized from memory, in rollback-journal mode). */
export function stateDb(sessions: readonly HermesSession[], o: DbOptions = {}): Buffer {
  const db = new Database(':memory:');
  try {
    // Hermes does not turn foreign keys on (Python's sqlite3 leaves them off): a missing parent is storable.
    db.pragma('foreign_keys = OFF');
    for (const stmt of SCHEMA.split(';\n')) {
      const t = stmt.trim();
      if (!t) continue;
      const table = /^CREATE (?:VIRTUAL )?TABLE (\w+)/.exec(t)?.[1];
      if (table && o.without?.includes(table)) continue;
      db.exec(t);
    }
    db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(o.version ?? 16);
    const addSession = db.prepare(
      'INSERT INTO sessions (id, source, model, model_config, parent_session_id, started_at, ended_at, end_reason, ' +
        'message_count, tool_call_count, rewind_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const addMessage = db.prepare(
      'INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp, finish_reason, active) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const fts = o.without?.includes('messages_fts')
      ? undefined
      : db.prepare('INSERT INTO messages_fts (rowid, content) VALUES (?, ?)');
    for (const s of sessions) {
      addSession.run(
        s.id,
        s.source,
        'anthropic/claude-opus-4.6',
        JSON.stringify({ max_iterations: 90, ...s.modelConfig }),
        s.parentId ?? null,
        s.startedAt,
        s.endedAt ?? null,
        s.endReason ?? null,
        s.messageCount ?? s.messages.length,
        s.messages.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0),
        s.rewindCount ?? 0,
      );
    }
    for (const s of sessions)
      for (const m of s.messages) {
        const r = addMessage.run(
          s.id,
          m.role,
          m.content ?? null,
          m.tool_call_id ?? null,
          toolCallsJson(m),
          m.ts,
          m.role === 'assistant' ? (m.tool_calls ? 'tool_calls' : 'stop') : null,
          m.active ?? 1,
        );
        fts?.run(r.lastInsertRowid, m.content ?? '');
      }
    for (const sql of o.edit ?? []) db.exec(sql);
    const bytes = db.serialize();
    if (o.corruptIndex) {
      const { index, from, to } = o.corruptIndex;
      const root = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(index) as { rootpage: number };
      const size = bytes.readUInt16BE(16);
      const page = bytes.subarray((root.rootpage - 1) * size, root.rootpage * size);
      const at = page.indexOf(from);
      if (at < 0 || from.length !== to.length) throw new Error(`cannot corrupt ${index}`);
      page.write(to, at, 'latin1');
    }
    if (o.corruptLastLeaf) {
      const root = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(o.corruptLastLeaf) as {
        rootpage: number;
      };
      const size = bytes.readUInt16BE(16);
      const at = (root.rootpage - 1) * size;
      if (bytes[at] !== 0x05) throw new Error(`${o.corruptLastLeaf} has a single page: no last leaf to corrupt`);
      bytes[(bytes.readUInt32BE(at + 8) - 1) * size] = 0x7f;
    }
    return bytes;
  } finally {
    db.close();
  }
}

/** A message as the gateway transcript and the CLI snapshot write it. */
export function fileMessage(m: HermesMessage): Json {
  const out: Json = { role: m.role, content: m.content ?? '' };
  if (m.role === 'assistant') {
    out.reasoning = null;
    out.finish_reason = m.tool_calls ? 'tool_calls' : 'stop';
    if (m.tool_calls) out.tool_calls = JSON.parse(toolCallsJson(m)!) as unknown;
  }
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  out.timestamp = localIso(m.ts);
  return out;
}

/** A gateway transcript `sessions/<id>.jsonl`: the session_meta line (fresh sessions), then one line per message. */
export function transcript(s: HermesSession, meta = true, messages = s.messages): string {
  const lines: Json[] = [];
  if (meta)
    lines.push({
      role: 'session_meta',
      tools: [{ type: 'function', function: { name: 'terminal', description: 'Run a shell command', parameters: {} } }],
      model: 'anthropic/claude-opus-4.6',
      platform: s.source,
      timestamp: localIso(s.startedAt),
    });
  for (const m of messages) lines.push(fileMessage(m));
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}

/** A CLI snapshot `sessions/session_<id>.json` (pretty-printed, the whole conversation). */
export function snapshot(s: HermesSession, messages = s.messages): string {
  const last = messages.at(-1)?.ts ?? s.startedAt;
  return `${JSON.stringify(
    {
      session_id: s.id,
      model: 'anthropic/claude-opus-4.6',
      base_url: 'https://openrouter.ai/api/v1',
      platform: s.source,
      session_start: localIso(s.startedAt),
      last_updated: localIso(last),
      system_prompt: 'You are Hermes.',
      tools: [],
      message_count: messages.length,
      messages: messages.map(fileMessage),
    },
    null,
    2,
  )}\n`;
}

// --- A write-ahead log written by hand, with fixed salts. ---

function walChecksum(buf: Buffer, start: number, end: number, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = start; i < end; i += 8) {
    s0 = (s0 + buf.readUInt32BE(i) + s1) >>> 0;
    s1 = (s1 + buf.readUInt32BE(i + 4) + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * `before` switched to WAL mode (header bytes 18-19), and a `-wal` that holds `after`'s changed pages as one
 * committed transaction, then `torn` more frames of no commit (a transaction that never committed).
 */
export function walPair(before: Buffer, after: Buffer, torn = 0): { db: Buffer; wal: Buffer } {
  const pageSize = before.readUInt16BE(16) === 1 ? 65536 : before.readUInt16BE(16);
  const db = Buffer.from(before);
  db[18] = 2;
  db[19] = 2;
  const walAfter = Buffer.from(after);
  walAfter[18] = 2;
  walAfter[19] = 2;
  const pages = after.length / pageSize;
  const changed: number[] = [];
  for (let p = 0; p < pages; p++) {
    const a = walAfter.subarray(p * pageSize, (p + 1) * pageSize);
    const b = db.subarray(p * pageSize, (p + 1) * pageSize);
    if (b.length !== pageSize || !a.equals(b)) changed.push(p);
  }
  const frames = [
    ...changed.map((p) => ({ p, commit: false })),
    ...Array.from({ length: torn }, () => ({ p: 0, commit: false })),
  ];
  frames[changed.length - 1]!.commit = true;
  const header = Buffer.alloc(32);
  header.writeUInt32BE(0x377f0683, 0);
  header.writeUInt32BE(3007000, 4);
  header.writeUInt32BE(pageSize, 8);
  header.writeUInt32BE(0, 12);
  header.writeUInt32BE(0x48524d53, 16);
  header.writeUInt32BE(0x41554454, 20);
  let sum = walChecksum(header, 0, 24, [0, 0]);
  header.writeUInt32BE(sum[0], 24);
  header.writeUInt32BE(sum[1], 28);
  const parts = [header];
  for (const f of frames) {
    const frame = Buffer.alloc(24 + pageSize);
    frame.writeUInt32BE(f.p + 1, 0);
    frame.writeUInt32BE(f.commit ? pages : 0, 4);
    frame.writeUInt32BE(0x48524d53, 8);
    frame.writeUInt32BE(0x41554454, 12);
    walAfter.copy(frame, 24, f.p * pageSize, (f.p + 1) * pageSize);
    sum = walChecksum(frame, 0, 8, sum);
    sum = walChecksum(frame, 24, 24 + pageSize, sum);
    frame.writeUInt32BE(sum[0], 16);
    frame.writeUInt32BE(sum[1], 20);
    parts.push(frame);
  }
  return { db, wal: Buffer.concat(parts) };
}

/**
 * A write interrupted in rollback-journal mode (sqlite.org/fileformat2.html §3): the database holds `after`'s
 * pages, and a hot `-journal` holds `before`'s originals of every page that changed (a fixed nonce), so SQLite
 * rolls the database back to `before` on the next open that can write.
 */
export function hotJournal(before: Buffer, after: Buffer): { db: Buffer; journal: Buffer } {
  const pageSize = before.readUInt16BE(16);
  const sector = 512;
  const nonce = 0x48524d53;
  const beforePages = before.length / pageSize;
  const records: Buffer[] = [];
  for (let p = 0; p < beforePages; p++) {
    const orig = before.subarray(p * pageSize, (p + 1) * pageSize);
    if (orig.equals(after.subarray(p * pageSize, (p + 1) * pageSize))) continue;
    const rec = Buffer.alloc(8 + pageSize);
    rec.writeUInt32BE(p + 1, 0);
    orig.copy(rec, 4);
    let sum = nonce;
    for (let i = pageSize - 200; i > 0; i -= 200) sum = (sum + orig[i]!) >>> 0;
    rec.writeUInt32BE(sum, 4 + pageSize);
    records.push(rec);
  }
  const header = Buffer.alloc(sector);
  Buffer.from('d9d505f920a163d7', 'hex').copy(header, 0);
  header.writeUInt32BE(records.length, 8);
  header.writeUInt32BE(nonce, 12);
  header.writeUInt32BE(beforePages, 16);
  header.writeUInt32BE(sector, 20);
  header.writeUInt32BE(pageSize, 24);
  return { db: Buffer.from(after), journal: Buffer.concat([header, ...records]) };
}

/**
 * `db` with its file change counter (header offset 24, and the version-valid-for number at 92 that SQLite writes
 * with it) set to `n`: a database file that has been written `n` times, as a long-used home's is.
 */
export function withCounter(db: Buffer, n: number): Buffer {
  const out = Buffer.from(db);
  out.writeUInt32BE(n, 24);
  out.writeUInt32BE(n, 92);
  return out;
}

/** `db` switched to WAL mode (header bytes 18-19), as a checkpointed Hermes database is. */
export function inWalMode(db: Buffer): Buffer {
  const out = Buffer.from(db);
  out[18] = 2;
  out[19] = 2;
  return out;
}

/** A `-wal` holding every page of `db` as one committed transaction (a database created in WAL mode). */
export function walHolding(db: Buffer): Buffer {
  const blank = Buffer.alloc(db.length);
  db.copy(blank, 0, 0, 100);
  return walPair(blank, db).wal;
}
