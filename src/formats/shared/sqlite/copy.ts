/**
 * A private copy of an agent's SQLite database with its `-wal` and `-journal` (the copy keeps the database's name),
 * the only way this audit opens a database: SQLite
 * writes beside a database it opens (a `-shm`, a `-wal`, a `-journal`, a checkpoint on close), so the evidence
 * itself is never opened. The files are read through the session source (read-only, hashed) into a new directory
 * only this process can enter (read/private-temp.ts: a killed run's copy is removed by the next), and read again: if
 * any of them changed between the two reads the capture is retried, then refused. The `-shm` is not copied: it is
 * an index SQLite rebuilds from the WAL, and a stale one would only mislead it. Runs of zeros (a sparse file's
 * holes, or pages never written) are not written: the copy is as sparse as it can be.
 */
import { closeSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ReadOutcome, SessionSource } from '../../../model/source.js';
import { privateTempDir } from '../../../read/private-temp.js';

export const DB_SUFFIXES = ['', '-wal', '-journal'] as const;

/** Blocks of this many bytes that are all zeros are skipped (left as holes) in the copy. */
const BLOCK = 4096;
const ZEROS = Buffer.alloc(64 * 1024);

const isZero = (b: Buffer): boolean => {
  for (let i = 0; i < b.length; i += ZEROS.length) {
    const part = b.subarray(i, Math.min(b.length, i + ZEROS.length));
    if (!part.equals(ZEROS.subarray(0, part.length))) return false;
  }
  return true;
};

/** Write `chunk` at `pos`, leaving its zero blocks unwritten (holes once the file is truncated to its size). */
function writeSparse(fd: number, chunk: Buffer, pos: number): void {
  let from = 0;
  while (from < chunk.length) {
    // Align block boundaries on the file's offsets, not the chunk's.
    let to = Math.min(chunk.length, from + BLOCK - ((pos + from) % BLOCK));
    const zero = isZero(chunk.subarray(from, to));
    while (to < chunk.length) {
      const next = Math.min(chunk.length, to + BLOCK);
      if (isZero(chunk.subarray(to, next)) !== zero) break;
      to = next;
    }
    if (!zero) {
      let off = from;
      while (off < to) off += writeSync(fd, chunk, off, to - off, pos + off);
    }
    from = to;
  }
}

export interface DbCopy {
  dir: string;
  /** The copy of the database (its -wal and -journal beside it, when the evidence has them). */
  path: string;
  /** sha256 and size of each file copied, by suffix ('' = the database). */
  files: Map<string, { sha256: string; size: number }>;
  remove(): void;
}

const ATTEMPTS = 3;

/** Where a database's file of each suffix is in the evidence ('' = the database itself). */
export type SidecarNames = (suffix: (typeof DB_SUFFIXES)[number]) => string;

function copyOnce(
  source: SessionSource,
  rel: string,
  dir: string,
  nameOf: SidecarNames,
): ReadOutcome<Map<string, { sha256: string; size: number }>> {
  const files = new Map<string, { sha256: string; size: number }>();
  for (const suffix of DB_SUFFIXES) {
    const from = nameOf(suffix);
    const e = source.entry(from);
    if (!e) continue;
    if (e.type !== 'file') {
      if (suffix === '') return { ok: false, error: `${from} is a ${e.type}, not a regular file (not opened)` };
      continue;
    }
    const fd = openSync(join(dir, `${basename(rel)}${suffix}`), 'w', 0o600);
    try {
      let pos = 0;
      const r = source.streamRaw(from, (chunk) => {
        writeSparse(fd, chunk, pos);
        pos += chunk.length;
      });
      if (!r.ok) return { ok: false, error: `${from}: ${r.error}` };
      ftruncateSync(fd, pos);
      files.set(suffix, r.value);
    } finally {
      closeSync(fd);
    }
  }
  return { ok: true, value: files };
}

function rehash(
  source: SessionSource,
  nameOf: SidecarNames,
  files: Map<string, { sha256: string; size: number }>,
): string[] {
  const changed: string[] = [];
  for (const [suffix, was] of files) {
    const from = nameOf(suffix as (typeof DB_SUFFIXES)[number]);
    const r = source.streamRaw(from, () => {});
    if (!r.ok || r.value.sha256 !== was.sha256 || r.value.size !== was.size) changed.push(from);
  }
  return changed;
}

/**
 * Copy the database at `rel` (and its -wal, -journal) into a private directory; the caller removes it. `nameOf`
 * says where the evidence keeps each of them when it is not `<rel>-wal` (a quarantined database's renamed logs);
 * the copies are always named as SQLite looks for them.
 */
export function copyDatabase(
  source: SessionSource,
  rel: string,
  nameOf: SidecarNames = (suffix) => `${rel}${suffix}`,
): ReadOutcome<DbCopy> {
  let lastChanged: string[] = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    const dir = privateTempDir('db');
    const remove = () => rmSync(dir, { recursive: true, force: true });
    try {
      const r = copyOnce(source, rel, dir, nameOf);
      if (!r.ok) {
        remove();
        return r;
      }
      lastChanged = rehash(source, nameOf, r.value);
      if (lastChanged.length === 0)
        return { ok: true, value: { dir, path: join(dir, basename(rel)), files: r.value, remove } };
      remove();
    } catch (e) {
      remove();
      return { ok: false, error: `copying it failed (${(e as Error).message})` };
    }
  }
  return {
    ok: false,
    error:
      `the database changed while it was being copied, ${ATTEMPTS} times (${lastChanged.join(', ')}): ` +
      'no consistent capture; stop the agent (or copy the home while it is stopped) and audit again',
  };
}
