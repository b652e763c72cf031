/**
 * Opening a store: its marker file, its capture records in order (read pinned, like every evidence read), and
 * the latest capture of each session (derived from the records: nothing else is kept, so it cannot drift).
 */
import { existsSync, lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { readWholeFile } from '../read/files.js';
import { byteOrder } from '../model/order.js';
import {
  captureName,
  capturesDir,
  ensureDir,
  headFile,
  tmpDir,
  STORE_FORMAT,
  STORE_VERSION,
  storeFile,
  writeAtomic,
} from './layout.js';
import { guardStore, StoreUnsafe } from './guard.js';
import { isLockName, lockStore } from './lock.js';
import { decodeRecord, isGap, recordProblem, type CaptureRecord, type ChainRecord, type GapRecord } from './record.js';

export class StoreError extends Error {}

const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/**
 * The store's canonical path; with `create`, a missing or empty directory becomes a new store. `write`: the run
 * will write it, so it must be this user's alone (guard.ts); else it is only read, and need not be.
 */
export function openStore(dir: string, create: boolean, write = create): string {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch {
    if (!create) throw new StoreError(`${dir}: no such store`);
    ensureDir(dir);
    st = lstatSync(dir);
  }
  if (st.isSymbolicLink()) throw new StoreError(`${dir}: is a symlink; give the store directory itself`);
  if (!st.isDirectory()) throw new StoreError(`${dir}: not a directory`);
  const store = realpathSync(dir);
  guard(store, write);
  if (!existsSync(storeFile(store))) {
    if (!create) throw new StoreError(`${dir}: not a session-audit store (no store.json)`);
    createStore(dir, store);
  }
  const marker = readMarker(store);
  if (marker !== undefined) throw new StoreError(`${dir}: ${marker}`);
  return store;
}

function guard(store: string, write: boolean): void {
  try {
    guardStore(store, write);
  } catch (e) {
    if (e instanceof StoreUnsafe) throw new StoreError(e.message);
    throw e;
  }
}

const storeMarker = (): Record<string, unknown> => ({ format: STORE_FORMAT, version: STORE_VERSION });

/**
 * Make an empty directory a store, under the store's lock: two first runs at once must not take each other's
 * half-made store for a foreign directory (the second waits for nothing: it finds the lock, or the finished store).
 */
function createStore(dir: string, store: string): void {
  const release = lockStore(store);
  try {
    if (existsSync(storeFile(store))) return;
    // What a first run killed while it made the store leaves (its tmp/ and head, no marker yet) is not foreign.
    const leftover = (name: string): boolean => isLockName(name) || name === 'tmp' || name === 'head.json';
    if (readdirSync(store).some((name) => !leftover(name)))
      throw new StoreError(`${dir}: exists, is not empty and is not a session-audit store (no store.json)`);
    ensureDir(tmpDir(store));
    // The head first (no record yet), then the marker that makes the directory a store.
    writeAtomic(store, headFile(store), Buffer.from(`${JSON.stringify({ seq: 0, sha256: null })}\n`));
    writeAtomic(store, storeFile(store), Buffer.from(`${JSON.stringify(storeMarker())}\n`));
  } finally {
    release();
  }
}

/** What is wrong with store.json, or undefined. */
export function readMarker(store: string): string | undefined {
  try {
    const v = JSON.parse(readWholeFile(storeFile(store), 4096, true).bytes.toString('utf8')) as Record<string, unknown>;
    if (v.format !== STORE_FORMAT) return 'store.json does not name a session-audit store';
    if (v.version !== STORE_VERSION) return `store version ${String(v.version)} is not supported`;
    return undefined;
  } catch (e) {
    return `store.json cannot be read (${(e as Error).message})`;
  }
}

/** The record files, in order of their names (= sequence numbers), as paths relative to captures/. */
export function listCaptureFiles(store: string): string[] {
  const dir = capturesDir(store);
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const shard of readdirSync(dir).sort(byteOrder)) {
    const sub = join(dir, shard);
    if (!lstatSync(sub).isDirectory()) {
      out.push(shard);
      continue;
    }
    for (const name of readdirSync(sub).sort(byteOrder)) out.push(`${shard}/${name}`);
  }
  return out;
}

export interface ReadCapture {
  name: string;
  bytes: Buffer;
  hash: string;
}

export function readCaptureFile(store: string, name: string): ReadCapture {
  const r = readWholeFile(join(capturesDir(store), name), MAX_RECORD_BYTES, true);
  if (r.truncated) throw new StoreError(`captures/${name}: larger than ${MAX_RECORD_BYTES} bytes`);
  return { name, bytes: r.bytes, hash: r.sha256 };
}

export interface StoreState {
  /** The last record's sequence number and file hash (0 and null: none yet). */
  seq: number;
  last: string | null;
  /** The latest record of each session, by key. */
  heads: Map<string, CaptureRecord>;
  /** Every capture record, in order (for bundle --from-store and verify). */
  records: CaptureRecord[];
  /** The acknowledged gaps, in order. */
  gaps: GapRecord[];
  /** Each record's file hash and whether it is signed, by number (gap records included). */
  hashes: Map<number, string>;
  signed: Map<number, boolean>;
}

/**
 * Why `record` cannot follow the record numbered `prev`, or undefined. A record follows its predecessor's number;
 * a gap record that lost records numbers itself after them (lost.from follows the predecessor).
 */
export function chainStep(prev: number, record: ChainRecord): string | undefined {
  if (isGap(record) && record.lost !== null) {
    if (record.lost.from !== prev + 1 || record.seq !== record.lost.to + 1)
      return (
        `gap record ${record.seq} says captures ${record.lost.from}-${record.lost.to} were lost, but it follows ` +
        `capture ${prev}`
      );
    return undefined;
  }
  if (record.seq !== prev + 1)
    return `capture ${record.seq} where capture ${prev + 1} was expected: a record was removed, added or reordered`;
  return undefined;
}

/**
 * Every record, checked to form a chain. Throws StoreError at the first break: a run must not extend a chain that
 * `verify --store` would reject (verify reports every break; this only refuses to build on one), nor write out a
 * record whose paths would leave its directory.
 */
export function readState(store: string): StoreState {
  const state: StoreState = {
    seq: 0,
    last: null,
    heads: new Map(),
    records: [],
    gaps: [],
    hashes: new Map(),
    signed: new Map(),
  };
  for (const name of listCaptureFiles(store)) {
    let c: ReadCapture;
    let decoded: ReturnType<typeof decodeRecord>;
    try {
      c = readCaptureFile(store, name);
      decoded = decodeRecord(c.bytes);
    } catch (e) {
      throw new StoreError(`captures/${name}: ${(e as Error).message}; run verify --store`);
    }
    const record = decoded.record;
    const broken = chainStep(state.seq, record);
    if (broken !== undefined || record.prev !== state.last || name !== captureName(record.seq))
      throw new StoreError(`captures/${name}: the chain of capture records is broken here; run verify --store`);
    const unsafe = isGap(record) ? undefined : recordProblem(record);
    if (unsafe !== undefined) throw new StoreError(`captures/${name}: ${unsafe}; run verify --store`);
    state.seq = record.seq;
    state.last = c.hash;
    state.hashes.set(record.seq, c.hash);
    state.signed.set(record.seq, decoded.envelope !== undefined);
    if (isGap(record)) {
      state.gaps.push(record);
      continue;
    }
    state.heads.set(record.session.key, record);
    state.records.push(record);
  }
  return state;
}
