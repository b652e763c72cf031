/**
 * A capture written back out as the session it was: its directories, regular files rebuilt from their pieces
 * (each piece re-hashed on the way, the whole version checked against its digest), symlinks with their recorded
 * targets (never followed), permission bits as recorded (never setuid, setgid or sticky). Used to bundle a capture
 * as the live session would have been, and to index it.
 *
 * A record is read back from a store another user may have written: its paths are checked first (record.ts:
 * relative, no `..`, nothing below a recorded symlink or file), every directory on the way is made here and checked
 * to be a real directory, and every file is created new without following a link (O_CREAT | O_EXCL | O_NOFOLLOW),
 * so nothing is ever written outside `dir`, which the caller makes inside a private temporary directory.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { streamFile } from '../read/files.js';
import { escapeName, nameBytes } from '../read/names.js';
import { ReadError } from '../read/open-regular.js';
import { objectPath } from './layout.js';
import { recordProblem, type CaptureRecord } from './record.js';

export class StoredVersionDamaged extends Error {}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** The real path of `rel` (a recorded path) below `dir`, both escaped (read/names.ts). */
const below = (dir: string, rel: string): Buffer => nameBytes(`${dir}/${rel}`);

/** `rel`'s directories below `dir`, made one by one; each must be a real directory (never a link). */
function makeParents(dir: string, rel: string): void {
  const segments = rel.split('/').slice(0, -1);
  for (let i = 1; i <= segments.length; i++) makeDir(below(dir, segments.slice(0, i).join('/')));
}

function makeDir(path: Buffer): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    if (!lstatSync(path).isDirectory())
      throw new StoredVersionDamaged(`${escapeName(path)} is not a directory it made`);
  }
}

/**
 * Write the capture's entries under `dir` (an escaped path, as the walk gives: read/names.ts), each under its real
 * bytes; returns the entries that cannot be recreated (FIFOs, sockets, …).
 */
export function materialize(store: string, record: CaptureRecord, dir: string): string[] {
  const problem = recordProblem(record);
  if (problem !== undefined)
    throw new StoredVersionDamaged(`capture ${record.seq} cannot be written out: ${problem}; run verify --store`);
  const skipped: string[] = [];
  mkdirSync(nameBytes(dir), { recursive: true, mode: 0o700 });
  const dirs: Array<{ path: Buffer; mode: number }> = [];
  for (const f of record.files) {
    const target = below(dir, f.path);
    makeParents(dir, f.path);
    if (f.type === 'dir') {
      makeDir(target);
      dirs.push({ path: target, mode: f.mode });
      continue;
    }
    if (f.type === 'symlink' && f.linkTarget !== undefined) {
      symlinkSync(nameBytes(f.linkTarget), target);
      continue;
    }
    if (f.type !== 'file' || f.pieces === undefined) {
      skipped.push(f.path);
      continue;
    }
    writeVersion(store, record, f, target);
  }
  for (const d of dirs.reverse()) chmodSync(d.path, (d.mode & 0o777) | 0o700);
  return skipped;
}

function writeVersion(store: string, record: CaptureRecord, f: CaptureRecord['files'][number], target: Buffer): void {
  const fd = openSync(target, CREATE, 0o600);
  const hash = createHash('sha256');
  let size = 0;
  try {
    for (const p of f.pieces!) {
      try {
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
      } catch (e) {
        if (!(e instanceof ReadError)) throw e;
        throw new StoredVersionDamaged(
          `${f.path} of capture ${record.seq}: its stored piece objects/${p.slice(0, 2)}/${p} cannot be read ` +
            `(${e.message}); run verify --store`,
        );
      }
    }
    if (hash.digest('hex') !== f.sha256 || size !== f.size)
      throw new StoredVersionDamaged(
        `${f.path} of capture ${record.seq} does not rebuild to its recorded digest; run verify --store`,
      );
    fchmodSync(fd, f.mode & 0o777);
  } finally {
    closeSync(fd);
  }
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
