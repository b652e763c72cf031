/**
 * Read-only file access, whole or streamed (opened through open-regular.ts, the only place that opens input files;
 * reads at given places are spans.ts). Every byte read here is hashed (sha256) on the way through: one pass per
 * file (a large log shared with the second thread is hashed there, from the same buffers: see
 * engine/parallel/record-offload.ts).
 */
import { createHash } from 'node:crypto';
import { closeSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { noteBytesRead } from './memory.js';
import { RING_SLOT_BYTES } from './chunk-ring.js';
import type { SharedRing } from '../model/source.js';
import { openRegular, openRegularSized, type Pin, ReadError, stampOrThrow } from './open-regular.js';

const CHUNK = 1 << 20;

export interface ReadResult {
  sha256: string;
  size: number;
}

export interface StreamOptions {
  chunkSize?: number;
  /** One buffer serves every read (the consumer must copy what it keeps). */
  reuse?: boolean;
  /** Take the file's stamp at open and at close (`stamps`). */
  stamp?: boolean;
  /** Read at most this many bytes (the prefix an earlier read saw, when the file may have grown since). */
  limit?: number;
  /** The file is evidence under a walked root: it must be the file at `path` itself (see open-regular.ts). */
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
  path: string | Buffer,
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
  path: string | Buffer,
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
  path: string | Buffer,
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
export async function* readChunks(
  path: string | Buffer,
  chunkSize = CHUNK,
  pinned: Pin = false,
): AsyncGenerator<Buffer> {
  const fd = openRegular(path, pinned);
  try {
    for (let at = 0; ; ) {
      const buf = Buffer.allocUnsafe(chunkSize);
      let n: number;
      try {
        n = readSync(fd, buf, 0, chunkSize, null);
      } catch (e) {
        // Like every reader here: a ReadError the caller reports, not an internal error.
        throw new ReadError((e as NodeJS.ErrnoException).code ?? 'EIO', `read failed at byte ${at}`);
      }
      if (n === 0) return;
      at += n;
      yield n === chunkSize ? buf : buf.subarray(0, n);
    }
  } finally {
    closeSync(fd);
  }
}
