/**
 * One writer at a time: `lock` is created exclusively (O_EXCL) and holds the writer's pid. A second run finds it
 * and stops with one line naming the holder; a lock whose process is gone (a killed run; a zombie, exited but not
 * reaped; a pid now used by a process that started later) is taken over. The store
 * stays valid without the lock (every file is written atomically), the lock keeps two runs from numbering two
 * capture records alike.
 *
 * Two races are closed here. A lock file is empty for a moment after its exclusive create, before its pid is
 * written: a run that reads it then waits for the pid (or for the file to go) instead of taking an empty file for a
 * killed run's. And two runs that both find a dead run's lock must not both take it over (the second would delete
 * the first's new lock): a takeover moves the lock aside under a name of its own and deletes it only if it is still
 * the dead run's; otherwise it moves it back and the run stops as busy.
 */
import { closeSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { processAlive, selfStart } from '../read/private-temp.js';
import { FILE_MODE } from './guard.js';

export class StoreBusy extends Error {}

interface Holder {
  pid: number;
  since: string;
  /** When the process started ('' when the lock does not say: written by an older version, or not on Linux). */
  start: string;
  /** The file's text, to tell this lock from a newer one. */
  text: string;
}

/** The lock's holder; null when the file is gone; undefined when it holds no pid (being written, or damaged). */
function holder(path: string): Holder | null | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
  const [pid, since, start] = text.split('\n');
  const n = Number(pid);
  return Number.isInteger(n) && n > 0 && text.endsWith('\n')
    ? { pid: n, since: since ?? '', start: /^\d+$/.test(start ?? '') ? start! : '', text }
    : undefined;
}

const SLEEP = new Int32Array(new SharedArrayBuffer(4));
/** How long a lock file may hold no pid before it is taken for a run killed as it wrote it. */
const UNWRITTEN_MS = 1000;

/** The holder, waiting while the file is there without its pid (a run between its create and its write). */
function settledHolder(path: string): Holder | null | undefined {
  const since = Date.now();
  for (;;) {
    const h = holder(path);
    if (h !== undefined || Date.now() - since >= UNWRITTEN_MS) return h;
    Atomics.wait(SLEEP, 0, 0, 10);
  }
}

/** The lock file's name in the store's directory. */
export const LOCK_NAME = 'lock';
/** A lock moved aside by a takeover is named so (for the moment before it is deleted or moved back). */
const ASIDE_PREFIX = 'lock.stale.';
/** Whether a name in the store's directory belongs to the lock (a new store may hold these and be empty). */
export const isLockName = (name: string): boolean => name === LOCK_NAME || name.startsWith(ASIDE_PREFIX);

/**
 * Remove the lock at `path` if it is still the one read as `stale`. False when another run's lock is there now
 * (it was put back).
 */
function takeOver(store: string, path: string, stale: Holder | undefined): boolean {
  const aside = join(store, `${ASIDE_PREFIX}${process.pid}.${randomBytes(6).toString('hex')}`);
  try {
    renameSync(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw e;
  }
  const moved = holder(aside);
  if (stale === undefined ? moved === undefined : moved?.text === stale.text) {
    rmSync(aside, { force: true });
    return true;
  }
  renameSync(aside, path);
  return false;
}

function busy(store: string, h: Holder | null | undefined): StoreBusy {
  return new StoreBusy(
    `the store ${store} is in use by process ${h?.pid ?? '?'}${h?.since ? ` (since ${h.since})` : ''}; ` +
      'nothing was archived by this run (run again when it has finished)',
  );
}

/** Take the store's lock; returns its release. Throws StoreBusy when a live process holds it. */
export function lockStore(store: string): () => void {
  const path = join(store, LOCK_NAME);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', FILE_MODE);
      const text = `${process.pid}\n${new Date().toISOString()}\n${selfStart() ? `${selfStart()}\n` : ''}`;
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return () => {
        // Only this run's lock: a run that took it over after a long pause of this one keeps its own.
        if (holder(path)?.text === text) rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const h = settledHolder(path);
    if (attempt >= 4) throw busy(store, h);
    if (h === null) continue; // released meanwhile: try again
    // A run that was killed (or a lock file cut short as it was written): take it over.
    const stale = h === undefined || (!processAlive(h.pid, h.start) && h.pid !== process.pid);
    if (!stale || !takeOver(store, path, h)) throw busy(store, h);
  }
}
