/**
 * Opening an input file: every open is O_RDONLY|O_NOFOLLOW|O_NONBLOCK and is checked with fstat to be a regular
 * file, so a symlink or FIFO swapped in after the walk is never followed or waited on; an open pinned to a walked
 * root must be the file at its path (read/pinned.ts). The readers (files.ts, spans.ts) open through here alone.
 */
import { closeSync, constants, fstatSync, openSync, type Stats } from 'node:fs';
import { openedAt, RACE_MESSAGE, type WalkedId } from './pinned.js';

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export class ReadError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * `pinned`: false, or true (the path must be checked), or the identity the walk saw through the checked directory
 * (a descriptor showing it is that file: no path check needed; any other is checked by path).
 */
export type Pin = boolean | WalkedId;

export function openRegular(path: string | Buffer, pinned: Pin = false): number {
  return openRegularSized(path, pinned).fd;
}

/**
 * Open for reading; the size from fstat sizes the read buffer (a small file does not cost a 1 MiB allocation).
 * `pinned`: `path` is a canonical path under a walked root, and the file opened must be the one at that path
 * (read/pinned.ts): a directory swapped for a symlink after the walk is a ReadError('ERACE'), never outside bytes
 * (a path that leads, through a swap, to the walked file itself, say by a hard link, reads that file).
 */
export function openRegularSized(path: string | Buffer, pinned: Pin = false): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
    throw new ReadError(code, code === 'ELOOP' ? 'is a symlink (not followed)' : `cannot be opened (${code})`);
  }
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (e) {
    closeSync(fd);
    throw new ReadError((e as NodeJS.ErrnoException).code ?? 'EIO', 'cannot be examined (fstat failed)');
  }
  const walked =
    typeof pinned === 'object' && st.dev === pinned.dev && st.ino === pinned.ino && st.birthtimeMs === pinned.birth;
  if (pinned && !walked && !openedAt(fd, path)) {
    closeSync(fd);
    throw new ReadError('ERACE', RACE_MESSAGE);
  }
  if (!st.isFile()) {
    closeSync(fd);
    throw new ReadError('ENOTREG', 'is not a regular file');
  }
  return { fd, size: st.size };
}

/**
 * What identifies one version of a file, as far as the file system says: device, inode, size and the nanosecond
 * modification and change times. Two reads that see different stamps certainly read different versions; equal
 * stamps are strong evidence but not proof (a writer through a shared mapping, or a coarse-grained file system,
 * can change bytes without changing them), so a stamp never stands in for a hash of the bytes actually parsed.
 */
export function fileStamp(fd: number): string {
  const st = fstatSync(fd, { bigint: true });
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

export function stampOrThrow(fd: number): string {
  try {
    return fileStamp(fd);
  } catch (e) {
    throw new ReadError((e as NodeJS.ErrnoException).code ?? 'EIO', 'cannot be examined (fstat failed)');
  }
}
