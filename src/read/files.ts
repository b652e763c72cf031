/**
 * Read-only file access: the only place that opens input files. Every open is O_RDONLY|O_NOFOLLOW|O_NONBLOCK
 * and is checked with fstat to be a regular file, so a symlink or FIFO swapped in after the walk is never
 * followed or waited on. Every byte read is hashed (sha256) on the way through: one pass per file (a large log
 * shared with the second thread is hashed there, from the same buffers: see engine/parallel/record-offload.ts).
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { noteBytesRead } from './memory.js';
import { RING_SLOT_BYTES } from './chunk-ring.js';
import type { SharedRing } from '../model/source.js';
import { openedAt, RACE_MESSAGE } from './pinned.js';

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CHUNK = 1 << 20;

export class ReadError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ReadResult {
  sha256: string;
  size: number;
}

/**
 * `pinned`: false, or true (the path must be checked), or the device and inode the walk saw through the checked
 * directory (a descriptor showing them is that file: no path check needed; any other is checked by path).
 */
export type Pin = boolean | { dev: number; ino: number };

function openRegular(path: string, pinned: Pin = false): number {
  return openRegularSized(path, pinned).fd;
}

/**
 * Open for reading; the size from fstat sizes the read buffer (a small file does not cost a 1 MiB allocation).
 * `pinned`: `path` is a canonical path under a walked root, and the file opened must be the one at that path
 * (read/pinned.ts): a directory swapped for a symlink after the walk is a ReadError('ERACE'), never outside bytes.
 */
