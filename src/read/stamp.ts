/**
 * The stamp of a file by its path (lstat, never followed), in the form `fileStamp` gives an open descriptor
 * (read/open-regular.ts): device, inode, size, nanosecond mtime and ctime. Equal stamps let a store skip re-reading a
 * version it holds (ctime cannot be set back by a user); a stamp never stands in for a hash of bytes parsed.
 */
import { lstatSync } from 'node:fs';

export function pathStamp(path: string): string | undefined {
  try {
    const st = lstatSync(path, { bigint: true });
    if (!st.isFile()) return undefined;
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}
