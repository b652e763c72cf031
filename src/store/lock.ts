/**
 * One writer at a time: `lock` is created exclusively (O_EXCL) and holds the writer's pid. A second run finds it
 * and stops with one line naming the holder; a lock whose process is gone (a killed run) is taken over. The store
 * stays valid without the lock (every file is written atomically), the lock keeps two runs from numbering two
 * capture records alike.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class StoreBusy extends Error {}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function holder(path: string): { pid: number; since: string } | undefined {
  try {
    const [pid, since] = readFileSync(path, 'utf8').split('\n');
    const n = Number(pid);
    return Number.isInteger(n) && n > 0 ? { pid: n, since: since ?? '' } : undefined;
  } catch {
    return undefined;
  }
}

/** The lock file's name in the store's directory. */
export const LOCK_NAME = 'lock';

/** Take the store's lock; returns its release. Throws StoreBusy when a live process holds it. */
export function lockStore(store: string): () => void {
  const path = join(store, LOCK_NAME);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644);
      writeSync(fd, `${process.pid}\n${new Date().toISOString()}\n`);
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const h = holder(path);
    if (attempt < 2 && (!h || (!alive(h.pid) && h.pid !== process.pid))) {
      // A run that was killed (or a lock file cut short as it was written): take it over.
      rmSync(path, { force: true });
      continue;
    }
    throw new StoreBusy(
      `the store ${store} is in use by process ${h?.pid ?? '?'}${h?.since ? ` (since ${h.since})` : ''}; ` +
        'nothing was archived by this run (run again when it has finished)',
    );
  }
}