function openRegularSized(path: string, pinned: Pin = false): { fd: number; size: number } {
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
  const walked = typeof pinned === 'object' && st.dev === pinned.dev && st.ino === pinned.ino;
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

function stampOrThrow(fd: number): string {
  try {
    return fileStamp(fd);
  } catch (e) {
    throw new ReadError((e as NodeJS.ErrnoException).code ?? 'EIO', 'cannot be examined (fstat failed)');
  }
}

export interface StreamOptions {
  chunkSize?: number;
  /** One buffer serves every read (the consumer must copy what it keeps). */
  reuse?: boolean;
  /** Take the file's stamp at open and at close (`stamps`). */
  stamp?: boolean;
  /** Read at most this many bytes (the prefix an earlier read saw, when the file may have grown since). */
  limit?: number;
  /** The file is evidence under a walked root: it must be the file at `path` itself (see openRegularSized). */
  pinned?: Pin;
}

/** One read buffer shared by the `reuse` streams that are not nested in each other. */
let sharedBuf: Buffer | undefined;
let sharedInUse = false;

/**
 * Stream a file through `onChunk`; returns its hash. With `reuse`, one buffer serves every read (the consumer
 * must copy what it keeps), so memory does not churn with file size; otherwise each chunk is a fresh buffer.
 */
export function streamFile(
  path: string,
  onChunk: (chunk: Buffer) => void,
  { chunkSize: maxChunk = CHUNK, reuse = false, stamp = false, limit = Infinity, pinned = false }: StreamOptions = {},
): ReadResult & { stamps?: [string, string] } {
  const { fd, size: statSize } = openRegularSized(path, pinned);
  const hash = createHash('sha256');
  let opened = '';
  let stamps: [string, string] | undefined;
  if (stamp) {
    try {
      opened = stampOrThrow(fd);
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }
  let size = 0;
  // Reads of about the file's size (it may still grow: then more reads of that size), at most maxChunk.
  const chunkSize = Math.min(maxChunk, Math.max(4096, statSize + 1));
  let shared: Buffer | undefined;
  let ownsShared = false;
  if (reuse) {
    if (!sharedInUse && maxChunk === CHUNK) {
      sharedBuf ??= Buffer.allocUnsafe(CHUNK);
      shared = sharedBuf.subarray(0, chunkSize);
      sharedInUse = ownsShared = true;
    } else shared = Buffer.allocUnsafe(chunkSize);
  }
  try {
    for (;;) {
      const buf = shared ?? Buffer.allocUnsafe(chunkSize);
      let n: number;
      try {
        n = size >= limit ? 0 : readSync(fd, buf, 0, Math.min(chunkSize, limit - size), null);
      } catch (e) {
        throw new ReadError((e as NodeJS.ErrnoException).code ?? 'EIO', `read failed at byte ${size}`);
      }
      if (n === 0) break;
      const chunk = n === buf.length ? buf : buf.subarray(0, n);
      hash.update(chunk);
      size += n;
      onChunk(chunk);
      noteBytesRead(n);
      // A short read that reaches the size fstat gave at open is the end of the file as it was opened: no read
      // more to learn it (one system call less per file; a file that grew since keeps its stamps apart, and a
      // file system that reads short before the end has not reached that size).
      if (n < buf.length && size === statSize) break;
    }
    if (stamp) stamps = [opened, stampOrThrow(fd)];
  } finally {
    closeSync(fd);
    if (ownsShared) sharedInUse = false;
  }
  return { sha256: hash.digest('hex'), size, ...(stamps ? { stamps } : {}) };
}

/**
 * Stream a file through `onChunk`, reading it into the slots of `ring` so that another thread consumes the very
 * same bytes (and hashes them: nothing is hashed here). If the consumer goes away, the rest is read into a private
 * buffer and `shared` is false. The file's stamps at open and close are returned for the caller's fallback.
 */
export function streamFileShared(
  path: string,
  ring: SharedRing,
  onChunk: (chunk: Buffer) => void,
  pinned: Pin = false,
): { size: number; shared: boolean; stamps: [string, string] } {
  let fd: number;
  try {
    fd = openRegularSized(path, pinned).fd;
  } catch (e) {
    ring.abandon();
    throw e;
  }
  let size = 0;
  let shared = true;
  let finished = false;
  let own: Buffer | undefined;
  try {
    const opened = stampOrThrow(fd);
    for (;;) {
      const slot = shared ? ring.slot() : undefined;
      if (shared && !slot) shared = false;
      const buf = slot ?? (own ??= Buffer.allocUnsafe(RING_SLOT_BYTES));
      let n: number;
      try {
        n = readSync(fd, buf, 0, buf.length, null);
      } catch (e) {
        throw new ReadError((e as NodeJS.ErrnoException).code ?? 'EIO', `read failed at byte ${size}`);
      }
      if (n === 0) break;
      if (slot) ring.publish(n);
      size += n;
      onChunk(buf.subarray(0, n));
      noteBytesRead(n);
    }
    const stamps: [string, string] = [opened, stampOrThrow(fd)];
    finished = true;
    return { size, shared, stamps };
  } finally {
    closeSync(fd);
    if (finished && shared) ring.close();
    else ring.abandon();
  }
}

/**
 * Read a whole (small) file. Past `maxBytes` the content is not kept (the file is still hashed in full);
 * `truncated` says so.
 */
export function readWholeFile(
  path: string,
  maxBytes: number,
  pinned: Pin = false,
): ReadResult & { bytes: Buffer; truncated: boolean } {
  const parts: Buffer[] = [];
  let kept = 0;
  let truncated = false;
  const r = streamFile(
    path,
    (chunk) => {
      if (truncated) return;
      if (kept + chunk.length > maxBytes) {
        truncated = true;
        parts.length = 0;
        return;
      }
      parts.push(chunk);
      kept += chunk.length;
    },
    { pinned },
  );
  return { ...r, bytes: truncated ? Buffer.alloc(0) : Buffer.concat(parts, kept), truncated };
}

/**
 * The first `maxBytes` bytes of a regular file (read-only, O_NOFOLLOW, never blocks on a FIFO), for recognising
 * what a file is during discovery. Throws ReadError like the other readers.
 */
export function readHead(path: string, maxBytes: number, pinned: Pin = false): Buffer {
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
  path: string,
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

/** Hash a file without keeping its content. */
export function hashFile(path: string): ReadResult {
  return streamFile(path, () => {});
}

/** A file the user points at as extra evidence (not inside a session): read-only, whole, or a clear error. */
export function readEvidenceFile(path: string, maxBytes: number): Buffer {
  const r = readWholeFile(path, maxBytes);
  if (r.truncated) throw new ReadError('EFBIG', `is larger than ${maxBytes} bytes`);
  return r.bytes;
}

/** Regular files directly inside a directory (no symlinks followed), read whole; absent directory: empty list. */
export function readDirectoryFiles(
  dir: string,
  maxBytes: number,
): Array<{ name: string; bytes?: Buffer; error?: string }> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.map((name) => {
    try {
      return { name, bytes: readEvidenceFile(join(dir, name), maxBytes) };
    } catch (e) {
      return { name, error: e instanceof ReadError ? e.message : String(e) };
    }
  });
}

/**
 * Read a file lazily as an async iterable of chunks (read-only, O_NOFOLLOW, regular files only), for consumers
 * that pull (archive writers). The file is opened on the first pull and closed at the end.
 */
export async function* readChunks(path: string, chunkSize = CHUNK, pinned: Pin = false): AsyncGenerator<Buffer> {
  const fd = openRegular(path, pinned);
  try {
    for (;;) {
      const buf = Buffer.allocUnsafe(chunkSize);
      const n = readSync(fd, buf, 0, chunkSize, null);
      if (n === 0) return;
      yield n === chunkSize ? buf : buf.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}
