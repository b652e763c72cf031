/**
 * `search QUERY --store DIR`: an FTS5 query over the indexed texts (prompts, model text, tool calls with their
 * arguments, tool outputs: every timeline event), narrowed by the filters, each hit with its evidence location
 * (file:line @byte in the capture that first held the line). Texts were redacted before they were indexed.
 */
import { UsageError } from '../../errors.js';
import { isoTime } from '../../model/safe-values.js';
import { openStore, StoreError } from '../../store/open.js';
import { staleness } from './freshness.js';
import { readIndex, type Db } from './schema.js';

/** What FTS5 puts around a match in a snippet: control characters the index never holds (update.ts). */
const OPEN = '\u0002';
const CLOSE = '\u0003';

export interface SearchFilters {
  agent?: string;
  session?: string;
  sinceMs?: number;
  untilMs?: number;
  kinds?: readonly string[];
  tool?: string;
  code?: string;
  mutating?: boolean;
  limit?: number;
  /** Answer from an index that does not cover every record (said in `stale`) instead of refusing. */
  allowStale?: boolean;
}

export interface SearchHit {
  session: string;
  sessionKey: string;
  agent: string;
  path: string;
  time: string | null;
  kind: string;
  tool?: string;
  /** A later rewind removed the event from the live branch; it precedes the last compaction (as in `timeline`). */
  rewound: boolean;
  compacted: boolean;
  /** The session has since been deleted from its source (the store keeps it). */
  deleted: boolean;
  /** The text around the matches, whitespace as indexed. */
  snippet: string;
  /** The matches in `snippet`: [start, end) in UTF-16 code units. */
  highlights: Array<[number, number]>;
  file: string;
  line: number;
  byte: number;
  /** The first capture holding the line, and the latest capture of its session that still holds it. */
  capture: number;
  lastCapture: number;
}

export interface SearchResult {
  hits: SearchHit[];
  /** More hits than the limit. */
  more: boolean;
  /** With allowStale: why the index does not answer for every record (undefined when it does). */
  stale?: string;
}

/** A snippet with its marks taken out, and where they were. */
export function unmark(marked: string): { snippet: string; highlights: Array<[number, number]> } {
  const highlights: Array<[number, number]> = [];
  let snippet = '';
  let open = -1;
  for (const ch of marked) {
    if (ch === OPEN) open = snippet.length;
    else if (ch === CLOSE) {
      if (open >= 0 && snippet.length > open) highlights.push([open, snippet.length]);
      open = -1;
    } else snippet += ch;
  }
  return { snippet, highlights };
}

interface Row {
  sid: number;
  session: string;
  session_key: string;
  format: string;
  display: string;
  time_ms: number | null;
  kind: string;
  tool: string | null;
  rewound: number;
  compacted: number;
  status: string;
  /** The text around the matches, whitespace as indexed. */
  snippet: string;
  /** The matches in `snippet`: [start, end) in UTF-16 code units. */
  highlights: Array<[number, number]>;
  file: string;
  line: number;
  byte: number;
  capture: number;
}

/** The query as one FTS5 phrase (its double quotes doubled), for the hint. */
const phrase = (q: string): string => `"${q.replace(/"/g, '""')}"`;

