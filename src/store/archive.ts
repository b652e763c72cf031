/**
 * One archive run: under the store's lock, every session found is captured; a session whose entries differ from
 * its latest capture gets a new record (new or changed), a session of a scanned root that is gone gets a record
 * saying it was deleted (its earlier captures stay). Objects are written before the record that names them, and
 * each record is written whole, so a run killed at any point leaves a store whose chain verifies.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { userInfo } from 'node:os';
import { basename } from 'node:path';
import type { ChangePolicy } from '../formats/types.js';
import type { FoundSession } from '../model/found.js';
import { opaque } from '../model/found.js';
import { captureSession, SessionUnstable } from './capture-session.js';
import { capturePath, checkpoint, clearTmp, headFile, writeAtomic } from './layout.js';
import { lockStore } from './lock.js';
import { chainEnd, encodeHead, readHead, type ChainEndProblem } from './head.js';
import { readState, StoreError, type StoreState } from './open.js';
import {
  CAPTURE_TYPE,
  encodeRecord,
  filesAs,
  GAP_TYPE,
  type GapRecord,
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
  /**
   * A person's reason for going on past a gap at the chain's end (records removed or altered since head.json was
   * written): recorded in a gap record. Without it such a store is refused.
   */
  acknowledgeGap?: string;
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
  /** The gap this run acknowledged, recorded before its captures. */
  gap?: GapRecord;
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

/**
 * Capture every session of the roots; then `whileLocked` (the index brought up to date) still under the store's
 * lock, so no other run indexes or rebuilds the index meanwhile.
 */
export function archive<T = undefined>(
  input: ArchiveInput,
  whileLocked?: (out: ArchiveOutcome) => T,
): ArchiveOutcome & { afterwards: T | undefined } {
  const { store } = input;
  const release = lockStore(store);
  try {
    const out = archiveLocked(input);
    return { ...out, afterwards: whileLocked?.(out) };
  } finally {
    release();
  }
}

/** `fn` under the store's lock, after what a killed run left under tmp/ is removed. */
export function underLock<T>(store: string, fn: () => T): T {
  const release = lockStore(store);
  try {
    clearTmp(store);
    return fn();
  } finally {
    release();
  }
}

