/**
 * Read detection without instrumenting the code under test: a file's access time. With `relatime` (Linux's
 * default) the kernel updates atime on a read when atime is not newer than mtime, so a file armed with an old
 * atime and a current mtime records the first read of its content (or listing of a directory). `lstat`,
 * `stat` and `readlink` do not count as reads. On a filesystem mounted `noatime` nothing is recorded:
 * `tripwiresWork` says whether this machine can tell, and the tests then fall back to content checks only.
 */
import { readFileSync, readdirSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ARMED = new Date('2001-01-01T00:00:00Z');

/** Set an old access time (and a current modification time) on a file or directory. */
export function arm(path: string): void {
  utimesSync(path, ARMED, new Date());
}

/** True when the content (or, for a directory, the listing) was read since `arm`. */
export function tripped(path: string): boolean {
  return statSync(path).atimeMs > ARMED.getTime() + 86_400_000;
}

let works: boolean | undefined;

/** Whether reads move atime here (relatime or strictatime): checked once on a scratch file and directory. */
export function tripwiresWork(scratch: string): boolean {
  if (works !== undefined) return works;
  const dir = join(scratch, 'tripwire-selftest');
  mkdirSync(dir, { recursive: true });
  const f = join(dir, 'f');
  writeFileSync(f, 'x');
  arm(f);
  arm(dir);
  const before = tripped(f) || tripped(dir);
  readFileSync(f);
  readdirSync(dir);
  works = !before && tripped(f) && tripped(dir);
  return works;
}
