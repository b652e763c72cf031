/**
 * One session into the store: its entries as the walk saw them, every regular file's version (read pinned,
 * stamps checked), then the walk again: if anything moved in between (the agent wrote while we read), the whole
 * session is read again, up to a few times, so a capture is always one consistent state, never half of two.
 */
import { rmSync } from 'node:fs';
import { firstDifference } from '../bundle/first-difference.js';
import type { ChangePolicy } from '../formats/types.js';
import type { FoundSession } from '../model/found.js';
import type { InventoryEntry } from '../model/inventory.js';
import { ReadError } from '../read/open-regular.js';
import { fsPath } from '../read/names.js';
import { fsSource } from '../read/source.js';
import { pathStamp, racyStamp } from '../read/stamp.js';
import { captureFile, ChangedWhileRead, type Version } from './capture-file.js';
import { objectPath } from './layout.js';
import { readVersion } from './objects.js';
import type { CaptureFinding, StoredFile } from './record.js';

export interface SessionCapture {
  files: StoredFile[];
  grewFrom: Record<string, number>;
  findings: CaptureFinding[];
  stored: number;
  objects: number;
  /** Bytes read from the source. */
  read: number;
}

/** The session kept changing over every attempt: left for the next run. */
export class SessionUnstable extends Error {}

const ATTEMPTS = 4;
/** The largest version compared line by line with its predecessor when a log was rewritten. */
const DIFF_LIMIT = 64 * 1024 * 1024;

const shape = (inv: readonly InventoryEntry[]): string =>
  inv.map((e) => `${e.path}\0${e.type}\0${e.size}\0${e.mtimeMs}\0${e.linkTarget ?? ''}`).join('\n');

export function captureSession(
  store: string,
  found: FoundSession,
  previous: readonly StoredFile[] | undefined,
  policy: (rel: string) => ChangePolicy,
  rehash: boolean,
): SessionCapture {
  let why = '';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const created: string[] = [];
    const r = attemptCapture(store, found, previous, policy, rehash, created);
    if ('files' in r) return r;
    // The pieces only this abandoned attempt stored: no record names them, none ever will (no orphans).
    for (const name of created) rmSync(objectPath(store, name), { force: true });
    why = r.why;
  }
  throw new SessionUnstable(`it kept changing while it was read (${why}); ${ATTEMPTS} attempts, left for the next run`);
}

function attemptCapture(
  store: string,
  found: FoundSession,
  previous: readonly StoredFile[] | undefined,
  policy: (rel: string) => ChangePolicy,
  rehash: boolean,
  created: string[],
): SessionCapture | { why: string } {
  const src = fsSource(found);
  // Gone or swapped since discovery: not a session with no files (the next run records it as deleted if gone).
  if (src.found.unreachable !== undefined) throw new SessionUnstable(`it cannot be read now: ${src.found.unreachable}`);
  const before = src.inventory;
  const prevBy = new Map((previous ?? []).map((f) => [f.path, f]));
  const out: SessionCapture = { files: [], grewFrom: {}, findings: [], stored: 0, objects: 0, read: 0 };
  for (const e of before) {
    const f: StoredFile = { path: e.path, type: e.type, size: e.size, mtimeMs: e.mtimeMs, mode: e.mode };
    if (e.linkTarget !== undefined) f.linkTarget = e.linkTarget;
    if (e.readError !== undefined) f.readError = e.readError;
    out.files.push(f);
    if (e.type !== 'file' || e.readError !== undefined) continue;
    const p = prevBy.get(e.path);
    const prev: Version | undefined =
      p?.type === 'file' && p.sha256 !== undefined && p.pieces !== undefined
        ? { sha256: p.sha256, size: p.size, pieces: p.pieces }
        : undefined;
    const abs = fsPath(`${found.abs}/${e.path}`);
    if (!rehash && prev && p?.stamp !== undefined && p.stamp === pathStamp(abs)) {
      // The same inode, size and nanosecond mtime and ctime as the version captured: not read again.
      Object.assign(f, { sha256: p.sha256, pieces: p.pieces, stamp: p.stamp, size: p.size });
      continue;
    }
    let v: ReturnType<typeof captureFile>;
    try {
      v = captureFile(store, abs, prev);
    } catch (err) {
      if (err instanceof ChangedWhileRead) return { why: `${e.path} ${err.message}` };
      if (err instanceof ReadError) {
        f.readError = err.message;
        continue;
      }
      throw err;
    }
    Object.assign(f, { sha256: v.sha256, pieces: v.pieces, size: v.size });
    // A stamp taken in the same tick as a write cannot tell that version from the next: not kept, read again.
    if (!racyStamp(v.stamp, Date.now())) f.stamp = v.stamp;
    out.stored += v.stored;
    out.objects += v.objects;
    if (v.objects) created.push(v.pieces[v.pieces.length - 1]!);
    out.read += v.size;
    if (!prev || v.sha256 === prev.sha256) continue;
    if (v.grew) {
      out.grewFrom[e.path] = prev.size;
      continue;
    }
    if (policy(e.path) === 'append-only') out.findings.push(rewritten(store, e.path, prev, v));
  }
  const again = fsSource(found);
  if (again.found.unreachable !== undefined) return { why: `it went away: ${again.found.unreachable}` };
  const after = again.inventory;
  if (shape(after) !== shape(before)) return { why: 'its files changed between two walks' };
  for (const p of previous ?? []) {
    if (p.type === 'file' && policy(p.path) === 'append-only' && !out.files.some((f) => f.path === p.path))
      out.findings.push({
        code: 'BUNDLE_FILE_MISSING',
        file: p.path,
        message: `an append-only log of the previous capture (${p.size} bytes) was deleted from the source`,
      });
  }
  return out;
}

function rewritten(store: string, path: string, prev: Version, now: Version): CaptureFinding {
  const before = prev.size <= DIFF_LIMIT ? readVersion(store, prev.pieces, DIFF_LIMIT) : undefined;
  const after = now.size <= DIFF_LIMIT ? readVersion(store, now.pieces, prev.size + 1, true) : undefined;
  const diff = before && after ? firstDifference(before, after) : undefined;
  const at = diff
    ? `; first difference at line ${diff.line}, column ${diff.column} (byte ${diff.offset}): was ⟨${diff.was}⟩, ` +
      `now ⟨${diff.now}⟩`
    : '';
  const what =
    now.size < prev.size
      ? `an append-only log shrank from ${prev.size} to ${now.size} bytes since the previous capture`
      : `an append-only log no longer starts with the ${prev.size} bytes of the previous capture ` +
        `(now ${now.size} bytes)`;
  return { code: 'BUNDLE_NOT_APPEND_ONLY', file: path, ...(diff ? { line: diff.line } : {}), message: what + at };
}
