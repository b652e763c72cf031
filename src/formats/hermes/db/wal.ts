/**
 * The state of a SQLite write-ahead log, read from its bytes (sqlite.org/fileformat2.html §4): the frames of the
 * current generation (salts equal to the header's, checksum chain intact), how many of them end a committed
 * transaction, and the frames after the last commit (a transaction that never committed: SQLite ignores them).
 * Frames after a checksum break, or left from an earlier generation, are not part of the database.
 */

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

export function walState(wal: Buffer): WalState {
  const out: WalState = {
    bytes: wal.length,
    pageSize: 0,
    frames: 0,
    committedFrames: 0,
    commits: 0,
    uncommittedFrames: 0,
    staleFrames: 0,
  };
  if (wal.length === 0) return out;
  if (wal.length < 32) return { ...out, problem: `${wal.length} byte(s), shorter than a WAL header` };
  const magic = wal.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return { ...out, problem: 'no WAL magic number' };
  const big = magic === 0x377f0683;
  const pageSize = wal.readUInt32BE(8);
  out.pageSize = pageSize;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0)
    return { ...out, problem: `page size ${pageSize} is not valid` };
  let sum = checksum(wal, 0, 24, big, [0, 0]);
  if (sum[0] !== wal.readUInt32BE(24) || sum[1] !== wal.readUInt32BE(28))
    return { ...out, problem: 'the header checksum does not match (no frame is used)' };
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const frameSize = 24 + pageSize;
  const total = Math.floor((wal.length - 32) / frameSize);
  let off = 32;
  for (let i = 0; i < total; i++, off += frameSize) {
    if (wal.readUInt32BE(off + 8) !== salt1 || wal.readUInt32BE(off + 12) !== salt2) break;
    sum = checksum(wal, off, off + 8, big, sum);
    sum = checksum(wal, off + 24, off + frameSize, big, sum);
    if (sum[0] !== wal.readUInt32BE(off + 16) || sum[1] !== wal.readUInt32BE(off + 20)) break;
    out.frames++;
    if (wal.readUInt32BE(off + 4) !== 0) {
      out.commits++;
      out.committedFrames = out.frames;
    }
  }
  out.uncommittedFrames = out.frames - out.committedFrames;
  out.staleFrames = total - out.frames;
  return out;
}
