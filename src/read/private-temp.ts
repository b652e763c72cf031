/**
 * Private temporary directories: where a copy of evidence is made to be read (a database SQLite must not open in
 * place, a capture written back out of the store). Each is made by this process alone (mode 0700, under
 * `os.tmpdir()`), named with its maker's pid and start time, so a run killed before it removed its copy leaves
 * something the next run can recognise as dead and remove: `sweepStaleTemps` (never a directory of a live process,
 * never one of another user).
 *
 * What a process is, for that and for the store's lock: its pid with the time it started (Linux: field 22 of
 * `/proc/<pid>/stat`), so a reused pid or a zombie (state Z: exited, not yet reaped) is not taken for the run that
 * left the file.
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PREFIX = 'session-audit-';

/** `/proc/<pid>/stat` as [state, start time], or undefined where there is none (not Linux, no such process). */
function procStat(pid: number | 'self'): [string, string] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces and parentheses: the fields start after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = fields[19];
  return state !== undefined && start !== undefined ? [state, start] : undefined;
}

const hasProc = (): boolean => procStat('self') !== undefined;

/** This process's start time ('' where the system does not say). */
export const selfStart = (): string => procStat('self')?.[1] ?? '';

/**
 * Whether the process `pid` that started at `start` ('' when unknown) still runs. A zombie is not running; a pid
 * now held by a process that started at another time is not the one recorded.
 */
export function processAlive(pid: number, start: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (hasProc()) {
    const st = procStat(pid);
    if (!st) return false;
    if (st[0] === 'Z' || st[0] === 'X') return false;
    return start === '' || st[1] === start;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

let swept = false;

/**
 * A new private directory for `kind` (lower-case letters, digits, hyphens), removed by the caller when done. The
 * first one a process makes sweeps what killed runs left.
 */
export function privateTempDir(kind: string): string {
  if (!swept) {
    swept = true;
    sweepStaleTemps();
  }
  return mkdtempSync(join(tmpdir(), `${PREFIX}${kind}-${process.pid}.${selfStart() || '0'}-`));
}

const NAME = /^session-audit-[a-z0-9]+(?:-[a-z0-9]+)*-(\d+)\.(\d+)-[A-Za-z0-9]{6}$/;

/**
 * Remove the private directories that runs of this user left when they were killed (their process is gone).
 * Returns how many were removed. Best effort: what cannot be looked at or removed is left.
 */
export function sweepStaleTemps(dir = tmpdir()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of names) {
    const m = NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    const start = m[2] === '0' ? '' : m[2]!;
    if (pid === process.pid || processAlive(pid, start)) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      // Only a real directory of this user, as privateTempDir makes them.
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      /* gone meanwhile, or not ours to remove */
    }
  }
  return removed;
}
