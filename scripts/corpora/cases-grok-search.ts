/**
 * The Grok search index corpora (home-artifacts.md §1.1): the clean Grok tree inside a `.grok` home beside
 * `sessions/session_search.sqlite` (a row for every session, its content_hash as Grok computes it), which must stay
 * clean; and one case per GROK_SEARCH_ code. The index is built with better-sqlite3 in the exact schema of
 * fts.rs:211-255 (FTS5 table and triggers included), its rows' text in the layout of search_content.rs:290-297.
 */
import Database from 'better-sqlite3';
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Case, Files } from './case-kit.js';
import { CWD, cleanTree } from './clean-root.js';
import { PLANTED } from './secrets.js';

const DB = '.grok/sessions/session_search.sqlite';

export interface SearchRowSpec {
  id: string;
  cwd: string;
  updatedAt: number;
  title: string;
  content: string;
  /** The stored hash, when it is not the one Grok computes. */
  hash?: string;
}

export const searchHash = (title: string, content: string): string =>
  bytesToHex(blake3(Buffer.concat([Buffer.from(title, 'utf8'), Buffer.from([0]), Buffer.from(content, 'utf8')])));

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS session_docs (
    session_id TEXT PRIMARY KEY, cwd TEXT NOT NULL, updated_at INTEGER NOT NULL,
    title TEXT NOT NULL, content TEXT NOT NULL, content_hash TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS session_docs_fts USING fts5(
    title, content, content='session_docs', content_rowid='rowid');
CREATE TRIGGER IF NOT EXISTS session_docs_ai AFTER INSERT ON session_docs BEGIN
    INSERT INTO session_docs_fts(rowid, title, content) VALUES (new.rowid, new.title, new.content); END;
CREATE TRIGGER IF NOT EXISTS session_docs_ad AFTER DELETE ON session_docs BEGIN
    INSERT INTO session_docs_fts(session_docs_fts, rowid, title, content)
    VALUES ('delete', old.rowid, old.title, old.content); END;
CREATE TRIGGER IF NOT EXISTS session_docs_au AFTER UPDATE ON session_docs BEGIN
    INSERT INTO session_docs_fts(session_docs_fts, rowid, title, content)
    VALUES ('delete', old.rowid, old.title, old.content);
    INSERT INTO session_docs_fts(rowid, title, content) VALUES (new.rowid, new.title, new.content); END;
`;

/** A session_search.sqlite holding `rows` and `meta` (the schema version is 4 unless `meta` says otherwise). */
export function searchDb(rows: readonly SearchRowSpec[], meta: Record<string, string>): Buffer {
  const db = new Database(':memory:');
  db.exec(SCHEMA);
  const m = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)');
  for (const [k, v] of Object.entries({ session_search_schema_version: '4', ...meta })) m.run(k, v);
  const ins = db.prepare(
    'INSERT INTO session_docs(session_id, cwd, updated_at, title, content, content_hash) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const r of rows) ins.run(r.id, r.cwd, r.updatedAt, r.title, r.content, r.hash ?? searchHash(r.title, r.content));
  const bytes = db.serialize();
  db.close();
  return bytes;
}

type Obj = Record<string, unknown>;

/** A row as Grok builds it from a session's summary.json and updates.jsonl (prompts, assistant text, tool titles). */
export function rowOf(summary: string, updates: string): SearchRowSpec {
  const s = JSON.parse(summary) as Obj;
  const info = s.info as Obj;
  const prompts: string[] = [];
  const said: string[] = [];
  const tools: string[] = [];
  for (const l of updates.split('\n').filter(Boolean)) {
    const u = ((JSON.parse(l) as Obj).params as Obj | undefined)?.update as Obj | undefined;
    const text = ((u?.content as Obj | undefined)?.text as string | undefined) ?? '';
    if (u?.sessionUpdate === 'user_message_chunk' && text) prompts.push(text);
    if (u?.sessionUpdate === 'agent_message_chunk' && text) said.push(text.trim());
    if (u?.sessionUpdate === 'tool_call' && typeof u.title === 'string') tools.push(u.title);
  }
  const title = String(s.generated_title ?? s.session_summary ?? '');
  return {
    id: String(info.id),
    cwd: String(info.cwd),
    updatedAt: Math.floor(Date.parse(String(s.updated_at)) / 1000),
    title,
    content: [prompts.join('\n\n'), said.join('\n'), tools.join('\n')].join('\n\n'),
  };
}

export interface GrokSearchHome {
  tree: Files;
  rows: SearchRowSpec[];
  meta: Record<string, string>;
}

/** The last completed bootstrap of the clean index: the launch before the clean sessions (2026-08-19 09:00Z). */
export const BOOTSTRAP = Date.UTC(2026, 7, 19, 9, 0) / 1000;

export function grokSearchParts(): GrokSearchHome {
  const tree: Files = new Map();
  for (const [p, c] of cleanTree().files) tree.set(`.grok/${p}`, c);
  const rows: SearchRowSpec[] = [];
  for (const [p, c] of tree) {
    const m = /^(.*)\/summary\.json$/.exec(p);
    if (m && !p.includes('/subagents/')) rows.push(rowOf(String(c), String(tree.get(`${m[1]}/updates.jsonl`) ?? '')));
  }
  return { tree, rows, meta: { last_bootstrap_at: String(BOOTSTRAP) } };
}

export function renderGrokSearch(h: GrokSearchHome, db = DB): Files {
  const out: Files = new Map(h.tree);
  out.set(db, searchDb(h.rows, h.meta));
  return out;
}

/** A row of a session whose directory is gone (not in the tree). */
const goneRow = (n: number, updatedAt: number, prompt: string, title: string): SearchRowSpec => ({
  id: `019a3000-0000-7000-8000-00000000b0${String(n).padStart(2, '0')}`,
  cwd: CWD,
  updatedAt,
  title,
  content: `${prompt}\n\nDone: the change is in place.\n\nRead src/lib.rs`,
});

const at = (y: number, mo: number, d: number, h = 12): number => Date.UTC(y, mo - 1, d, h) / 1000;

function searchCase(name: string, description: string, must: string[], edit: (h: GrokSearchHome) => Files): Case {
  const h = grokSearchParts();
  return { name, description, must, files: edit(h) };
}

export function grokSearchCases(): Case[] {
  return [
    searchCase(
      'home-search-clean',
      'A clean ~/.grok home: the clean sessions beside sessions/session_search.sqlite, with a row for every ' +
        'session (content_hash as Grok computes it) and a completed bootstrap before them. No home code fires.',
      [],
      (h) => renderGrokSearch(h),
    ),
    searchCase(
      'home-search-gone',
      'The search index holds the rows of two sessions whose directories are gone, and its last bootstrap is ' +
        'older than every row: one row is older than the 30-day TTL before the newest row (a note: what the TTL ' +
        'cleanup leaves), the other newer (a warning: deleted by hand). The newer one has a key in its prompt, ' +
        'which the message redacts (and SECRET_IN_HOME reports: the index keeps it).',
      ['GROK_SEARCH_ROW_WITHOUT_SESSION', 'SECRET_IN_HOME'],
      (h) => {
        h.meta.last_bootstrap_at = String(at(2026, 6, 1));
        h.rows.push(goneRow(1, at(2026, 7, 1), 'Bump the lockfile.', 'Bump the lockfile'));
        h.rows.push(goneRow(2, at(2026, 8, 18), `Deploy with ${PLANTED['api-key']!} now.`, 'Deploy to staging'));
        return renderGrokSearch(h);
      },
    ),
    searchCase(
      'home-search-gone-bounded',
      'The search index holds the row of a session whose directory is gone, written before its last completed ' +
        'bootstrap (which would have pruned it): the session was deleted after that bootstrap, and it was not old ' +
        'enough for that launch to delete it.',
      ['GROK_SEARCH_ROW_SURVIVED_BOOTSTRAP'],
      (h) => {
        h.rows.push(goneRow(3, at(2026, 8, 18), 'Rotate the staging certificates.', 'Rotate certificates'));
        return renderGrokSearch(h);
      },
    ),
    searchCase(
      'home-search-not-indexed',
      "The fork's session has no row, though the index's last completed bootstrap came a day after its " +
        'summary.json was last updated: the bootstrap skipped it (GSI-5, a note).',
      ['GROK_SEARCH_SESSION_NOT_INDEXED'],
      (h) => {
        const newest = Math.max(...h.rows.map((r) => r.updatedAt));
        h.meta.last_bootstrap_at = String(newest + 86_400);
        h.rows = h.rows.filter((r) => !r.id.endsWith('a002'));
        return renderGrokSearch(h);
      },
    ),
    searchCase(
      'home-search-row-behind',
      "The main session's row is an hour older than its summary.json: the index is behind the log (GSI-6, a note).",
      ['GROK_SEARCH_ROW_BEHIND'],
      (h) => {
        h.rows[0]!.updatedAt -= 3600;
        return renderGrokSearch(h);
      },
    ),
    searchCase(
      'home-search-text-not-in-log',
      "The main session's row (its content_hash consistent) begins with a prompt its updates.jsonl no longer " +
        'holds: the log was cut or rewritten after the row was written (GSI-3, a warning).',
      ['GROK_SEARCH_TEXT_NOT_IN_LOG'],
      (h) => {
        h.rows[0]!.content = `Deploy the old build to production first.\n\n${h.rows[0]!.content}`;
        return renderGrokSearch(h);
      },
    ),
    searchCase(
      'home-search-tampered',
      "The main session's row was edited outside Grok: its text no longer hashes to its content_hash, and its " +
        'first prompt is no longer what the log holds.',
      ['GROK_SEARCH_CONTENT_HASH_MISMATCH', 'GROK_SEARCH_TEXT_NOT_IN_LOG'],
      (h) => {
        const main = h.rows[0]!;
        main.hash = searchHash(main.title, main.content);
        main.content = main.content.replace('fix it', 'delete it');
        return renderGrokSearch(h);
      },
    ),
    searchCase(
      'home-search-damaged',
      'sessions/session_search.sqlite is not a SQLite database (its bytes were overwritten): one finding, not a ' +
        'crash.',
      ['GROK_SEARCH_DB_UNREADABLE'],
      (h) => {
        const files = renderGrokSearch(h);
        files.set(DB, Buffer.from('this is not a database\n'.repeat(20)));
        return files;
      },
    ),
    searchCase(
      'home-search-stale',
      'The search index was written by a newer Grok (schema version 5), and its reindex was claimed and never ' +
        'completed (bootstrap_claimed_at without last_bootstrap_at): two notes.',
      ['GROK_SEARCH_SCHEMA_NEWER', 'GROK_SEARCH_BOOTSTRAP_UNFINISHED'],
      (h) => {
        h.meta = {
          session_search_schema_version: '5',
          bootstrap_claimed_at: `${BOOTSTRAP}:6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f`,
        };
        return renderGrokSearch(h);
      },
    ),
    searchCase(
      'home-search-quarantine',
      'Beside a clean index, the quarantine Grok left when it found an earlier index unusable ' +
        '(session_search.sqlite.corrupt.<nanos>, 2026-08-15): a note, and its row of a session deleted since is ' +
        'reported with the quarantine as its source.',
      ['GROK_SEARCH_QUARANTINE', 'GROK_SEARCH_ROW_WITHOUT_SESSION'],
      (h) => {
        const files = renderGrokSearch(h);
        const old = [goneRow(4, at(2026, 8, 10), 'Trim the old fixtures.', 'Trim fixtures')];
        const ns = `${at(2026, 8, 15)}000000000`;
        files.set(`${DB}.corrupt.${ns}`, searchDb(old, { last_bootstrap_at: String(at(2026, 8, 1)) }));
        return files;
      },
    ),
    searchCase(
      'home-search-per-host',
      'The home is on a network filesystem: Grok keeps its index as session_search.h-devbox.sqlite, a row for ' +
        'every session. A note; the index is read as any other.',
      ['GROK_SEARCH_PER_HOST_INDEX'],
      (h) => {
        const files = renderGrokSearch(h, '.grok/sessions/session_search.h-devbox.sqlite');
        files.set('.grok/sessions/session_search.h-devbox.sqlite-journal', '');
        return files;
      },
    ),
  ];
}
