/**
 * `sessions/session_search.sqlite` (home-artifacts.md §1.1): Grok's FTS5 search cache, one `session_docs` row per
 * session (title, cwd, updated_at, the indexed text, its blake3 hash) and a `meta` table (schema version,
 * `last_bootstrap_at`, `bootstrap_claimed_at`). Read from a private copy with its `-wal` and `-journal`
 * (formats/shared/sqlite/: the evidence is never opened by SQLite; never the `-shm`), opened read-only; a log that is
 * not the database's own is left out. The FTS5 table itself is never read: `session_docs` is its content table.
 * What is kept of each row is small (its text is hashed as it is read, then only its length and the head of its
 * first prompt are kept), so a large index is read in bounded memory; a reader that wants the text (the recall)
 * is handed each row's as it is read.
 */
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type Database from 'better-sqlite3';
import type { SessionSource } from '../../../model/source.js';
import type { SidecarNames } from '../../shared/sqlite/copy.js';
import { integrity, tablesOf } from '../../shared/sqlite/open.js';
import { DEFAULT_MAX_DB_BYTES, withDatabaseCopy } from '../../shared/sqlite/with-copy.js';

/** Rows of `session_docs` kept (a larger index is judged on these, and says so). */
const MAX_ROWS = 200_000;
/** `SEARCH_CONTENT_CHAR_LIMIT` (search_content.rs:17): a longer text keeps only its last 200,000 bytes. */
export const CONTENT_LIMIT_BYTES = 200_000;
/** How much of a row's first prompt is kept for its excerpt. */
const PROMPT_HEAD = 2000;

type Row = Record<string, unknown>;

export interface SearchRow {
  id: string;
  cwd: string;
  /** Unix seconds (`summary.updated_at`); undefined when the cell is not an integer. */
  updatedAt?: number;
  title: string;
  /** The indexed text's length in bytes (UTF-8 as stored). */
  contentBytes: number;
  /**
   * The head of the first prompt (the text before the first blank line: prompts are joined with "\n\n"); undefined
   * when the text may have lost its head to the 200 KB tail cut.
   */
  firstPrompt?: string;
  storedHash: string;
  /** blake3(title ‖ 0x00 ‖ content) as lowercase hex (doc.rs:43-62), over the stored bytes. */
  hash: string;
}

export interface SearchFacts {
  error?: string;
  integrity: string[];
  walForeign?: string[];
  journalForeign?: string[];
  tables: string[];
  meta: Map<string, string>;
  rows: SearchRow[];
  truncated: boolean;
}

const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'bigint' ? Number(v) : undefined;
const bytes = (v: unknown): Uint8Array =>
  v instanceof Uint8Array ? v : typeof v === 'string' ? Buffer.from(v, 'utf8') : new Uint8Array();

const ZERO = new Uint8Array([0]);

export function contentHash(title: Uint8Array, content: Uint8Array): string {
  const h = blake3.create();
  h.update(title);
  h.update(ZERO);
  h.update(content);
  return bytesToHex(h.digest());
}

function firstPromptOf(content: Uint8Array): string | undefined {
  if (content.length > CONTENT_LIMIT_BYTES - 4) return undefined;
  const buf = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const end = buf.indexOf('\n\n');
  const head = buf.subarray(0, Math.min(end < 0 ? buf.length : end, PROMPT_HEAD * 4)).toString('utf8');
  return head.slice(0, PROMPT_HEAD);
}

/** Called with each row as it is read and its indexed text, for a reader that wants the text itself. */
export type OnRowText = (row: SearchRow, content: Buffer) => void;

function readRows(db: Database.Database, facts: SearchFacts, onText?: OnRowText): void {
  const cols = (db.prepare('PRAGMA table_info(session_docs)').all() as Row[]).map((r) => String(r.name));
  const want = ['session_id', 'cwd', 'updated_at', 'title', 'content', 'content_hash'];
  const lacking = want.filter((c) => !cols.includes(c));
  if (lacking.length) {
    facts.error = `its session_docs table lacks ${lacking.join(', ')}`;
    return;
  }
  const sql =
    'SELECT session_id, cwd, updated_at, CAST(title AS BLOB) AS t, CAST(content AS BLOB) AS c, content_hash ' +
    'FROM session_docs ORDER BY session_id';
  for (const r of db.prepare(sql).iterate() as Iterable<Row>) {
    if (facts.rows.length >= MAX_ROWS) {
      facts.truncated = true;
      break;
    }
    const title = bytes(r.t);
    const content = bytes(r.c);
    const updatedAt = num(r.updated_at);
    const first = firstPromptOf(content);
    const row: SearchRow = {
      id: String(r.session_id),
      cwd: typeof r.cwd === 'string' ? r.cwd : String(r.cwd ?? ''),
      ...(updatedAt !== undefined ? { updatedAt } : {}),
      title: Buffer.from(title).toString('utf8'),
      contentBytes: content.length,
      ...(first !== undefined ? { firstPrompt: first } : {}),
      storedHash: typeof r.content_hash === 'string' ? r.content_hash : String(r.content_hash ?? ''),
      hash: contentHash(title, content),
    };
    facts.rows.push(row);
    onText?.(row, Buffer.from(content.buffer, content.byteOffset, content.byteLength));
  }
}

/**
 * Read one index of the home (`rel` relative to it) from a private copy, removed before this returns; never
 * throws. `nameOf` names its -wal and -journal when they are not `<rel>-wal` (a quarantine's renamed logs).
 */
export function readSearchDb(
  source: SessionSource,
  rel: string,
  nameOf: SidecarNames = (s) => `${rel}${s}`,
  maxDbBytes = DEFAULT_MAX_DB_BYTES,
  onText?: OnRowText,
): SearchFacts {
  const facts: SearchFacts = { integrity: [], tables: [], meta: new Map(), rows: [], truncated: false };
  const r = withDatabaseCopy(source, rel, { maxDbBytes, nameOf }, (db) => {
    facts.tables = tablesOf(db);
    facts.integrity = integrity(db);
    if (facts.tables.includes('meta'))
      for (const m of db.prepare('SELECT key, value FROM meta').iterate() as Iterable<Row>)
        facts.meta.set(String(m.key), String(m.value));
    if (facts.tables.includes('session_docs')) readRows(db, facts, onText);
    else facts.error = 'it has no session_docs table';
  });
  if (r.walForeign) facts.walForeign = r.walForeign;
  if (r.journalForeign) facts.journalForeign = r.journalForeign;
  if (!r.ok) facts.error = r.error;
  return facts;
}
