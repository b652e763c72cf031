/**
 * Reads at given places of a file, for what needs a few bytes rather than the whole: the head of a file during
 * discovery (what kind of file it is), the lines a finding points at (fingerprints). Opened like every input.
 */
import { closeSync, readSync } from 'node:fs';
import { openRegular, type Pin, ReadError } from './open-regular.js';

/**
 * The first `maxBytes` bytes of a regular file (read-only, O_NOFOLLOW, never blocks on a FIFO), for recognising
 * what a file is during discovery. Throws ReadError like the other readers.
 */
export function readHead(path: string | Buffer, maxBytes: number, pinned: Pin = false): Buffer {
  const fd = openRegular(path, pinned);
  try {
    const buf = Buffer.allocUnsafe(maxBytes);
    let n = 0;
    while (n < maxBytes) {
      let got: number;
      try {
        got = readSync(fd, buf, n, maxBytes - n, null);
      } catch (e) {
        throw new ReadError((e as NodeJS.ErrnoException).code ?? 'EIO', `read failed at byte ${n}`);
      }
      if (got === 0) break;
      n += got;
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes at given places of a regular file (read-only, O_NOFOLLOW, one open): for each span, from `offset`, at
 * most `max` bytes, up to (not including) the first newline when `line` is set. A span past the end gives the bytes
 * there are (maybe none). Throws ReadError like the other readers.
 */
export function readSpans(
  path: string | Buffer,
  spans: ReadonlyArray<{ offset: number; max: number; line: boolean }>,
  pinned: Pin = false,
): Buffer[] {
  const fd = openRegular(path, pinned);
  try {
    return spans.map(({ offset, max, line }) => {
      const buf = Buffer.allocUnsafe(Math.max(0, line ? Math.min(max, 4096) : max));
      let out = buf;
      let n = 0;
      let step = 4096;
      while (n < max) {
        if (n + Math.min(step, max - n) > out.length) {
          const bigger = Buffer.allocUnsafe(Math.min(max, Math.max(out.length * 2, n + step)));
          out.copy(bigger, 0, 0, n);
          out = bigger;
        }
        let got: number;
        try {
          got = readSync(fd, out, n, Math.min(step, max - n, out.length - n), offset + n);
        } catch (e) {
          throw new ReadError((e as NodeJS.ErrnoException).code ?? 'EIO', `read failed at byte ${offset + n}`);
        }
        if (got === 0) break;
        if (line) {
          const nl = out.subarray(n, n + got).indexOf(10);
          if (nl >= 0) return out.subarray(0, n + nl);
        }
        n += got;
        step = Math.min(step * 2, 1 << 20);
      }
      return out.subarray(0, n);
    });
  } finally {
    closeSync(fd);
  }
}
