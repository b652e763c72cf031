/**
 * A private copy of `state.db` with its `-wal`, `-shm` and `-journal`, the only way this audit opens the database:
 * SQLite writes beside a database it opens (a `-shm`, a `-wal`, a `-journal`, a checkpoint on close), so the
 * evidence itself is never opened. The files are read through the session source (read-only, hashed) into a new
 * directory only this process can enter, and read again: if any of them changed between the two reads the capture
 * is retried, then refused.
 */
import { rmSync, writeSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadOutcome, SessionSource } from '../../../model/source.js';
import { privateTempDir } from '../../../read/private-temp.js';

export const DB_SUFFIXES = ['', '-wal', '-shm', '-journal'] as const;

export interface DbCopy {
  dir: string;
  /** The copy of the database (its -wal and -shm beside it, when the evidence has them). */
  path: string;
  /** sha256 and size of each file copied, by suffix ('' = the database). */
  files: Map<string, { sha256: string; size: number }>;
  remove(): void;
}

const ATTEMPTS = 3;

function copyOnce(
  source: SessionSource,
  rel: string,
  dir: string,
): ReadOutcome<Map<string, { sha256: string; size: number }>> {
  const files = new Map<string, { sha256: string; size: number }>();
  for (const suffix of DB_SUFFIXES) {
    const from = `${rel}${suffix}`;
    const e = source.entry(from);
    if (!e) continue;
    if (e.type !== 'file') {
      if (suffix === '') return { ok: false, error: `${from} is a ${e.type}, not a regular file (not opened)` };
      continue;
    }
    const fd = openSync(join(dir, `state.db${suffix}`), 'w', 0o600);
    try {
      const r = source.streamRaw(from, (chunk) => {
        writeSync(fd, chunk);
      });
      if (!r.ok) return { ok: false, error: `${from}: ${r.error}` };
      files.set(suffix, r.value);
    } finally {
      closeSync(fd);
    }
  }
  return { ok: true, value: files };
}

function rehash(source: SessionSource, rel: string, files: Map<string, { sha256: string; size: number }>): string[] {
  const changed: string[] = [];
  for (const [suffix, was] of files) {
    const r = source.streamRaw(`${rel}${suffix}`, () => {});
    if (!r.ok || r.value.sha256 !== was.sha256 || r.value.size !== was.size) changed.push(`${rel}${suffix}`);
  }
  return changed;
}

/** Copy the database at `rel` (and its -wal/-shm) into a private directory; the caller removes it. */
export function copyDatabase(source: SessionSource, rel: string): ReadOutcome<DbCopy> {
  let lastChanged: string[] = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    const dir = privateTempDir('db');
    const remove = () => rmSync(dir, { recursive: true, force: true });
    try {
      const r = copyOnce(source, rel, dir);
      if (!r.ok) {
        remove();
        return r;
      }
      lastChanged = rehash(source, rel, r.value);
      if (lastChanged.length === 0)
        return { ok: true, value: { dir, path: join(dir, 'state.db'), files: r.value, remove } };
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
