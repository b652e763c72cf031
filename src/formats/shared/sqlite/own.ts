/**
 * Whether the `-wal` or the hot `-journal` beside an agent's database is its own (sqlite.org/fileformat2.html
 * §1.3, §3, §4). SQLite reads any `-wal` it finds beside a database, whatever wrote it, and rolls back any hot
 * journal: a log of another database laid over a clean one replaces its pages, and sessions vanish without an
 * error. What ties a log to its database: the page size; the database header a log carries in its copy of page 1,
 * whose fields a transaction never changes (page size, reserved bytes, text encoding, application id) and whose
 * change counter only grows along one database's history; for a WAL, the journal mode the database's header
 * records (a database in rollback-journal mode has no WAL of its own: switching back checkpoints and deletes it).
 * Each test gives a reason; no reason is no evidence either way, and the log is used as SQLite would.
 */
import type { WalState } from './wal.js';
import { fileReader } from './wal.js';

/** The first 100 bytes of a database file (its header). */
export type DbHeader = Buffer;

const pageSizeOf = (h: Buffer): number => {
  const v = h.readUInt16BE(16);
  return v === 1 ? 65536 : v;
};
const counter = (h: Buffer): number => h.readUInt32BE(24);

/** Fields of a header no transaction of the database changes, by name and offset. */
const FIXED: ReadonlyArray<[string, number, number]> = [
  ['page size', 16, 2],
  ['reserved bytes per page', 20, 1],
  ['text encoding', 56, 4],
  ['application id', 68, 4],
];

/** How the copy of page 1 a log carries differs from the database's own header. */
function headerReasons(db: DbHeader, page1: Buffer, what: string): string[] {
  const out: string[] = [];
  for (const [name, at, len] of FIXED) {
    const a = db.subarray(at, at + len);
    const b = page1.subarray(at, at + len);
    if (!a.equals(b)) out.push(`its ${what} has ${name} ${b.toString('hex')}, the database ${a.toString('hex')}`);
  }
  return out;
}

/** Why the WAL is not the database's (empty: nothing says so). */
export function walForeignReasons(db: DbHeader, wal: WalState): string[] {
  if (wal.problem !== undefined || wal.committedFrames === 0) return [];
  const out: string[] = [];
  if (wal.pageSize !== pageSizeOf(db))
    out.push(`its page size is ${wal.pageSize} bytes, the database's ${pageSizeOf(db)}`);
  if (db[18] === 1 && db[19] === 1)
    out.push('the database is in rollback-journal mode (header bytes 18-19), which leaves no write-ahead log');
  if (wal.page1Header) {
    out.push(...headerReasons(db, wal.page1Header, 'copy of page 1'));
    if (counter(wal.page1Header) < counter(db))
      out.push(
        `its copy of page 1 has change counter ${counter(wal.page1Header)}, older than the database's ` +
          `${counter(db)}: a database's counter only grows`,
      );
  }
  return out;
}

/** What a rollback journal holds (its header and its record of page 1, when it has one). */
export interface JournalState {
  bytes: number;
  /** The header cannot be read (no magic, too short): SQLite deletes such a journal and rolls nothing back. */
  problem?: string;
  pageSize: number;
  /** The database's size in pages before the interrupted write. */
  dbPages: number;
  records: number;
  /** The first 100 bytes of page 1 as it was before the write, when the journal holds it. */
  page1Header?: Buffer;
}

const JOURNAL_MAGIC = Buffer.from('d9d505f920a163d7', 'hex');

/** Read a rollback journal's header and find its record of page 1 (record by record: bounded memory). */
export function journalState(path: string): JournalState {
  const f = fileReader(path);
  try {
    const out: JournalState = { bytes: f.size, pageSize: 0, dbPages: 0, records: 0 };
    const head = f.read(0, 28);
    if (head.length < 28 || !head.subarray(0, 8).equals(JOURNAL_MAGIC))
      return { ...out, problem: 'no journal header (SQLite ignores it)' };
    const nRec = head.readUInt32BE(8);
    out.dbPages = head.readUInt32BE(16);
    const sector = head.readUInt32BE(20);
    out.pageSize = head.readUInt32BE(24);
    if (out.pageSize < 512 || out.pageSize > 65536 || (out.pageSize & (out.pageSize - 1)) !== 0)
      return { ...out, problem: `page size ${out.pageSize} is not valid` };
    const first = sector >= 512 && sector <= 65536 ? sector : 512;
    const recSize = out.pageSize + 8;
    // nRec 0xFFFFFFFF (or 0 in some modes) means "as many records as the file holds".
    const fit = Math.floor(Math.max(0, f.size - first) / recSize);
    const n = nRec === 0xffffffff || nRec === 0 ? fit : Math.min(nRec, fit);
    out.records = n;
    for (let i = 0; i < n; i++) {
      const at = first + i * recSize;
      if (f.read(at, 4).readUInt32BE(0) === 1) {
        out.page1Header = f.read(at + 4, 100);
        break;
      }
    }
    return out;
  } finally {
    f.close();
  }
}

/** Why the hot journal is not the database's (empty: nothing says so). */
export function journalForeignReasons(db: DbHeader, j: JournalState): string[] {
  if (j.problem !== undefined || j.records === 0) return [];
  const out: string[] = [];
  if (j.pageSize !== pageSizeOf(db)) out.push(`its page size is ${j.pageSize} bytes, the database's ${pageSizeOf(db)}`);
  if (j.page1Header) {
    out.push(...headerReasons(db, j.page1Header, 'original of page 1'));
    // The journal holds page 1 as it was before the write; the database holds it before (same counter) or after
    // the write's increment (one more). Any other counter is another database's, or another time's.
    const was = counter(j.page1Header);
    const now = counter(db);
    if (was !== now && (was + 1) >>> 0 !== now)
      out.push(
        `its original of page 1 has change counter ${was}, the database's ${now}: an interrupted write leaves ` +
          'the same counter or one more',
      );
  }
  return out;
}