function archiveLocked(input: ArchiveInput): ArchiveOutcome {
  const { store } = input;
  clearTmp(store);
  const state = readState(store);
  const run = new Date().toISOString();
  const gap = checkChainEnd(store, state, input);
  if (gap !== undefined) {
    // The acknowledgement goes into the chain first: every later record follows it.
    const record: GapRecord = {
      type: GAP_TYPE,
      version: 1,
      seq: (gap.lost?.to ?? state.seq) + 1,
      prev: state.last,
      run,
      lost: gap.lost,
      head: gap.head,
      found: gap.found,
      reason: input.acknowledgeGap!,
      by: whoAmI(),
    };
    const bytes = encodeRecord(record, input.signKey, input.keyId);
    writeAtomic(store, capturePath(store, record.seq), bytes);
    state.seq = record.seq;
    state.last = sha256(bytes);
    state.gaps.push(record);
    writeHead(store, state.seq, state.last, input);
  }
  // A run killed between its last record and the head: the head catches up (under the lock, before anything new).
  else if (state.last !== null) writeHead(store, state.seq, state.last, input);
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
    if (state.last !== null) writeHead(store, state.seq, state.last, input);
    sinceCheckpoint = 0;
  };
  const seen = new Set<string>();
  const earlier = new EarlierCaptures(state, input.roots);
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
      const basis = live ?? earlier.basis(key, found);
      const before = basis ? filesAs(basis, found) : undefined;
      let cap: ReturnType<typeof captureSession>;
      try {
        cap = captureSession(store, found, before, input.policy(found), input.rehash ?? false);
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
      if (basis && basis !== live) for (const f of cap.findings) f.message += ` (${earlier.describe(basis, key)})`;
      write({
        status,
        session,
        ...(head ? { previous: head.seq } : {}),
        ...(basis && basis !== live ? { basis: basis.seq } : {}),
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
  if (gap !== undefined) out.gap = state.gaps[state.gaps.length - 1]!;
  return out;
}

function writeHead(store: string, seq: number, sha: string, input: ArchiveInput): void {
  writeAtomic(store, headFile(store), encodeHead(seq, sha, input.signKey, input.keyId));
}

const whoAmI = (): string => {
  let name = '?';
  try {
    name = userInfo().username;
  } catch {
    /* a uid with no passwd entry */
  }
  return `${name} (uid ${process.geteuid?.() ?? '?'})`;
};

/**
 * The chain's end against head.json, before anything is written: a gap (records removed or altered at the end, the
 * head missing or rewritten) is refused unless acknowledged, and then returned to be recorded; a signed chain is
 * only ever extended with signed records.
 */
function checkChainEnd(store: string, state: StoreState, input: ArchiveInput): ChainEndProblem | undefined {
  const lastSigned = state.signed.get(state.seq) === true;
  if (lastSigned && !input.signKey)
    throw new StoreError(
      `the store's records are signed (capture ${state.seq} is): give --sign-key to go on signing them ` +
        '(an unsigned record after signed ones reads as one added without the key)',
    );
  const key = input.signKey ? createPublicKey(input.signKey) : undefined;
  const end = chainEnd(state, readHead(store), key);
  if (!('problem' in end)) {
    if (input.acknowledgeGap !== undefined)
      throw new StoreError('--acknowledge-gap: the chain ends where head.json says: there is no gap to acknowledge');
    return undefined;
  }
  if (input.acknowledgeGap === undefined)
    throw new StoreError(
      `the chain of capture records does not end as head.json says: ${end.problem.found}. Nothing was archived. ` +
        'Run verify --store; to record this in the chain and go on, archive --acknowledge-gap "why"',
    );
  return end.problem;
}

/**
 * What a session that is new under its key (or back after its deletion) is compared with, so that a rewrite is not
 * laundered by moving the session away and back, or to another path: its own last capture with files when it was
 * deleted, else the latest capture of a session of the same agent and id whose path is gone (not found by this run
 * in a root it scans, or deleted). A session of the same id found in both places is a copy, compared with nothing.
 */
class EarlierCaptures {
  private readonly withFiles = new Map<string, CaptureRecord>();
  private readonly byIdentity = new Map<string, Set<string>>();
  private readonly found = new Set<string>();
  private readonly scanned: Set<string>;

  constructor(
    private readonly state: StoreState,
    roots: readonly ArchiveRoot[],
  ) {
    for (const r of state.records) {
      if (r.status !== 'deleted') this.withFiles.set(r.session.key, r);
      const id = identity(r.session.format, r.session.id);
      const keys = this.byIdentity.get(id) ?? new Set<string>();
      keys.add(r.session.key);
      this.byIdentity.set(id, keys);
    }
    for (const root of roots) for (const f of root.sessions) this.found.add(sessionKey(f));
    this.scanned = new Set(roots.map((r) => r.abs));
  }

  basis(key: string, found: FoundSession): CaptureRecord | undefined {
    const own = this.withFiles.get(key);
    if (own) return own;
    if (found.format === undefined) return undefined;
    let pick: CaptureRecord | undefined;
    for (const other of this.byIdentity.get(identity(found.format, found.id)) ?? []) {
      if (other === key || this.found.has(other)) continue;
      const head = this.state.heads.get(other);
      const gone = head !== undefined && (head.status === 'deleted' || this.scanned.has(head.session.root));
      const last = this.withFiles.get(other);
      if (gone && last && (!pick || last.seq > pick.seq)) pick = last;
    }
    return pick;
  }

  describe(basis: CaptureRecord, key: string): string {
    return basis.session.key === key
      ? `compared with capture ${basis.seq}, before the session was deleted from its source and came back`
      : `compared with capture ${basis.seq}, of the same session at ${basis.session.display}, which is gone`;
  }
}

const identity = (format: string, id: string): string => `${format}\0${id}`;