export function search(storeDir: string, query: string, f: SearchFilters): SearchResult {
  let store: string;
  try {
    store = openStore(storeDir, false, false);
  } catch (e) {
    if (e instanceof StoreError) throw new UsageError(`--store ${e.message}`);
    throw e;
  }
  const db = readIndex(store);
  if (typeof db === 'string') throw new UsageError(`--store ${storeDir}: ${db}`);
  try {
    const stale = staleness(store, db);
    if (stale !== undefined && !f.allowStale)
      throw new UsageError(
        `search: the index does not answer for the whole store: ${stale}; run archive --reindex --store ` +
          `${storeDir} (or search with --allow-stale to answer from what it holds)`,
      );
    const where: string[] = ['events_fts MATCH @query'];
    const params: Record<string, unknown> = { query };
    if (f.agent !== undefined) {
      // An agent's home (`home:<agent>`: its histories and indexes) is that agent's too.
      where.push("(s.format = @agent OR s.id = 'home:' || @agent)");
      params.agent = f.agent;
    }
    if (f.session !== undefined) {
      const keys = sessionKeys(db, f.session);
      where.push(`s.key IN (${keys.map((_, i) => `@skey${i}`).join(', ')})`);
      keys.forEach((k, i) => {
        params[`skey${i}`] = k;
      });
    }
    if (f.sinceMs !== undefined) {
      where.push('e.time_ms >= @since');
      params.since = f.sinceMs;
    }
    if (f.untilMs !== undefined) {
      where.push('e.time_ms <= @until');
      params.until = f.untilMs;
    }
    if (f.kinds?.length) {
      where.push(`e.kind IN (SELECT id FROM kinds WHERE kind IN (${f.kinds.map((_, i) => `@kind${i}`).join(', ')}))`);
      f.kinds.forEach((k, i) => {
        params[`kind${i}`] = k;
      });
    }
    const call = 'SELECT 1 FROM tool_calls c WHERE c.session = cap.session AND c.call_id = e.tool_call_id';
    if (f.tool !== undefined) {
      where.push(`EXISTS (${call} AND c.name = @tool)`);
      params.tool = f.tool;
    }
    if (f.mutating) where.push(`EXISTS (${call} AND c.may_mutate = 1)`);
    if (f.code !== undefined) {
      where.push('EXISTS (SELECT 1 FROM findings x WHERE x.session = cap.session AND x.code = @code)');
      params.code = f.code;
    }
    const limit = f.limit ?? 100;
    const columns = `cap.session AS sid, s.id AS session, s.key AS session_key, s.format, s.display, s.status,
        e.time_ms, (SELECT kind FROM kinds WHERE id = e.kind) AS kind,
        (SELECT c.name FROM tool_calls c WHERE c.session = cap.session AND c.call_id = e.tool_call_id
          ORDER BY c.id LIMIT 1) AS tool, e.flags & 1 AS rewound, (e.flags >> 1) & 1 AS compacted,
        snippet(events_fts, 0, char(2), char(3), '…', 24) AS snippet,
        (SELECT path FROM paths WHERE id = e.file) AS file, e.line, e.byte, cap.seq AS capture`;
    const from =
      'FROM events_fts JOIN events e ON e.id = events_fts.rowid ' +
      // The capture that added the event: the last whose run of ids starts at or before it.
      'JOIN captures cap ON cap.seq = ' +
      '(SELECT seq FROM captures WHERE first_event <= e.id ORDER BY first_event DESC LIMIT 1) ' +
      'JOIN sessions s ON s.sid = cap.session';
    const order = 'ORDER BY e.time_ms IS NULL, e.time_ms, e.id';
    // With a limit, the hits are chosen and ordered first, then the snippet (whose cost grows with the query's
    // terms) and the tool's name are made for them alone, not for every match the sort passes over (the unary +
    // keeps the id list a filter: pushed into FTS5, each id would evaluate the whole query again).
    const sql =
      limit > 0
        ? `WITH hits AS (SELECT e.id ${from} WHERE ${where.join(' AND ')} ${order} LIMIT ${limit + 1})
           SELECT ${columns} ${from}
           WHERE events_fts MATCH @query AND +events_fts.rowid IN (SELECT id FROM hits) ${order}`
        : `SELECT ${columns} ${from} WHERE ${where.join(' AND ')} ${order}`;
    let rows: Row[];
    try {
      rows = db.prepare(sql).all(params) as Row[];
    } catch (e) {
      // Only what FTS5 says of the query is the user's error; anything else is ours and is reported as such.
      const code = (e as { code?: string }).code ?? '';
      if (
        code === 'SQLITE_ERROR' &&
        /fts5|syntax error|no such column|unterminated|unknown special query/i.test((e as Error).message)
      )
        throw new UsageError(
          `search: the query ${JSON.stringify(query)} is not valid FTS5 (${(e as Error).message})` +
            (query.includes('"') ? '' : `; text with punctuation goes in double quotes: '${phrase(query)}'`),
        );
      throw e;
    }
    const more = limit > 0 && rows.length > limit;
    const hits = (more ? rows.slice(0, limit) : rows).map(
      (r): SearchHit => ({
        session: r.session,
        sessionKey: r.session_key,
        agent: r.format || (r.session.startsWith('home:') ? r.session.slice(5) : r.format),
        path: r.display,
        time: isoTime(r.time_ms ?? undefined) ?? null,
        kind: r.kind,
        ...(r.tool !== null ? { tool: r.tool } : {}),
        rewound: r.rewound === 1,
        compacted: r.compacted === 1,
        deleted: r.status === 'deleted',
        ...unmark(r.snippet),
        file: r.file,
        line: r.line,
        byte: r.byte,
        capture: r.capture,
        lastCapture: heldUntil(db, r.sid, r.file, r.capture),
      }),
    );
    return { hits, more, ...(stale !== undefined ? { stale } : {}) };
  } finally {
    db.close();
  }
}

