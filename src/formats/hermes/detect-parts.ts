/**
 * Parts of a Hermes home copied without the rest (a reviewer's backup of one folder, a database copied alone):
 * `state.db` with the files SQLite keeps beside it, recognised by its bytes (db-signature.ts), and a `sessions/`
 * folder recognised by the names Hermes gives its files. Each is audited as the home it came from, the missing part
 * named by HERMES_PART_MISSING (checks/part.ts).
 */
import { basename, dirname } from 'node:path';
import type { DirProbe, FileSessionHit } from '../../model/found.js';
import { DB_FILE, INDEX_FILE } from './artifacts.js';
import { isHermesDb } from './db-signature.js';

export const SESSIONS_DIR = 'sessions';
/** The gateway index inside `sessions/`. */
const INDEX_NAME = INDEX_FILE.slice(SESSIONS_DIR.length + 1);

/** A Hermes session id (formats/pi-hermes.md §2.1): CLI `YYYYMMDD_HHMMSS_<6 hex>`, gateway 8 hex, cron. */
const HERMES_ID = String.raw`(?:\d{8}_\d{6}_[0-9A-Za-z]{4,16}|cron_[^/]+_\d{8}_\d{6})`;
/** The files of a sessions folder: gateway transcripts, CLI snapshots, request dumps. */
const OWN_FILE = new RegExp(
  `^(?:${HERMES_ID}\\.jsonl|session_${HERMES_ID}\\.json|request_dump_${HERMES_ID}_.+\\.json)$`,
);

/** The names SQLite and Hermes keep beside `state.db`, which belong to it. */
const beside = (name: string): boolean =>
  name === `${DB_FILE}-wal` ||
  name === `${DB_FILE}-shm` ||
  name === `${DB_FILE}-journal` ||
  name.startsWith(`${DB_FILE}.malformed-backup-`);

/** Whether a directory's `state.db` is Hermes's, by its header and schema. */
export function hermesDbIn(probe: DirProbe): boolean {
  if (!probe.names.includes(DB_FILE) || probe.type(DB_FILE) !== 'file') return false;
  const head = probe.head(DB_FILE);
  const wal = `${DB_FILE}-wal`;
  return (
    head !== undefined &&
    isHermesDb({
      head,
      read: (offset, length) => probe.read(DB_FILE, offset, length),
      wal: (length) => (probe.names.includes(wal) ? probe.read(wal, 0, length) : undefined),
    })
  );
}

/**
 * `state.db` (with its -wal, -shm, journal and Hermes's malformed backups, and `sessions/` when it is there) in a
 * directory that is not a Hermes home: the home's database copied alone. The session is named after the directory.
 */
export function detectHermesFiles(probe: DirProbe): FileSessionHit[] {
  if (!hermesDbIn(probe)) return [];
  const members = probe.names.filter(
    (n) => n === DB_FILE || beside(n) || (n === SESSIONS_DIR && probe.type(n) === 'dir'),
  );
  return [{ format: 'hermes', id: basename(probe.abs), main: DB_FILE, members }];
}

/**
 * A `sessions/` folder holding Hermes's files (a transcript, a snapshot, a request dump, or the gateway index),
 * without the home around it (no `state.db` beside it): the home's files copied alone. The session is named after
 * the directory holding the folder, where the home would be.
 */
export function detectHermesOrphan(probe: DirProbe): FileSessionHit | undefined {
  if (basename(probe.abs) !== SESSIONS_DIR) return undefined;
  const own = probe.names.filter((n) => (OWN_FILE.test(n) || n === INDEX_NAME) && probe.type(n) === 'file');
  // A file of Hermes's names that is JSON: its first byte opens an object (a snapshot, or a transcript's line);
  // the gateway index, a name other tools use too, only when it holds Hermes's routing keys.
  const json = own.some((n) => {
    const head = probe
      .head(n)
      ?.toString('utf8')
      .replace(/^\ufeff/, '')
      .trimStart();
    return head?.startsWith('{') === true && (n !== INDEX_NAME || /"session_key"\s*:/.test(head));
  });
  if (!json) return undefined;
  return { format: 'hermes', id: basename(dirname(probe.abs)), main: '.', members: ['.'] };
}
