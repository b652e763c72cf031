/**
 * The store's index (`index.sqlite`): derived data, rebuilt from the capture records by `archive --reindex`.
 * Versioned with `PRAGMA user_version`; an index of another version is rebuilt, never read. Rollback journal (no
 * WAL), so the store stays one file per thing. docs/index-schema.md documents every table for sqlite3 users.
 *
 * A rebuild is made beside the live index (under the store's tmp/, by the run holding the store's lock) and renamed
 * over it when complete: a search meanwhile reads the old index whole, never a half-built one.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_MODE } from '../../store/guard.js';
import { fsyncDir, tmpName } from '../../store/layout.js';

export const INDEX_VERSION = 5;
export const INDEX_NAME = 'index.sqlite';

export const indexPath = (store: string): string => join(store, INDEX_NAME);

export type Db = InstanceType<typeof Database>;

/**
 * Version 5 is about half the size of version 4: the paths of files and the kinds of events (with their wire tags
 * and tool statuses) are rows of their own tables named by number; an event names no capture (each capture's
 * events are one run of ids from its `first_event`); digests are 8 bytes (BLOB, not 16 hex digits), and so is an
 * audit's fingerprint; an event's time is kept once (`time_ms`; the ISO form is made from it) and its flags in one
 * column; FTS5 keeps no per-row sizes (`columnsize=0`: `search` never ranks); the only secondary indexes are those
 * `search` and the update use. The `*_rows` views show the rows with their numbers spelled out, as the digests
 * cover them.
 */
const DDL = `
CREATE TABLE chain (
  seq INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  sha256 TEXT NOT NULL
);
CREATE TABLE sessions (
  sid INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  id TEXT NOT NULL,
  format TEXT NOT NULL,
  display TEXT NOT NULL,
  abs TEXT NOT NULL,
  root TEXT NOT NULL,
  group_name TEXT,
  first_capture INTEGER NOT NULL,
  last_capture INTEGER NOT NULL,
  status TEXT NOT NULL,
  first_run TEXT NOT NULL,
  last_run TEXT NOT NULL
);
CREATE TABLE captures (
  seq INTEGER PRIMARY KEY,
  session INTEGER NOT NULL REFERENCES sessions(sid),
  run TEXT NOT NULL,
  status TEXT NOT NULL,
  previous INTEGER,
  files INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  events INTEGER NOT NULL,
  first_event INTEGER,
  not_indexed TEXT
);
CREATE INDEX captures_session ON captures(session);
CREATE INDEX captures_first_event ON captures(first_event);
CREATE TABLE paths (
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE
);
CREATE TABLE kinds (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  tag TEXT NOT NULL,
  tool_status TEXT
);
CREATE INDEX kinds_kind ON kinds(kind, tag, tool_status);
CREATE TABLE files (
  capture INTEGER NOT NULL REFERENCES captures(seq),
  path INTEGER NOT NULL REFERENCES paths(id),
  type TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  mode INTEGER NOT NULL,
  sha256 BLOB,
  grew_from INTEGER,
  read_error TEXT,
  PRIMARY KEY (capture, path)
) WITHOUT ROWID;
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  file INTEGER NOT NULL REFERENCES paths(id),
  line INTEGER NOT NULL,
  byte INTEGER NOT NULL,
  time_ms REAL,
  kind INTEGER NOT NULL REFERENCES kinds(id),
  tool_call_id TEXT,
  flags INTEGER NOT NULL,
  text TEXT NOT NULL,
  digest BLOB NOT NULL
);
CREATE TABLE tool_calls (
  id INTEGER PRIMARY KEY,
  session INTEGER NOT NULL REFERENCES sessions(sid),
  capture INTEGER NOT NULL REFERENCES captures(seq),
  call_id TEXT NOT NULL,
  name TEXT NOT NULL,
  kind TEXT,
  arguments TEXT,
  status TEXT NOT NULL,
  may_mutate INTEGER NOT NULL,
  prompt_index INTEGER,
  file INTEGER REFERENCES paths(id),
  line INTEGER,
  byte INTEGER,
  digest BLOB NOT NULL,
  UNIQUE (session, call_id, digest)
);
CREATE TABLE findings (
  id INTEGER PRIMARY KEY,
  session INTEGER NOT NULL REFERENCES sessions(sid),
  capture INTEGER NOT NULL REFERENCES captures(seq),
  code TEXT NOT NULL,
  severity TEXT NOT NULL,
  file INTEGER NOT NULL REFERENCES paths(id),
  line INTEGER,
  byte INTEGER,
  message TEXT NOT NULL,
  fingerprint NOT NULL,
  digest BLOB NOT NULL,
  UNIQUE (session, fingerprint)
);
CREATE VIRTUAL TABLE events_fts USING fts5(text, content='events', content_rowid='id', columnsize=0);
CREATE VIEW event_rows AS
  SELECT e.id, c.session, c.seq AS capture, p.path AS file, e.line, e.byte, e.time_ms, k.kind, k.tag, e.tool_call_id,
    k.tool_status, e.flags & 1 AS rewound, (e.flags >> 1) & 1 AS compacted, e.text, e.flags, e.digest
  FROM events e
    LEFT JOIN captures c
      ON c.seq = (SELECT seq FROM captures WHERE first_event <= e.id ORDER BY first_event DESC LIMIT 1)
      AND e.id < c.first_event + c.events
    LEFT JOIN paths p ON p.id = e.file
    LEFT JOIN kinds k ON k.id = e.kind;
CREATE VIEW tool_call_rows AS
  SELECT t.id, t.session, t.capture, t.call_id, t.name, t.kind, t.arguments, t.status, t.may_mutate,
    t.prompt_index, p.path AS file, t.line, t.byte, t.digest
  FROM tool_calls t LEFT JOIN paths p ON p.id = t.file;
CREATE VIEW finding_rows AS
  SELECT f.id, f.session, f.capture, f.code, f.severity, p.path AS file, f.line, f.byte, f.message,
    CASE typeof(f.fingerprint) WHEN 'blob' THEN lower(hex(f.fingerprint)) ELSE f.fingerprint END AS fingerprint,
    f.digest
  FROM findings f LEFT JOIN paths p ON p.id = f.file;
CREATE VIEW file_rows AS
  SELECT f.capture, p.path, f.type, f.size, f.mtime_ms, f.mode,
    CASE WHEN f.sha256 IS NULL THEN NULL ELSE lower(hex(f.sha256)) END AS sha256, f.grew_from,
    f.read_error
  FROM files f LEFT JOIN paths p ON p.id = f.path;
`;

