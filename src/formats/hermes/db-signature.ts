/**
 * Whether a file is Hermes's `state.db` by its bytes, never by its name (`state.db` is a common name): a SQLite
 * header, and in the pages of its schema table (sqlite.org/fileformat2.html §1.3, §1.6) the CREATE TABLE statements
 * of Hermes's `sessions` and `messages` (formats/pi-hermes.md §2.2). Page 1 is the schema table's root; once the
 * schema outgrows one page (Hermes's does: two FTS5 tables and their shadow tables) page 1 is an interior page and
 * the statements are on its children, which are read too. A database still being written in WAL mode may have
 * its schema only in `state.db-wal` (not checkpointed yet): then the first frames of the -wal are searched.
 * Nothing is opened with SQLite.
 */

/** The first bytes of every SQLite 3 database file. */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;
/** Schema pages read at most (a schema table deeper or wider than this is not Hermes's). */
const MAX_PAGES = 32;

/** The columns every era of Hermes's `sessions` and `messages` tables has (schema v1, 2026-02-19, onwards). */
const TABLES: ReadonlyArray<{ name: string; columns: readonly string[] }> = [
  { name: 'sessions', columns: ['source', 'model_config', 'system_prompt', 'parent_session_id', 'started_at'] },
  { name: 'messages', columns: ['session_id', 'role', 'tool_call_id', 'tool_calls', 'tool_name', 'timestamp'] },
];

/** What the signature check may read of the file: its head, bytes at an offset, the start of its -wal. */
export interface DbBytes {
  head: Buffer;
  read(offset: number, length: number): Buffer | undefined;
  /** The first `length` bytes of the write-ahead log beside the file, if there is one. */
  wal?(length: number): Buffer | undefined;
}

/** The two magic numbers a WAL header starts with (sqlite.org/fileformat2.html §4.1). */
const WAL_MAGIC = [0x377f0682, 0x377f0683];
/** How much of a -wal is searched for the schema: its first frames, where a new database writes its tables. */
const WAL_SCAN_BYTES = 1024 * 1024;

/** The page size a database header records (1 means 65536), or undefined when it is not a valid one. */
function pageSize(head: Buffer): number | undefined {
  const raw = head.readUInt16BE(16);
  const size = raw === 1 ? 65536 : raw;
  return size >= 512 && (size & (size - 1)) === 0 ? size : undefined;
}

/** The bytes of the schema table's pages: page 1, then (page 1 being an interior page) its children, breadth first. */
function schemaPages(db: DbBytes, size: number): Buffer[] {
  const page = (n: number): Buffer | undefined => {
    const off = (n - 1) * size;
    if (off + size <= db.head.length) return db.head.subarray(off, off + size);
    const b = db.read(off, size);
    return b && b.length === size ? b : undefined;
  };
  const pages: Buffer[] = [];
  const queue = [1];
  const seen = new Set<number>();
  while (queue.length && pages.length < MAX_PAGES) {
    const n = queue.shift()!;
    if (n < 1 || seen.has(n)) continue;
    seen.add(n);
    const p = page(n);
    if (!p) continue;
    pages.push(p);
    const hdr = n === 1 ? 100 : 0;
    if (p[hdr] !== INTERIOR_TABLE) continue;
    const cells = p.readUInt16BE(hdr + 3);
    for (let i = 0; i < cells && hdr + 12 + 2 * i + 2 <= p.length; i++) {
      const at = p.readUInt16BE(hdr + 12 + 2 * i);
      if (at + 4 <= p.length) queue.push(p.readUInt32BE(at));
    }
    queue.push(p.readUInt32BE(hdr + 8));
  }
  return pages;
}

/**
 * The column lists of every CREATE TABLE statement of `name` in `text` (live ones and stale copies alike), each up
 * to its closing parenthesis or the first byte SQL text cannot hold.
 */
function columnLists(text: string, name: string): string[] {
  const re = new RegExp(`CREATE TABLE ["\`\\[]?${name}["\`\\]]?\\s*\\(`, 'g');
  const out: string[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    let depth = 0;
    let i = m.index + m[0].length - 1;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x09 || (c > 0x0d && c < 0x20)) break;
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) break;
    }
    out.push(text.slice(m.index + m[0].length - 1, i + 1));
  }
  return out;
}

/** Whether a column list declares `column` (SQL comments between the columns passed over). */
const hasColumn = (sql: string, column: string): boolean =>
  new RegExp(`[(,]\\s*["\`\\[]?${column}["\`\\]]?\\s`).test(sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' '));

/** Whether the bytes are a SQLite database whose schema holds Hermes's `sessions` and `messages` tables. */
export function isHermesDb(db: DbBytes): boolean {
  if (db.head.length < 108 || !db.head.subarray(0, 16).equals(SQLITE_MAGIC)) return false;
  const size = pageSize(db.head);
  if (size === undefined) return false;
  const first = db.head[100];
  if (first !== LEAF_TABLE && first !== INTERIOR_TABLE) return false;
  const text = schemaPages(db, size)
    .map((p) => p.toString('latin1'))
    .join('\0');
  if (holdsSchema(text)) return true;
  // A database still being written in WAL mode may hold its schema only in the -wal (never checkpointed yet).
  const wal = db.wal?.(WAL_SCAN_BYTES);
  return wal !== undefined && wal.length >= 32 && WAL_MAGIC.includes(wal.readUInt32BE(0)) && holdsSchema(latin1(wal));
}

const latin1 = (b: Buffer): string => b.toString('latin1');

const holdsSchema = (text: string): boolean =>
  TABLES.every((t) => columnLists(text, t.name).some((sql) => t.columns.every((c) => hasColumn(sql, c))));
