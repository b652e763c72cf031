/**
 * One archive run: under the store's lock, every session found is captured; a session whose entries differ from
 * its latest capture gets a new record (new or changed), a session of a scanned root that is gone gets a record
 * saying it was deleted (its earlier captures stay). Objects are written before the record that names them, and
 * each record is written whole, so a run killed at any point leaves a store whose chain verifies.
 */
import type { KeyObject } from 'node:crypto';
import { basename } from 'node:path';
import type { ChangePolicy } from '../formats/types.js';
import type { FoundSession } from '../model/found.js';
import { opaque } from '../model/found.js';
import { captureSession, SessionUnstable } from './capture-session.js';
import { capturePath, checkpoint, clearTmp, headFile, writeAtomic } from './layout.js';
import { lockStore } from './lock.js';
import { readState } from './open.js';
import {
  CAPTURE_TYPE,
  encodeRecord,
  sha256,
  type CaptureFinding,
  type CaptureRecord,
  type StoredFile,
  type StoredSession,
} from './record.js';

export interface ArchiveRoot {
  /** The root as given, and its canonical path. */
  arg: string;
  abs: string;
  sessions: readonly FoundSession[];
}

export interface ArchiveInput {
  store: string;
  roots: readonly ArchiveRoot[];
  policy: (found: FoundSession) => (rel: string) => ChangePolicy;
  signKey?: KeyObject;
  keyId?: string;
  /** Read every file again even when its stamp says it is the version captured. */
  rehash?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface ArchiveOutcome {
  new: number;
  changed: number;
  deleted: number;
  unchanged: number;
  /** Sessions recorded but not opened (symlinked, unreadable): not captured. */
  /** Entries not archived; `unreadable`: one that could not be read (not a symlink or a place not searched). */
  skipped: Array<{ display: string; why: string; unreadable?: boolean }>;
  /** Sessions that kept changing while they were read: left for the next run. */
  unstable: Array<{ display: string; why: string }>;
  /** Files of a captured session that could not be read: recorded with the reason, their bytes not kept. */
  unreadable: Array<{ display: string; path: string; why: string }>;
  /** Bytes written to new objects, how many, and bytes read from the source. */
  stored: number;
  objects: number;
  read: number;
  records: number;
  findings: Array<{ session: StoredSession; finding: CaptureFinding; seq: number }>;
}

/** Stable across runs: the format, the directory and (for a file session) the file it is shown by. */
/** Records between two checkpoints (fsync of everything written, then head.json). */
const CHECKPOINT_EVERY = 256;

export function sessionKey(f: FoundSession): string {
  const main = f.members && f.format !== undefined ? basename(f.display) : '';
  return sha256(`${f.format ?? ''}\0${f.abs}\0${main}`).slice(0, 32);
}

const comparable = (files: readonly StoredFile[]): string =>
  JSON.stringify(files.map(({ stamp: _s, ...rest }) => rest));

export function archive(input: ArchiveInput): ArchiveOutcome {
  const { store } = input;
  const release = lockStore(store);
  try {
    return archiveLocked(input);
  } finally {
    release();
  }
}

function archiveLocked(input: ArchiveInput): ArchiveOutcome {
  const { store } = input;
  clearTmp(store);
  const state = readState(store);
  // A run killed between its last record and the head: the head catches up (under the lock, before anything new).
  if (state.last !== null) writeHead(store, state.seq, state.last);
  const run = new Date().toISOString();
  const out: ArchiveOutcome = {
    new: 0,
    changed: 0,
    deleted: 0,
    unchanged: 0,
    skipped: [],
    unstable: [],
    unreadable: [],
    stored: 0,
    objects: 0,
    read: 0,
    records: 0,
    findings: [],
  };
  const write = (r: Omit<CaptureRecord, 'type' | 'version' | 'seq' | 'prev' | 'run'>): void => {
    const record: CaptureRecord = { type: CAPTURE_TYPE, version: 1, seq: state.seq + 1, prev: state.last, run, ...r };
    const bytes = encodeRecord(record, input.signKey, input.keyId);
    writeAtomic(store, capturePath(store, record.seq), bytes, false);
    state.seq = record.seq;
    state.last = sha256(bytes);
    if (++sinceCheckpoint >= CHECKPOINT_EVERY) commit();
    state.heads.set(record.session.key, record);
    out.records++;
    for (const finding of record.findings) out.findings.push({ session: record.session, finding, seq: record.seq });
    for (const f of record.files)
      if (f.readError !== undefined)
        out.unreadable.push({ display: record.session.display, path: f.path, why: f.readError });
  };
  let sinceCheckpoint = 0;
  /** Everything written so far onto the disk, then the head moved on to the last record. */
  const commit = (): void => {
    checkpoint();
    if (state.last !== null) writeHead(store, state.seq, state.last);
    sinceCheckpoint = 0;
  };
  const seen = new Set<string>();
  const total = input.roots.reduce((n, r) => n + r.sessions.length, 0);
  let done = 0;
  for (const root of input.roots) {
    for (const found of root.sessions) {
      input.onProgress?.(done++, total);
      const key = sessionKey(found);
      if (seen.has(key)) continue;
      seen.add(key);
      if (opaque(found)) {
        out.skipped.push(
          found.symlinkTarget !== undefined
            ? { display: found.display, why: 'a symlink (never followed)' }
            : found.unreachable !== undefined
              ? { display: found.display, why: found.unreachable, unreadable: true }
              : { display: found.display, why: 'not searched' },
        );
        continue;
      }
      const head = state.heads.get(key);
      const live = head && head.status !== 'deleted' ? head : undefined;
      let cap: ReturnType<typeof captureSession>;
      try {
        cap = captureSession(store, found, live?.files, input.policy(found), input.rehash ?? false);
      } catch (e) {
        if (!(e instanceof SessionUnstable)) throw e;
        out.unstable.push({ display: found.display, why: e.message });
        continue;
      }
      out.stored += cap.stored;
      out.objects += cap.objects;
      out.read += cap.read;
      if (live && comparable(live.files) === comparable(cap.files)) {
        out.unchanged++;
        continue;
      }
      const session: StoredSession = {
        key,
        id: found.id,
        format: found.format ?? '',
        abs: found.abs,
        display: found.display,
        root: root.abs,
        ...(found.groupName !== undefined ? { groupName: found.groupName } : {}),
        ...(found.members ? { members: [...found.members] } : {}),
      };
      const status = live ? 'changed' : 'new';
      out[status]++;
      write({
        status,
        session,
        ...(head ? { previous: head.seq } : {}),
        files: cap.files,
        grewFrom: cap.grewFrom,
        findings: cap.findings,
      });
    }
  }
  input.onProgress?.(total, total);
  const scanned = new Set(input.roots.map((r) => r.abs));
  for (const [key, head] of [...state.heads]) {
    if (head.status === 'deleted' || seen.has(key) || !scanned.has(head.session.root)) continue;
    out.deleted++;
    write({ status: 'deleted', session: head.session, previous: head.seq, files: [], grewFrom: {}, findings: [] });
  }
  commit();
  return out;
}

function writeHead(store: string, seq: number, sha: string): void {
  writeAtomic(store, headFile(store), Buffer.from(`${JSON.stringify({ seq, sha256: sha })}\n`));
}
