/**
 * What an opencode data directory (`$XDG_DATA_HOME/opencode`, formats/opencode.md §1.2) holds: the database
 * `opencode.db` or a channel's `opencode-<channel>.db` with its `-wal` and `-shm` (E2, E3), the JSON trees of the
 * older eras (E0 `project/<dir>/storage/session/…`, E1 `storage/{session,message,part}/…`, left behind after the
 * import), the snapshot repositories, tool outputs, logs and the secret files (`auth.json`, `mcp-auth.json`). The
 * directory is audited as one session of this tool: the database holds every opencode session.
 */
import type { Artifact } from '../../model/session.js';
import type { InventoryEntry } from '../../model/inventory.js';
import type { DirProbe, FileSessionHit } from '../../model/found.js';

/** The database of the default channel, or of a named one (`opencode-<channel>.db`, from 1.2.21). */
export const DB_NAME = /^opencode(?:-[A-Za-z0-9_.-]+)?\.db$/;
const DB_SIDE = /^(opencode(?:-[A-Za-z0-9_.-]+)?\.db)-(wal|shm|journal)$/;

/** Files that hold credentials: never read, never shown (formats/opencode.md §1.2, §1.3). */
export const SECRET_FILES = /^(?:auth\.json|mcp-auth\.json|storage\/session_share\/[^/]+\.json)$/;

/** E0: `project/<dir>/storage/session/{info/<ses>.json, message/<ses>/<msg>.json, part/<ses>/<msg>/<prt>.json}`. */
export const E0_SESSION = /^project\/([^/]+)\/storage\/session\/info\/(ses_[^/]+)\.json$/;
export const E0_MESSAGE = /^project\/([^/]+)\/storage\/session\/message\/(ses_[^/]+)\/(msg_[^/]+)\.json$/;
export const E0_PART = /^project\/([^/]+)\/storage\/session\/part\/(ses_[^/]+)\/(msg_[^/]+)\/(prt_[^/]+)\.json$/;
/** E1: `storage/session/<project>/<ses>.json`, `storage/message/<ses>/<msg>.json`, `storage/part/<msg>/<prt>.json`. */
export const E1_SESSION = /^storage\/session\/([^/]+)\/(ses_[^/]+)\.json$/;
export const E1_MESSAGE = /^storage\/message\/(ses_[^/]+)\/(msg_[^/]+)\.json$/;
export const E1_PART = /^storage\/part\/(msg_[^/]+)\/(prt_[^/]+)\.json$/;
export const SESSION_DIFF = /^storage\/session_diff\/(ses_[^/]+)\.json$/;

/** Names beside `storage/` that only opencode's data directory has together with it. */
const OWN = ['auth.json', 'mcp-auth.json', 'snapshot', 'tool-output'];

/** A data directory: a database of opencode's names (or its -wal alone), or the JSON tree beside opencode's own. */
export const detectOpencode = (names: readonly string[]): 'session' | 'descend' =>
  names.some((n) => DB_NAME.test(n) || DB_SIDE.test(n)) ||
  (names.includes('storage') && OWN.some((n) => names.includes(n)))
    ? 'session'
    : 'descend';

/** The databases of a data directory (by name, with -wal or -shm alone giving the name they belong to). */
export function databasesIn(paths: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const p of paths) {
    if (DB_NAME.test(p)) out.add(p);
    const m = DB_SIDE.exec(p);
    if (m) out.add(m[1]!);
  }
  return [...out].sort();
}

export function classifyOpencode(inventory: readonly InventoryEntry[]): Map<string, Artifact> {
  const out = new Map<string, Artifact>();
  const set = (path: string, kind: string, role: Artifact['role'], note?: string) =>
    out.set(path, note === undefined ? { path, kind, role } : { path, kind, role, note });
  for (const e of inventory) {
    const p = e.path;
    const side = DB_SIDE.exec(p);
    if (e.type === 'dir') set(p, 'dir', 'dir');
    else if (DB_NAME.test(p)) set(p, 'db', 'binary', 'the SQLite database (E2/E3)');
    else if (side?.[2] === 'wal') set(p, 'db-wal', 'binary', `write-ahead log of ${side[1]}`);
    else if (side?.[2] === 'shm') set(p, 'db-shm', 'transient', `shared-memory index of ${side[1]}-wal`);
    else if (side?.[2] === 'journal') set(p, 'db-journal', 'binary', `rollback journal of ${side[1]}`);
    else if (SECRET_FILES.test(p)) set(p, 'secret', 'withheld', 'credentials: never read, shown or bagged');
    else if (E0_SESSION.test(p) || E1_SESSION.test(p)) set(p, 'tree-session', 'json');
    else if (E0_MESSAGE.test(p) || E1_MESSAGE.test(p)) set(p, 'message', 'json');
    else if (E0_PART.test(p) || E1_PART.test(p)) set(p, 'part', 'json');
    else if (SESSION_DIFF.test(p)) set(p, 'session-diff', 'json', "a session's file changes (summary sidecar)");
    else if (/^(?:project\/[^/]+\/)?storage\/migration$/.test(p))
      set(p, 'migration-marker', 'text', 'the JSON storage migration level');
    else if (p.startsWith('snapshot/')) set(p, 'snapshot', 'binary', "a git repository of the worktree's states");
    else if (p.startsWith('tool-output/')) set(p, 'tool-output', 'text', 'the full text of a truncated tool output');
    else if (p.startsWith('log/')) set(p, 'log', 'text');
    else set(p, 'data-file', 'binary', 'a file of the opencode data directory');
  }
  return out;
}

/**
 * A database named on the command line alone (or its -wal, the database gone): the session is that file with the
 * files SQLite keeps beside it. In a walk, a directory holding one is a data directory (detectOpencode) instead.
 */
export function detectOpencodeFiles(probe: DirProbe): FileSessionHit[] {
  const hits: FileSessionHit[] = [];
  for (const db of databasesIn(probe.names)) {
    const members = [db, `${db}-wal`, `${db}-shm`, `${db}-journal`].filter((n) => probe.names.includes(n));
    const main = probe.names.includes(db) ? db : members[0]!;
    hits.push({ format: 'opencode', id: db.replace(/\.db$/, ''), main, members });
  }
  return hits;
}
