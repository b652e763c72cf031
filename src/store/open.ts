/**
 * Opening a store: its marker file, its capture records in order (read pinned, like every evidence read), and
 * the latest capture of each session (derived from the records: nothing else is kept, so it cannot drift).
 */
import { existsSync, lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { readWholeFile } from '../read/files.js';
import { byteOrder } from '../model/order.js';
import {
  capturesDir,
  ensureDir,
  headFile,
  tmpDir,
  STORE_FORMAT,
  STORE_VERSION,
  storeFile,
  writeAtomic,
} from './layout.js';
import { isLockName, lockStore } from './lock.js';
import { decodeRecord, sha256, type CaptureRecord } from './record.js';

export class StoreError extends Error {}

const MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** The store's canonical path; with `create`, a missing or empty directory becomes a new store. */
export function openStore(dir: string, create: boolean): string {
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
  if (!existsSync(storeFile(store))) {
    if (!create) throw new StoreError(`${dir}: not a session-audit store (no store.json)`);
    createStore(dir, store);
  }
  const marker = readMarker(store);
  if (marker !== undefined) throw new StoreError(`${dir}: ${marker}`);
  return store;
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
    if (readdirSync(store).some((name) => !isLockName(name)))
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
  /** Every record, in order (for bundle --from-store and verify). */
  records: CaptureRecord[];
}

/**
 * Every record, checked to form a chain. Throws StoreError at the first break: a run must not extend a chain that
 * `verify --store` would reject (verify reports every break; this only refuses to build on one).
 */
export function readState(store: string): StoreState {
  const heads = new Map<string, CaptureRecord>();
  const records: CaptureRecord[] = [];
  let seq = 0;
  let last: string | null = null;
  for (const name of listCaptureFiles(store)) {
    const c = readCaptureFile(store, name);
    let record: CaptureRecord;
    try {
      record = decodeRecord(c.bytes).record;
    } catch (e) {
      throw new StoreError(`captures/${name}: ${(e as Error).message}; run verify --store`);
    }
    if (record.seq !== seq + 1 || record.prev !== last)
      throw new StoreError(`captures/${name}: the chain of capture records is broken here; run verify --store`);
    seq = record.seq;
    last = c.hash ?? sha256(c.bytes);
    heads.set(record.session.key, record);
    records.push(record);
  }
  return { seq, last, heads, records };
}
