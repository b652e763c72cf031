/**
 * Directory walk with lstat only: symlinks, FIFOs, sockets and devices are recorded, never followed or opened.
 * Output is sorted by path (byte order) so everything downstream is deterministic.
 */
import { lstatSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { EntryType, InventoryEntry } from '../model/inventory.js';

export function entryType(st: Stats): EntryType {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'dir';
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isBlockDevice()) return 'block-device';
  if (st.isCharacterDevice()) return 'char-device';
  return 'unknown';
}

import { byteOrder } from '../model/order.js';

/** Names as raw bytes decoded leniently would lose information; Node gives us UTF-8 strings, kept as is. */
export function listDir(abs: string): { names: string[]; error?: string } {
  try {
    return { names: readdirSync(abs).sort(byteOrder) };
  } catch (e) {
    return { names: [], error: (e as NodeJS.ErrnoException).code ?? 'EIO' };
  }
}

export function lstatEntry(abs: string, rel: string): InventoryEntry {
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch (e) {
    return {
      path: rel,
      type: 'unknown',
      size: 0,
      mtimeMs: 0,
      mode: 0,
      readError: (e as NodeJS.ErrnoException).code ?? 'EIO',
    };
  }
  const entry: InventoryEntry = {
    path: rel,
    type: entryType(st),
    size: st.size,
    mtimeMs: Math.trunc(st.mtimeMs),
    mode: st.mode & 0o7777,
  };
  if (entry.type === 'symlink') {
    try {
      entry.linkTarget = readlinkSync(abs);
    } catch {
      /* target unreadable: recorded without it */
    }
  }
  return entry;
}

export const MAX_WALK_DEPTH = 16;

/** Every entry under `root` (not including root itself), depth-first, sorted; directories are listed too. */
export function walkTree(root: string, maxDepth = MAX_WALK_DEPTH): InventoryEntry[] {
  const out: InventoryEntry[] = [];
  const visit = (abs: string, rel: string, depth: number): void => {
    const { names, error } = listDir(abs);
    if (error) {
      const self = out.find((e) => e.path === rel);
      if (self) self.readError = error;
      return;
    }
    for (const name of names) {
      const childRel = rel ? `${rel}/${name}` : name;
      const childAbs = join(abs, name);
      const entry = lstatEntry(childAbs, childRel);
      out.push(entry);
      if (entry.type === 'dir') {
        if (depth + 1 >= maxDepth) entry.readError = 'EDEPTH';
        else visit(childAbs, childRel, depth + 1);
      }
    }
  };
  visit(root, '', 0);
  return out;
}

/** True when the path is a real directory (lstat: a symlink to one is not). */
export function isRealDirectory(abs: string): boolean {
  try {
    return lstatSync(abs).isDirectory();
  } catch {
    return false;
  }
}
