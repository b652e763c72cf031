/**
 * Reads pinned to the tree that was walked. Discovery and the walk see the tree with lstat, but files are opened
 * later by path, and a directory on that path may have been exchanged for a symlink in between (a process racing
 * the tool, `renameat2(RENAME_EXCHANGE)`): the open then lands outside the evidence. So every evidence open is
 * checked afterwards: on Linux, `/proc/self/fd/N` names what the descriptor really is, and it must be the very
 * path that was asked for (paths under a walked root are canonical: the root went through realpath, and the walk
 * never crosses a symlink). Directories are listed through their own descriptor, so the names and types read are
 * those of the directory that was checked. Where /proc is missing, every component of the path is checked with
 * lstat after the open instead (a narrower window, not a proof).
 */
import { closeSync, constants, existsSync, lstatSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EntryType } from '../model/inventory.js';
import { entryType } from './entry-type.js';
import { escapeName, fsPath } from './names.js';

/**
 * A name as Node decodes it is its escaped name (read/names.ts) when the decoding replaced nothing (no U+FFFD) and
 * there is no backslash to double: then the listing read as text is exact.
 */
const exact = (name: string): boolean => !name.includes('\ufffd') && !name.includes('\\');

/**
 * The names of a listing (escaped: read/names.ts), and with `withTypes` their types (`readdir` with types: no lstat
 * per entry where the file system says). `path`: an escaped path. Read as text, the cheaper way; a listing with a
 * name that text cannot spell exactly is read again as bytes, and that second listing is the one returned.
 */
export function listing(path: string, withTypes: boolean): { names: string[]; types?: Map<string, EntryType> } {
  const at = fsPath(path);
  if (!withTypes) {
    const names = readdirSync(at);
    return { names: names.every(exact) ? names : readdirSync(at, { encoding: 'buffer' }).map(escapeName) };
  }
  const names: string[] = [];
  const types = new Map<string, EntryType>();
  const text = readdirSync(at, { withFileTypes: true });
  const dirents = text.every((d) => exact(d.name))
    ? text
    : readdirSync(at, { withFileTypes: true, encoding: 'buffer' });
  for (const d of dirents) {
    const name = typeof d.name === 'string' ? d.name : escapeName(d.name);
    names.push(name);
    types.set(name, entryType(d));
  }
  return { names, types };
}

const PROC_FD = '/proc/self/fd';
const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

let proc: boolean | undefined;
const procWorks = (): boolean => (proc ??= existsSync(PROC_FD));

/** What the descriptor `fd` really names (its bytes), when the system says. */
function openedPath(fd: number): Buffer | undefined {
  if (!procWorks()) return undefined;
  try {
    return readlinkSync(`${PROC_FD}/${fd}`, { encoding: 'buffer' });
  } catch {
    return undefined;
  }
}

/** No component of `path` (below the file system root; its bytes as latin1 text) is a symlink now. */
function componentsReal(path: string): boolean {
  for (let p = dirname(path); p !== dirname(p); p = dirname(p)) {
    try {
      if (lstatSync(Buffer.from(p, 'latin1')).isSymbolicLink()) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * The descriptor `fd`, opened by `path`, is the file at `path` itself (no directory on the way was swapped).
 * `path`: the real path (a string, or its bytes), not an escaped one.
 */
export function openedAt(fd: number, path: string | Buffer): boolean {
  const real = openedPath(fd);
  let bytes = typeof path === 'string' ? Buffer.from(path, 'utf8') : path;
  // A path given with a trailing slash (`dir/`) names the same directory; the kernel's name has none.
  while (bytes.length > 1 && bytes[bytes.length - 1] === 0x2f) bytes = bytes.subarray(0, -1);
  return real !== undefined ? real.equals(bytes) : componentsReal(bytes.toString('latin1'));
}

/** A file as the walk saw it: device, inode and birth time (0 where the file system keeps none). */
export interface WalkedId {
  dev: number;
  ino: number;
  birth: number;
}

/**
 * The identity the walk saw for an entry, looked at through its checked directory (walk.ts records it): a
 * descriptor whose fstat shows the same device, inode and birth time is that very file, wherever the path now
 * leads, so the open needs no check of its path (one readlink fewer per file). The birth time tells the walked
 * file from a new one given its freed inode number. Kept beside the entries, not in them: entries are reported.
 */
const walkedIds = new WeakMap<object, WalkedId>();

/** Record what the walk saw (numbers beyond 2^53 are not exact in a double: those entries keep the path check). */
export function rememberWalked(entry: object, dev: number, ino: number, birth: number): void {
  if (Number.isSafeInteger(dev) && Number.isSafeInteger(ino) && ino > 0) walkedIds.set(entry, { dev, ino, birth });
}

export function walkedIdentity(entry: object): WalkedId | undefined {
  return walkedIds.get(entry);
}

export const RACE_MESSAGE =
  'changed while being read: a directory on its path was replaced (by a symlink leading elsewhere?), so the file ' +
  'opened is not the one walked; not read';

/** A directory opened for listing: its (escaped) names, and a path for each entry that resolves inside it. */
export interface PinnedDir {
  names: string[];
  /** With `withTypes`, the type of each entry as the listing gave it (a file system that gives none: lstat). */
  types?: Map<string, EntryType>;
  /** An escaped path to the entry `name` of the checked directory, for lstat and readlink (through `fsPath`). */
  at(name: string): string;
  close(): void;
}

/**
 * Open the directory `abs` (an escaped path) for listing, checked to be the directory at `abs` itself; error: an
 * errno code, or 'ERACE' when it is not; `withTypes`: with each entry's type from the listing.
 */
export function openDir(abs: string, withTypes = false): PinnedDir | { error: string } {
  if (!procWorks()) {
    try {
      return { ...listing(abs, withTypes), at: (name) => join(abs, name), close: () => {} };
    } catch (e) {
      return { error: (e as NodeJS.ErrnoException).code ?? 'EIO' };
    }
  }
  let fd: number;
  try {
    fd = openSync(fsPath(abs), DIR_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    // O_NOFOLLOW|O_DIRECTORY on what is now a symlink: it was swapped after the walk saw a directory.
    return { error: code === 'ELOOP' || code === 'ENOTDIR' ? 'ERACE' : code };
  }
  const self = `${PROC_FD}/${fd}`;
  try {
    if (!openedAt(fd, fsPath(abs))) {
      closeSync(fd);
      return { error: 'ERACE' };
    }
    return { ...listing(self, withTypes), at: (name) => `${self}/${name}`, close: () => closeSync(fd) };
  } catch (e) {
    closeSync(fd);
    return { error: (e as NodeJS.ErrnoException).code ?? 'EIO' };
  }
}
