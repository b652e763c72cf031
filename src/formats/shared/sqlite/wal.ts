/**
 * The state of a SQLite write-ahead log, read from its bytes (sqlite.org/fileformat2.html §4): the frames of the
 * current generation (salts equal to the header's, checksum chain intact), how many of them end a committed
 * transaction, and the frames after the last commit (a transaction that never committed: SQLite ignores them).
 * Frames after a checksum break, or left from an earlier generation, are not part of the database.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface WalState {
  bytes: number;
  pageSize: number;
  /** Frames of the current generation up to the first checksum break. */
  frames: number;
  /** Of those, the frames SQLite reads: up to and including the last commit frame. */
  committedFrames: number;
  commits: number;
  /** Frames after the last commit (an uncommitted or torn transaction). */
  uncommittedFrames: number;
  /** Frames beyond the valid chain (an earlier generation's leftovers, or damage). */
  staleFrames: number;
  /** What is wrong with the header, when it cannot be read. */
  problem?: string;
  /** The header's salts (every frame of the current generation repeats them). */
  salts?: [number, number];
  /** The size of the database in pages after the last commit (its commit frame says). */
  dbPages?: number;
  /** The first 100 bytes (the database header) of the last committed frame of page 1, when the WAL holds one. */
  page1Header?: Buffer;
}

function checksum(buf: Buffer, start: number, end: number, big: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = start; i < end; i += 8) {
    const x0 = big ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    const x1 = big ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export type ReadAt = (position: number, length: number) => Buffer;

/** A file read by positional reads (one frame at a time: a WAL of any size costs one frame of memory). */
export function fileReader(path: string): { read: ReadAt; size: number; close(): void } {
  const fd = openSync(path, 'r');
  const size = fstatSync(fd).size;
  return {
    size,
    read: (position, length) => {
      const b = Buffer.allocUnsafe(length);
      const n = readSync(fd, b, 0, length, position);
      return b.subarray(0, n);
    },
    close: () => closeSync(fd),
  };
}

export const walState = (wal: Buffer): WalState => walStateAt((p, l) => wal.subarray(p, p + l), wal.length);

/** The state of the WAL at `path`, read frame by frame. */
export function walStateOfFile(path: string): WalState {
  const f = fileReader(path);
  try {
    return walStateAt(f.read, f.size);
  } finally {
    f.close();
  }
}

export function walStateAt(read: ReadAt, size: number): WalState {
  const out: WalState = {
    bytes: size,
    pageSize: 0,
    frames: 0,
    committedFrames: 0,
    commits: 0,
    uncommittedFrames: 0,
    staleFrames: 0,
  };
  if (size === 0) return out;
  if (size < 32) return { ...out, problem: `${size} byte(s), shorter than a WAL header` };
  const head = read(0, 32);
  const magic = head.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return { ...out, problem: 'no WAL magic number' };
  const big = magic === 0x377f0683;
  const pageSize = head.readUInt32BE(8);
  out.pageSize = pageSize;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    return { ...out, problem: `page size ${pageSize} is not valid` };
  let sum = checksum(head, 0, 24, big, [0, 0]);
  if (sum[0] !== head.readUInt32BE(24) || sum[1] !== head.readUInt32BE(28))
    return { ...out, problem: 'the header checksum does not match (no frame is used)' };
  const salt1 = head.readUInt32BE(16);
  const salt2 = head.readUInt32BE(20);
  out.salts = [salt1, salt2];
  const frameSize = 24 + pageSize;
  const total = Math.floor((size - 32) / frameSize);
  let page1: Buffer | undefined;
  let off = 32;
  for (let i = 0; i < total; i++, off += frameSize) {
    const frame = read(off, frameSize);
    if (frame.length < frameSize) break;
    if (frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
    sum = checksum(frame, 0, 8, big, sum);
    sum = checksum(frame, 24, frameSize, big, sum);
    if (sum[0] !== frame.readUInt32BE(16) || sum[1] !== frame.readUInt32BE(20)) break;
    out.frames++;
    if (frame.readUInt32BE(0) === 1) page1 = Buffer.from(frame.subarray(24, 24 + 100));
    if (frame.readUInt32BE(4) !== 0) {
      out.commits++;
      out.committedFrames = out.frames;
      out.dbPages = frame.readUInt32BE(4);
      if (page1) out.page1Header = page1;
    }
  }
  out.uncommittedFrames = out.frames - out.committedFrames;
  out.staleFrames = total - out.frames;
  return out;
}
