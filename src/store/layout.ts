/**
 * The store's layout on disk and its one way of writing: a new file is written under `tmp/`, fsynced, renamed
 * into place and its directory fsynced, so a run killed at any moment leaves every file either absent or whole.
 *
 *   store.json                       what this directory is (format and version)
 *   head.json                        the last capture record's number and sha256
 *   lock                             held by the run writing the store (its pid)
 *   objects/<2 hex>/<64 hex>         content-addressed pieces of file versions (sha256 of the piece's bytes)
 *   captures/<6 digits>/<10 digits>.json   capture records, numbered from 1, each naming its predecessor's hash
 *   tmp/                             files being written (removed by the next run)
 */
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { DIR_MODE, FILE_MODE } from './guard.js';

export const STORE_FORMAT = 'session-audit-store';
export const STORE_VERSION = 1;

export const storeFile = (store: string): string => join(store, 'store.json');
/** The last record's number and hash, rewritten after each record: an edit of the last record shows against it. */
export const headFile = (store: string): string => join(store, 'head.json');
export const tmpDir = (store: string): string => join(store, 'tmp');
export const objectsDir = (store: string): string => join(store, 'objects');
export const capturesDir = (store: string): string => join(store, 'captures');
export const objectPath = (store: string, sha256: string): string =>
  join(objectsDir(store), sha256.slice(0, 2), sha256);
export const captureName = (seq: number): string =>
  `${String(Math.floor(seq / 10000)).padStart(6, '0')}/${String(seq).padStart(10, '0')}.json`;
export const capturePath = (store: string, seq: number): string => join(capturesDir(store), captureName(seq));

/** Make the directory (and its parents) and fsync the parent of each one made. */
export function ensureDir(dir: string): void {
  const made = mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (made !== undefined) fsyncDir(join(dir, '..'));
}

export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0));
    fsyncSync(fd);
  } catch {
    /* some file systems cannot fsync a directory: the rename is still atomic */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

let counter = 0;
/** A fresh name under tmp/ for this process. */
export const tmpName = (store: string): string => join(tmpDir(store), `${process.pid}-${Date.now()}-${counter++}`);

/**
 * Files renamed into place whose bytes and names are not yet known to be on disk: flushed together at the next
 * checkpoint (one journal commit for many files instead of one each; the file system writes them in order).
 * A process killed at any moment loses nothing renamed (the kernel has it); `checkpoint` makes it survive a power
 * loss too, and only then is head.json moved on.
 */
const unsynced: string[] = [];
const unsyncedDirs = new Set<string>();

/** Note a file (and its directory) renamed into place, to be fsynced at the next checkpoint. */
export function syncLater(path: string): void {
  unsynced.push(path);
  unsyncedDirs.add(join(path, '..'));
}

/** fsync every file noted since the last checkpoint, in the order written, then their directories. */
export function checkpoint(): void {
  for (const path of unsynced.splice(0)) {
    let fd: number | undefined;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
      fsyncSync(fd);
    } catch (e) {
      // A piece an abandoned attempt stored and removed again (capture-session.ts): nothing to keep.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  for (const dir of [...unsyncedDirs]) fsyncDir(dir);
  unsyncedDirs.clear();
}

/**
 * Write `bytes` to `target` atomically: temp file, rename (never a half-written file under its name). `durable`:
 * fsync the file before the rename and the directory after; else it is fsynced at the next checkpoint.
 */
export function writeAtomic(store: string, target: string, bytes: Buffer, durable = true): void {
  const tmp = tmpName(store);
  const fd = openSync(tmp, 'wx', FILE_MODE);
  try {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const dir = join(target, '..');
  ensureDir(dir);
  renameSync(tmp, target);
  if (durable) fsyncDir(dir);
  else syncLater(target);
}

/** Files a killed run left under tmp/ (called under the lock). */
export function clearTmp(store: string): void {
  const dir = tmpDir(store);
  ensureDir(dir);
  // Never through a symlink (guard.ts refuses such a store; this is the last line before a recursive remove).
  if (!lstatSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true, recursive: true });
}
