/**
 * What every reader of a SQLite database does around its own queries: the size checked against `--max-db-bytes`,
 * a private copy with its logs (copy.ts), the header checked, a `-wal` or `-journal` that is not the database's own
 * left out (own.ts), the copy opened read-only (open.ts), the reader's callback run on it, and the copy removed on
 * every path, a throw in the callback included. Never throws: each failure is a reason in words.
 */
import { existsSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { SessionSource } from '../../../model/source.js';
import { copyDatabase, DB_SUFFIXES, type SidecarNames } from './copy.js';
import { openCopy } from './open.js';
import { journalForeignReasons, journalState, walForeignReasons } from './own.js';
import { fileReader, type WalState, walStateOfFile } from './wal.js';

/** The default of `--max-db-bytes`: a database with its `-wal` and `-journal` above it is neither copied nor read. */
export const DEFAULT_MAX_DB_BYTES = 2 * 1024 * 1024 * 1024;

export interface WithCopyOptions {
  /** The cap on the database and its logs together (`--max-db-bytes`). */
  maxDbBytes: number;
  /** The names of its logs when they are not `<rel>-wal` (a quarantine's renamed logs). */
  nameOf?: SidecarNames;
  /** Whether a `-journal` is judged too (else only the `-wal`). Default true. */
  journal?: boolean;
  /** Whether a hot journal is rolled back in the copy (openCopy); else a plain read-only open. Default true. */
  rollback?: boolean;
  /** Called when a hot journal was rolled back in the copy. */
  onRollback?: () => void;
  /** The words for a file that is not a SQLite 3 database, from its first 100 bytes (fewer when it is shorter). */
  notDatabase?: (head: Buffer) => string;
}

/** What was seen of the copy's logs, on success and on failure alike. */
export interface CopyLogs {
  /** The header says the database is in WAL mode (its read and write versions are 2). */
  walHeader?: boolean;
  /** The copy's WAL, when it is the database's own. */
  wal?: WalState;
  walForeign?: string[];
  journalForeign?: string[];
}

export type WithCopyResult<T> = CopyLogs & ({ ok: true; value: T } | { ok: false; error: string });

const message = (e: unknown): string => (e as Error).message;

const NOT_DATABASE = (): string => 'it is not a SQLite 3 database (no "SQLite format 3" header)';

function openChecked(path: string, logs: CopyLogs, opts: WithCopyOptions): Database.Database | string {
  const f = fileReader(path);
  let head: Buffer;
  try {
    head = f.read(0, 100);
  } finally {
    f.close();
  }
  if (head.length < 100 || head.toString('latin1', 0, 16) !== 'SQLite format 3\u0000')
    return (opts.notDatabase ?? NOT_DATABASE)(head);
  logs.walHeader = head[18] === 2 && head[19] === 2;
  const walPath = `${path}-wal`;
  if (existsSync(walPath)) {
    const wal = walStateOfFile(walPath);
    const foreign = walForeignReasons(head, wal);
    if (foreign.length) {
      logs.walForeign = foreign;
      rmSync(walPath, { force: true });
    } else logs.wal = wal;
  }
  const journalPath = `${path}-journal`;
  if ((opts.journal ?? true) && existsSync(journalPath)) {
    const foreign = journalForeignReasons(head, journalState(journalPath));
    if (foreign.length) {
      logs.journalForeign = foreign;
      rmSync(journalPath, { force: true });
    }
  }
  try {
    if (opts.rollback ?? true) return openCopy(path, opts.onRollback ?? (() => {}));
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (e) {
      db.close();
      throw e;
    }
    return db;
  } catch (e) {
    return `SQLite cannot open it (${message(e)})`;
  }
}

/**
 * Copy `rel` of the source, open the copy read-only, run `read` on it (with what was seen of its logs), and always
 * remove the copy. A throw in `read` is a failure in words; `read` may close `db` itself (closing twice is harmless).
 */
export function withDatabaseCopy<T>(
  source: SessionSource,
  rel: string,
  opts: WithCopyOptions,
  read: (db: Database.Database, logs: Readonly<CopyLogs>) => T,
): WithCopyResult<T> {
  const nameOf: SidecarNames = opts.nameOf ?? ((s) => `${rel}${s}`);
  const bytes = DB_SUFFIXES.reduce((n, x) => n + (source.entry(nameOf(x))?.size ?? 0), 0);
  if (bytes > opts.maxDbBytes)
    return { ok: false, error: `it is larger than the cap (${bytes} > ${opts.maxDbBytes} bytes; --max-db-bytes)` };
  const copy = copyDatabase(source, rel, nameOf);
  if (!copy.ok) return { ok: false, error: copy.error };
  const logs: CopyLogs = {};
  try {
    const db = openChecked(copy.value.path, logs, opts);
    if (typeof db === 'string') return { ...logs, ok: false, error: db };
    try {
      return { ...logs, ok: true, value: read(db, logs) };
    } finally {
      db.close();
    }
  } catch (e) {
    return { ...logs, ok: false, error: `reading it failed (${message(e)})` };
  } finally {
    copy.value.remove();
  }
}
