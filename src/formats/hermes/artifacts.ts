/**
 * What a Hermes home is on disk (formats/pi-hermes.md §2.1): `state.db` (SQLite, WAL mode: `-wal`, `-shm`) and
 * `sessions/` with the gateway transcripts `<id>.jsonl`, the CLI snapshots `session_<id>.json` and the gateway
 * index `sessions.json`. The home is audited as one session of this tool: the database holds every Hermes session
 * and the files of one Hermes session cross-reference it.
 */
import type { Artifact } from '../../model/session.js';
import type { InventoryEntry } from '../../model/inventory.js';

export const DB_FILE = 'state.db';
export const TRANSCRIPT = /^sessions\/([^/]+)\.jsonl$/;
export const SNAPSHOT = /^sessions\/session_([^/]+)\.json$/;
export const INDEX_FILE = 'sessions/sessions.json';
const REQUEST_DUMP = /^sessions\/request_dump_[^/]+\.json$/;

/** Names beside `state.db` that only a Hermes home has together with it. */
const HOME_MARKERS = ['sessions', 'config.yaml', 'SOUL.md', 'memories', 'skills', 'profiles'];

/** What a home has that no other agent's directory has together: Hermes's persona file, memories and skills. */
const OWN_MARKERS = ['SOUL.md', 'memories', 'skills'];

/**
 * A Hermes home: `state.db` beside one of its markers, or (a home from before the database, 2026-02, or one whose
 * database is gone) `sessions/` and `config.yaml` beside one of Hermes's own files.
 */
export const detectHermes = (names: readonly string[]): 'session' | 'descend' =>
  (names.includes(DB_FILE) && HOME_MARKERS.some((m) => names.includes(m))) ||
  (names.includes('sessions') && names.includes('config.yaml') && OWN_MARKERS.some((m) => names.includes(m)))
    ? 'session'
    : 'descend';

/** The Hermes session id of a transcript or snapshot path, or undefined. */
export function hermesIdOf(rel: string): string | undefined {
  return SNAPSHOT.exec(rel)?.[1] ?? (rel === INDEX_FILE ? undefined : TRANSCRIPT.exec(rel)?.[1]);
}

export function classifyHermes(inventory: readonly InventoryEntry[]): Map<string, Artifact> {
  const out = new Map<string, Artifact>();
  const set = (path: string, kind: string, role: Artifact['role'], note?: string) =>
    out.set(path, note === undefined ? { path, kind, role } : { path, kind, role, note });
  for (const e of inventory) {
    const p = e.path;
    if (e.type === 'dir') set(p, 'dir', 'dir');
    else if (p === DB_FILE) set(p, 'state-db', 'binary');
    else if (p === `${DB_FILE}-wal`) set(p, 'state-db-wal', 'binary', 'write-ahead log of state.db');
    else if (p === `${DB_FILE}-shm`) set(p, 'state-db-shm', 'transient', 'shared-memory index of state.db-wal');
    else if (p === `${DB_FILE}-journal`)
      set(p, 'state-db-journal', 'binary', 'rollback journal of state.db (a hot journal: an interrupted write)');
    else if (p.startsWith(`${DB_FILE}.malformed-backup-`))
      set(p, 'state-db-backup', 'binary', "Hermes's own copy of a database it found malformed");
    else if (p === INDEX_FILE) set(p, 'index', 'json');
    else if (SNAPSHOT.test(p)) set(p, 'snapshot', 'json');
    else if (TRANSCRIPT.test(p)) set(p, 'transcript', 'jsonl');
    else if (REQUEST_DUMP.test(p)) set(p, 'request-dump', 'json', 'a failed API request Hermes dumped for debugging');
    else set(p, 'home-file', 'text', 'a file of the Hermes home (configuration, memories, skills, logs)');
  }
  return out;
}
