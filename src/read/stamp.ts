/**
 * The stamp of a file by its path (lstat, never followed), in the form `fileStamp` gives an open descriptor
 * (read/open-regular.ts): device, inode, size, nanosecond mtime and ctime. Equal stamps let a store skip re-reading a
 * version it holds (ctime cannot be set back by a user); a stamp never stands in for a hash of bytes parsed.
 */
import { lstatSync } from 'node:fs';

export function pathStamp(path: string | Buffer): string | undefined {
  try {
    const st = lstatSync(path, { bigint: true });
    if (!st.isFile()) return undefined;
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * Whether a stamp taken at `nowMs` (the wall clock when the file was read) cannot be trusted to tell this version
 * from a later one (git's "racy" rule): a rewrite within the same tick of the file system's clock would give the
 * same size, mtime and ctime. The tick is the file system's timestamp granularity, unknown: a ctime with no fraction
 * of a second is taken to come from a file system counting whole seconds (or FAT's two), else the kernel's coarse
 * clock (a few milliseconds) is assumed, with margin. A racy stamp is not kept: the next run reads the file again.
 */
export function racyStamp(stamp: string, nowMs: number): boolean {
  const ctimeNs = BigInt(stamp.split(':')[4] ?? '0');
  const coarse = ctimeNs % 1_000_000_000n === 0n;
  const tickMs = coarse ? 2000 : 50;
  return Number(ctimeNs / 1_000_000n) > nowMs - tickMs;
}
