/**
 * A capture written back out as the session it was: its directories, regular files rebuilt from their pieces
 * (each piece re-hashed on the way, the whole version checked against its digest), symlinks with their recorded
 * targets (never followed), modes as recorded. Used to bundle a capture as the live session would have been.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync, symlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { streamFile } from '../read/files.js';
import { objectPath } from './layout.js';
import type { CaptureRecord } from './record.js';

export class StoredVersionDamaged extends Error {}

/** Write the capture's entries under `dir`; returns the entries that cannot be recreated (FIFOs, sockets, …). */
export function materialize(store: string, record: CaptureRecord, dir: string): string[] {
  const skipped: string[] = [];
  mkdirSync(dir, { recursive: true });
  const dirs: Array<{ path: string; mode: number }> = [];
  for (const f of record.files) {
    const target = join(dir, f.path);
    if (f.type === 'dir') {
      mkdirSync(target, { recursive: true });
      dirs.push({ path: target, mode: f.mode });
      continue;
    }
    mkdirSync(dirname(target), { recursive: true });
    if (f.type === 'symlink' && f.linkTarget !== undefined) {
      symlinkSync(f.linkTarget, target);
      continue;
    }
    if (f.type !== 'file' || f.pieces === undefined) {
      skipped.push(f.path);
      continue;
    }
    const fd = openSync(target, 'wx', 0o600);
    const hash = createHash('sha256');
    let size = 0;
    try {
      for (const p of f.pieces) {
        streamFile(
          objectPath(store, p),
          (chunk) => {
            hash.update(chunk);
            size += chunk.length;
            let off = 0;
            while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
          },
          { pinned: true },
        );
      }
    } finally {
      closeSync(fd);
    }
    if (hash.digest('hex') !== f.sha256 || size !== f.size)
      throw new StoredVersionDamaged(
        `${f.path} of capture ${record.seq} does not rebuild to its recorded digest (run verify --store)`,
      );
    chmodSync(target, f.mode & 0o7777);
  }
  for (const d of dirs.reverse()) chmodSync(d.path, (d.mode & 0o7777) | 0o700);
  return skipped;
}

/**
 * The capture of a session to export: by session id (or store key), the latest at or before `at` that holds its
 * files (a deleted session's last capture before the deletion). A string is the reason there is none.
 */
export function selectCapture(
  records: readonly CaptureRecord[],
  session: string,
  at: number | undefined,
): CaptureRecord | string {
  const keys = new Set(
    records.filter((r) => r.session.id === session || r.session.key === session).map((r) => r.session.key),
  );
  if (keys.size === 0) return `no session ${JSON.stringify(session)} in the store`;
  if (keys.size > 1) {
    const places = [...keys].map((k) => {
      const r = records.find((x) => x.session.key === k)!;
      return `${k} (${r.session.display})`;
    });
    const more = places.length > 5 ? `, and ${places.length - 5} more` : '';
    return (
      `${places.length} sessions have the id ${JSON.stringify(session)}: give one by its key: ` +
      `${places.slice(0, 5).join(', ')}${more}`
    );
  }
  const key = [...keys][0]!;
  const mine = records.filter((r) => r.session.key === key);
  if (at !== undefined) {
    const exact = records.find((r) => r.seq === at);
    if (!exact) return `there is no capture ${at} in the store`;
    if (exact.session.key !== key) return `capture ${at} is of another session (${exact.session.display})`;
  }
  const upTo = mine.filter((r) => at === undefined || r.seq <= at);
  const pick = [...upTo].reverse().find((r) => r.status !== 'deleted');
  return (
    pick ??
    `session ${JSON.stringify(session)} has no capture with its files` +
      (at !== undefined ? ` at or before capture ${at}` : '')
  );
}

/** The directory a session's group is: the one holding its directory, or (a file session) holding its files. */
export const groupDirOf = (r: CaptureRecord): string =>
  r.session.members ? r.session.abs : r.session.abs.replace(/\/[^/]*$/, '');

/**
 * The other sessions of the picked capture's group, each as of its latest capture by the end of the run that made
 * it (not deleted):
 * a format reads its neighbours (a subagent's own session, a parent), so the audit in the bag needs them there.
 */
export function neighbours(records: readonly CaptureRecord[], picked: CaptureRecord): CaptureRecord[] {
  const group = groupDirOf(picked);
  const latest = new Map<string, CaptureRecord>();
  for (const r of records) {
    if (r.run > picked.run) break;
    if (r.session.key !== picked.session.key && groupDirOf(r) === group) latest.set(r.session.key, r);
  }
  return [...latest.values()].filter((r) => r.status !== 'deleted');
}