export interface WritableIndex {
  db: Db;
  /** Close it; a rebuild is then renamed over the live index. */
  done(): void;
  /** Close it and throw a rebuild away (the live index stays as it was). */
  abandon(): void;
}

/**
 * A new index, made beside the live one: nothing reads it before it is renamed in, so it is written without a
 * journal file and without waiting on the disk (a failed capture's savepoint still rolls back, in memory), then
 * compacted and fsynced once, whole, by `seal`.
 */
const makeEmpty = (path: string): Db => {
  const db = new Database(path, { timeout: 60_000 });
  chmodSync(path, FILE_MODE);
  // Pages of 8 KiB hold an index about 1% smaller than 4 KiB ones (less of each page left over).
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = MEMORY');
  db.pragma('synchronous = OFF');
  db.transaction(() => {
    db.exec(DDL);
    db.pragma(`user_version = ${INDEX_VERSION}`);
  })();
  return db;
};

/**
 * The rebuilt index, compacted into `to` (VACUUM INTO writes a new file, every page full, once) and on disk before
 * its rename; the file it was built in is removed.
 */
const seal = (db: Db, from: string, to: string): void => {
  rmSync(to, { force: true });
  db.prepare('VACUUM INTO ?').run(to);
  db.close();
  rmSync(from, { force: true });
  chmodSync(to, FILE_MODE);
  const fd = openSync(to, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Open the index read-write (the caller holds the store's lock). `fresh`, or an index of another version or that is
 * no database: a new one is built beside it and renamed over it by `done`.
 */
export function openIndex(store: string, fresh: boolean): WritableIndex {
  if (!fresh) {
    let db: Db | undefined;
    try {
      db = new Database(indexPath(store), { timeout: 60_000 });
      if (db.pragma('user_version', { simple: true }) === INDEX_VERSION) {
        const open = db;
        return { db: open, done: () => open.close(), abandon: () => open.close() };
      }
    } catch {
      // Not a database any more (damaged, overwritten): derived data, so made again below.
    }
    db?.close();
  }
  const base = tmpName(store);
  const beside = `${base}.sqlite`;
  const sealed = `${base}.sealed.sqlite`;
  const db = makeEmpty(beside);
  const remove = (): void => {
    for (const f of [beside, `${beside}-journal`, sealed]) rmSync(f, { force: true });
  };
  return {
    db,
    done: () => {
      try {
        seal(db, beside, sealed);
      } catch (e) {
        // A full disk, say: the live index stays as it was, and nothing of this one is left in tmp/.
        if (db.open) db.close();
        remove();
        throw e;
      }
      // A journal a killed run left belongs to the index being replaced: it must never be rolled into this one.
      rmSync(`${indexPath(store)}-journal`, { force: true });
      renameSync(sealed, indexPath(store));
      fsyncDir(store);
    },
    abandon: () => {
      db.close();
      remove();
    },
  };
}

/** Open the index for reading, or a string saying why it cannot be (missing, another version). */
export function readIndex(store: string): Db | string {
  let db: Db;
  try {
    db = new Database(indexPath(store), { readonly: true, fileMustExist: true, timeout: 60_000 });
  } catch {
    return 'the store has no index yet; run archive (or archive --reindex) on it';
  }
  let version: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
  } catch (e) {
    db.close();
    return `the index cannot be read (${(e as Error).message}); run archive --reindex`;
  }
  if (version !== INDEX_VERSION) {
    db.close();
    return `the index is of version ${version}, this session-audit reads ${INDEX_VERSION}; run archive --reindex`;
  }
  return db;
}
