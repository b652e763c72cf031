/**
 * The names Grok gives its search index (home-artifacts.md §1.1): `sessions/session_search.sqlite`, or on a network
 * filesystem the per-host `session_search.h-<host>.sqlite` (xai-sqlite-journal), each with a `-wal` (WAL mode) or a
 * `-journal` (TRUNCATE mode); and the quarantines its self-heal leaves, every file renamed to
 * `<name>.corrupt.<unix nanos>` (recovery.rs:68-108). Never the `-shm`: it is not copied, SQLite rebuilds it.
 */
import type { SidecarNames } from '../../shared/sqlite/copy.js';

const BASES = ['sessions/session_search.sqlite', 'sessions/session_search.h-*.sqlite'];

export const SEARCH_FILES: readonly string[] = BASES.flatMap((b) => [
  b,
  `${b}-wal`,
  `${b}-journal`,
  `${b}.corrupt.*`,
  `${b}-wal.corrupt.*`,
  `${b}-journal.corrupt.*`,
]);

/** Relocation journals (§2.9): a session moving between cwd groups, which explains a row without its directory. */
export const RELOCATION_FILES = 'relocations/*.json';
export const relocationOf = (id: string): string => `relocations/${id}.json`;

export interface SearchIndex {
  /** The database's path relative to the home. */
  rel: string;
  kind: 'live' | 'host' | 'quarantine';
  /** The per-host tag (`h-<host>`), for a per-host index or its quarantine. */
  host?: string;
  /** The quarantine's `<unix nanos>`. */
  ns?: string;
  /** Where its -wal and -journal are (a quarantine's are renamed too). */
  nameOf: SidecarNames;
  /** Every file of it present in the home (a quarantine's renamed logs included). */
  files: string[];
  /** A quarantine of which only the logs are there (the database's own rename failed, or it was removed). */
  logsOnly?: boolean;
}

const INDEX = /^sessions\/session_search(?:\.h-([^/]+))?\.sqlite(-wal|-journal)?(?:\.corrupt\.([0-9]+))?$/;

/** The indexes whose files the home holds: live, per-host, and quarantined (also a quarantine of logs alone). */
export function searchIndexes(paths: readonly string[]): SearchIndex[] {
  const byKey = new Map<string, SearchIndex & { main: boolean }>();
  for (const p of paths) {
    const m = INDEX.exec(p);
    if (!m) continue;
    const [, host, log, ns] = m;
    const base = `sessions/session_search${host !== undefined ? `.h-${host}` : ''}.sqlite`;
    const rel = ns !== undefined ? `${base}.corrupt.${ns}` : base;
    let ix = byKey.get(rel);
    if (!ix) {
      const nameOf: SidecarNames =
        ns !== undefined ? (s) => (s === '' ? rel : `${base}${s}.corrupt.${ns}`) : (s) => `${base}${s}`;
      ix = {
        rel,
        kind: ns !== undefined ? 'quarantine' : host !== undefined ? 'host' : 'live',
        ...(host !== undefined ? { host } : {}),
        ...(ns !== undefined ? { ns } : {}),
        nameOf,
        files: [],
        main: false,
      };
      byKey.set(rel, ix);
    }
    ix.files.push(p);
    if (log === undefined) ix.main = true;
  }
  // A live or per-host log without its database is no index to read (the database was removed or moved).
  return [...byKey.values()]
    .filter((ix) => ix.main || ix.kind === 'quarantine')
    .map(({ main, ...ix }) => (main ? ix : { ...ix, logsOnly: true }));
}
