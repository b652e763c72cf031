/** Who can be denied a read: this user if not root; as root (CI, this machine), the unprivileged `nobody`. */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync } from 'node:fs';

export interface Denial {
  uid?: number;
  gid?: number;
  why: string;
}

export function denial(): Denial | undefined {
  if (process.getuid?.() !== 0) return { why: 'chmod 000 as this (non-root) user' };
  const probe = spawnSync(process.execPath, ['-e', '0'], { uid: 65534, gid: 65534 });
  if (probe.status === 0)
    return {
      uid: 65534,
      gid: 65534,
      why: 'running as root, where chmod 000 does not stop reads: the CLI runs as nobody (uid 65534)',
    };
  return undefined;
}

/** The spawn options that run a child as the denied user. */
export const asDenied = (d: Denial): { uid?: number; gid?: number } =>
  d.uid !== undefined ? { uid: d.uid, gid: d.gid! } : {};

/**
 * A new empty directory for a store the denied user writes: theirs, writable by nobody else (the store refuses to be
 * written otherwise).
 */
export function storeDirFor(d: Denial, path: string): string {
  mkdirSync(path, { mode: 0o750 });
  if (d.uid !== undefined) chownSync(path, d.uid, d.gid!);
  return path;
}
