/**
 * The store's index (`index.sqlite`): derived data, rebuilt from the capture records by `archive --reindex`.
 * Versioned with `PRAGMA user_version`; an index of another version is rebuilt, never read. Rollback journal (no
 * WAL), so the store stays one file per thing. docs/index-schema.md documents every table for sqlite3 users.
 *
 * A rebuild is made beside the live index (under the store's tmp/, by the run holding the store's lock) and renamed
 * over it when complete: a search meanwhile reads the old index whole, never a half-built one.
 */
import Database from 'better-sqlite3';
import { chmodSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_MODE } from '../../store/guard.js';
import { fsyncDir, tmpName } from '../../store/layout.js';

export const INDEX_VERSION = 4;
export const INDEX_NAME = 'index.sqlite';

export const indexPath = (store: string): string => join(store, INDEX_NAME);

export type Db = InstanceType<typeof Database>;

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
CREATE INDEX sessions_id ON sessions(id);
CREATE TABLE captures (
  seq INTEGER PRIMARY KEY,
  session INTEGER NOT NULL REFERENCES sessions(sid),
  run TEXT NOT NULL,
  status TEXT NOT NULL,
  previous INTEGER,
  files INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  events INTEGER NOT NULL,
  not_indexed TEXT
);
CREATE INDEX captures_session ON captures(session);
CREATE TABLE files (
  capture INTEGER NOT NULL REFERENCES captures(seq),
  path TEXT NOT NULL,
  type TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  mode INTEGER NOT NULL,
  sha256 TEXT,
  grew_from INTEGER,
  read_error TEXT,
  PRIMARY KEY (capture, path)
);
CREATE INDEX files_sha256 ON files(sha256);
CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  session INTEGER NOT NULL REFERENCES sessions(sid),
  capture INTEGER NOT NULL REFERENCES captures(seq),
  file TEXT NOT NULL,
  line INTEGER NOT NULL,
  byte INTEGER NOT NULL,
  time TEXT,
  time_ms REAL,
  kind TEXT NOT NULL,
  tag TEXT NOT NULL,
  tool_call_id TEXT,
  tool_status TEXT,
  rewound INTEGER NOT NULL,
  compacted INTEGER NOT NULL,
  text TEXT NOT NULL,
  line_key TEXT NOT NULL,
  digest TEXT NOT NULL,
  UNIQUE (session, file, byte, line_key)
);
CREATE INDEX events_call ON events(session, tool_call_id);
CREATE INDEX events_time ON events(time_ms);
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
  file TEXT,
  line INTEGER,
  byte INTEGER,
  digest TEXT NOT NULL,
  UNIQUE (session, call_id, digest)
);
CREATE INDEX tool_calls_name ON tool_calls(name);
CREATE TABLE findings (
  id INTEGER PRIMARY KEY,
  session INTEGER NOT NULL REFERENCES sessions(sid),
  capture INTEGER NOT NULL REFERENCES captures(seq),
  code TEXT NOT NULL,
  severity TEXT NOT NULL,
  file TEXT NOT NULL,
  line INTEGER,
  byte INTEGER,
  message TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  digest TEXT NOT NULL,
  UNIQUE (session, fingerprint)
);
CREATE INDEX findings_code ON findings(code);
CREATE VIRTUAL TABLE events_fts USING fts5(text, content='events', content_rowid='id');
`;

export interface WritableIndex {
  db: Db;
  /** Close it; a rebuild is then renamed over the live index. */
  done(): void;
  /** Close it and throw a rebuild away (the live index stays as it was). */
  abandon(): void;
}

const makeEmpty = (path: string): Db => {
  const db = new Database(path, { timeout: 60_000 });
  chmodSync(path, FILE_MODE);
  db.pragma('journal_mode = DELETE');
  db.transaction(() => {
    db.exec(DDL);
    db.pragma(`user_version = ${INDEX_VERSION}`);
  })();
  return db;
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
  const beside = `${tmpName(store)}.sqlite`;
  const db = makeEmpty(beside);
  const remove = (): void => {
    for (const f of [beside, `${beside}-journal`]) rmSync(f, { force: true });
  };
  return {
    db,
    done: () => {
      db.close();
      // A journal a killed run left belongs to the index being replaced: it must never be rolled into this one.
      rmSync(`${indexPath(store)}-journal`, { force: true });
      renameSync(beside, indexPath(store));
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
