/**
 * Directory walk with lstat only: symlinks, FIFOs, sockets and devices are recorded, never followed or opened.
 * Output is sorted by path (byte order) so everything downstream is deterministic.
 */
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { EntryType, InventoryEntry } from '../model/inventory.js';
import { entryType } from './entry-type.js';
import { listing, openDir, rememberWalked, type PinnedDir } from './pinned.js';
import { escapeName, fsPath, rawPathOf } from './names.js';

import { byteOrder } from '../model/order.js';

/**
 * Names are read as bytes and escaped (read/names.ts): a name that is not valid UTF-8 is neither lost nor merged
 * with another; every path here is an escaped one. `pinned`: `abs` is a canonical path under a walked root, listed
 * only if it is still that directory (error 'ERACE' when a directory on the way was swapped for a symlink:
 * read/pinned.ts).
 */
export function listDir(
  abs: string,
  pinned = false,
): { names: string[]; types?: ReadonlyMap<string, EntryType>; error?: string } {
  if (pinned) {
    const dir = openDir(abs, true);
    if ('error' in dir) return { names: [], error: dir.error };
    dir.close();
    return { names: dir.names.sort(byteOrder), types: dir.types };
  }
  try {
    return { names: listing(abs, false).names.sort(byteOrder) };
  } catch (e) {
    return { names: [], error: (e as NodeJS.ErrnoException).code ?? 'EIO' };
  }
}

/**
 * `at`: the path to lstat (a path through the checked directory's descriptor); `abs` by default. All three are
 * escaped paths; an entry whose `rel` is not valid UTF-8 carries its real bytes as `rawPath`.
 */
export function lstatEntry(abs: string, rel: string, at: string = abs): InventoryEntry {
  let st: Stats;
  const raw = rawPathOf(rel);
  try {
    st = lstatSync(fsPath(at));
  } catch (e) {
    return {
      path: rel,
      ...(raw !== undefined ? { rawPath: raw } : {}),
      type: 'unknown',
      size: 0,
      mtimeMs: 0,
      mode: 0,
      readError: (e as NodeJS.ErrnoException).code ?? 'EIO',
    };
  }
  const entry: InventoryEntry = {
    path: rel,
    ...(raw !== undefined ? { rawPath: raw } : {}),
    type: entryType(st),
    size: st.size,
    mtimeMs: Math.trunc(st.mtimeMs),
    mode: st.mode & 0o7777,
  };
  if (entry.type === 'file' && at !== abs) rememberWalked(entry, st.dev, st.ino, st.birthtimeMs);
  if (entry.type === 'symlink') {
    try {
      entry.linkTarget = escapeName(readlinkSync(fsPath(at), { encoding: 'buffer' }));
    } catch {
      /* target unreadable: recorded without it */
    }
  }
  return entry;
}

export const MAX_WALK_DEPTH = 16;

/**
 * Every entry under `root` (not including root itself), depth-first, sorted; directories are listed too. `pinned`:
 * `root` is canonical and evidence: each directory is listed through its own descriptor, checked to be the one at
 * its path, and its entries are looked at through that descriptor (a directory swapped for a symlink mid-walk is
 * 'ERACE', never a listing of somewhere else). A root that cannot be listed is `rootError`.
 */
export function walkTree(
  root: string,
  maxDepth = MAX_WALK_DEPTH,
  pinned = false,
): InventoryEntry[] & { rootError?: string } {
  const out: InventoryEntry[] & { rootError?: string } = [];
  const visit = (abs: string, rel: string, depth: number, self: InventoryEntry | undefined): void => {
    const dir = pinned ? openDir(abs) : plainDir(abs);
    if ('error' in dir) {
      if (self) self.readError = dir.error;
      else out.rootError = dir.error;
      return;
    }
    try {
      for (const name of dir.names.sort(byteOrder)) {
        const childRel = rel ? `${rel}/${name}` : name;
        const childAbs = join(abs, name);
        const entry = lstatEntry(childAbs, childRel, dir.at(name));
        out.push(entry);
        if (entry.type === 'dir') {
          if (depth + 1 >= maxDepth) entry.readError = 'EDEPTH';
          else visit(childAbs, childRel, depth + 1, entry);
        }
      }
    } finally {
      dir.close();
    }
  };
  visit(root, '', 0, undefined);
  return out;
}

function plainDir(abs: string): PinnedDir | { error: string } {
  try {
    return { names: listing(abs, false).names, at: (name) => join(abs, name), close: () => {} };
  } catch (e) {
    return { error: (e as NodeJS.ErrnoException).code ?? 'EIO' };
  }
}

/** True when the path is a real directory (lstat: a symlink to one is not). */
export function isRealDirectory(abs: string): boolean {
  try {
    return lstatSync(fsPath(abs)).isDirectory();
  } catch {
    return false;
  }
}
