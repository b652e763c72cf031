/**
 * Opening a private copy of a database (copy.ts) with SQLite, read-only, and what every reader asks of it first:
 * its tables and `PRAGMA integrity_check`. Never the evidence itself: only the copy is ever handed to SQLite.
 */
import Database from 'better-sqlite3';

type Row = Record<string, unknown>;

const INTEGRITY_ROWS = 100;

/**
 * Open the copy read-only. A hot rollback journal cannot be rolled back read-only (SQLITE_READONLY_ROLLBACK): the
 * private copy is then opened read-write once, so SQLite rolls the interrupted write back there, as the agent's
 * next open would, and opened read-only again (`rolledBack` is called). The evidence is never involved: this is
 * the copy.
 */
export function openCopy(path: string, rolledBack: () => void): Database.Database {
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
  rolledBack();
  return new Database(path, { readonly: true, fileMustExist: true });
}

/** The names of the database's tables, sorted. */
export const tablesOf = (db: Database.Database): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Row[]).map((r) =>
    String(r.name),
  );

/** What `PRAGMA integrity_check` reports (its first rows; empty: ok). */
export function integrity(db: Database.Database): string[] {
  try {
    return (db.prepare(`PRAGMA integrity_check(${INTEGRITY_ROWS})`).all() as Row[])
      .map((r) => String(Object.values(r)[0]))
      .filter((t) => t !== 'ok');
  } catch (e) {
    return [`integrity_check itself failed: ${(e as Error).message}`];
  }
}