/**
 * The sessions `--session` names: those with that id or key; else the one whose id or key starts with it (at least
 * 4 characters). None, or a prefix of several, is the user's error: a search for a mistyped session must not say
 * "no hit".
 */
function sessionKeys(db: Db, name: string): string[] {
  type S = { key: string; id: string; display: string };
  const exact = db.prepare('SELECT key, id, display FROM sessions WHERE id = ? OR key = ?').all(name, name) as S[];
  if (exact.length) return exact.map((r) => r.key);
  const rows =
    name.length >= 4
      ? (db
          .prepare('SELECT key, id, display FROM sessions WHERE substr(id, 1, @n) = @p OR substr(key, 1, @n) = @p')
          .all({ n: name.length, p: name }) as S[])
      : [];
  if (rows.length === 1) return [rows[0]!.key];
  if (!rows.length)
    throw new UsageError(
      `--session ${JSON.stringify(name)}: no session in the index has that id or key, or one starting with it ` +
        '(at least 4 characters); `session-audit captures --store DIR` lists them',
    );
  const places = rows.slice(0, 5).map((r) => `${r.id} (key ${r.key}, ${r.display})`);
  throw new UsageError(
    `--session ${JSON.stringify(name)}: ${rows.length} sessions start with it: give a longer prefix or the key: ` +
      `${places.join('; ')}${rows.length > 5 ? `, and ${rows.length - 5} more` : ''}`,
  );
}

/**
 * The latest capture of the session that still holds a line first held by capture `first` of `file`: the captures
 * after it whose version of the file is the same or grew from the one before (a log that only grew keeps its lines);
 * a rewrite, a deletion of the file or of the session ends it.
 */
function heldUntil(db: Db, sid: number, file: string, first: number): number {
  const rows = db
    .prepare(
      `SELECT c.seq, c.status, hex(f.sha256) AS sha256, f.size, f.grew_from AS grew FROM captures c
       LEFT JOIN files f ON f.capture = c.seq AND f.path = (SELECT id FROM paths WHERE path = @file)
       WHERE c.session = @sid AND c.seq >= @first ORDER BY c.seq`,
    )
    .all({ sid, file, first }) as Array<{
    seq: number;
    status: string;
    sha256: string | null;
    size: number | null;
    grew: number | null;
  }>;
  let last = first;
  let prev = rows[0];
  for (const r of rows.slice(1)) {
    if (r.status === 'deleted' || r.sha256 === null || !prev) break;
    if (r.sha256 !== prev.sha256 && r.grew !== prev.size) break;
    last = r.seq;
    prev = r;
  }
  return last;
}
