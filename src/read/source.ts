/**
 * A session as the loaders see it: an inventory plus read operations. The filesystem implementation below is
 * the only one that touches input files; tests can supply in-memory sources with the same interface.
 */
import { dirname, join } from 'node:path';
import type { InventoryEntry } from '../model/inventory.js';
import type { FoundSession } from './discover.js';
import { ReadError, readChunks, readWholeFile, streamFile, streamFileShared } from './files.js';
import type { ChunkRing } from './chunk-ring.js';
import { JsonlScanner, type Damage, type JsonlOptions, type JsonlRecord, type JsonlStats } from './jsonl.js';
import { byteOrder, listDir, lstatEntry, MAX_WALK_DEPTH, walkTree } from './walk.js';
import { opaque } from './discover.js';

export type ReadOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

export interface SessionSource {
  readonly found: FoundSession;
  /** Every entry under the session directory, sorted by path. Hashes are filled in as files are read. */
  readonly inventory: readonly InventoryEntry[];
  entry(rel: string): InventoryEntry | undefined;
  readFile(rel: string, maxBytes: number): ReadOutcome<{ bytes: Buffer; truncated: boolean }>;
  /** Stream a JSONL file through the tolerant reader; `limit`: only its first `limit` bytes. */
  streamJsonl(rel: string, options: JsonlOptions, onRecord: (r: JsonlRecord) => void, onDamage: (d: Damage) => void, limit?: number): ReadOutcome<JsonlStats>;
  /** Hash every regular file not read yet (chain of custody for the whole directory). */
  hashUnread(): void;
  /**
   * The next streamJsonl of `rel` reads the file into the ring `begin()` returns as the read starts (undefined: a
   * plain read), where another thread consumes (and hashes) the same bytes; nothing is hashed here. `adoptHash` then records that thread's hash, which is accepted only if every
   * byte went through the ring. A later read of the same file (the fallback when the other thread failed) is
   * compared with this one by the file's stamps: if the file changed in between, it is left without a hash and
   * marked as changed during the audit.
   */
  shareRead(rel: string, begin: () => ChunkRing | undefined): void;
  adoptHash(rel: string, sha256: string, size: number): boolean;
  /** The raw bytes of a regular file, pulled chunk by chunk (for copying evidence into a bundle). */
  rawChunks(rel: string): AsyncGenerator<Buffer>;
  /** Stream a regular file's raw bytes synchronously; returns its hash and size. */
  streamRaw(rel: string, onChunk: (chunk: Buffer) => void): ReadOutcome<{ sha256: string; size: number }>;
  /** A file of the enclosing group directory (e.g. Grok's `.cwd`), read-only; undefined when absent. */
  readGroupFile(name: string, maxBytes: number): ReadOutcome<Buffer> | undefined;
  /**
   * A file of another session in the same sessions root (`<root>/<group>/<session>/<file>`), read-only;
   * undefined when it does not exist. Names are single path components: nothing outside the root is reachable.
   */
  readSibling(group: string, session: string, file: string, maxBytes: number): ReadOutcome<Buffer> | undefined;
}

/**
 * The entries of a file session: each member (a file, or a folder taken whole) and nothing else of the directory
 * that holds it, sorted by path like a walk.
 */
export function memberInventory(abs: string, members: readonly string[]): InventoryEntry[] {
  const out: InventoryEntry[] = [];
  for (const m of members) {
    const e = lstatEntry(join(abs, m), m);
    if (e.readError === 'ENOENT') continue;
    out.push(e);
    if (e.type !== 'dir') continue;
    const listed = listDir(join(abs, m));
    if (listed.error) e.readError = listed.error;
    else for (const c of walkTree(join(abs, m), MAX_WALK_DEPTH - 1)) out.push({ ...c, path: `${m}/${c.path}` });
  }
  return out.sort((a, b) => byteOrder(a.path, b.path));
}

export function fsSource(found: FoundSession): SessionSource {
  const inventory = opaque(found) ? [] : found.members ? memberInventory(found.abs, found.members) : walkTree(found.abs);
  const byPath = new Map(inventory.map((e) => [e.path, e]));
  const rings = new Map<string, () => ChunkRing | undefined>();
  /** Reads made through a ring whose hash is not settled yet. */
  const sharedReads = new Map<string, { size: number; shared: boolean; stamps: [string, string] }>();
  const fail = (entry: InventoryEntry | undefined, e: unknown): { ok: false; error: string } => {
    if (!(e instanceof ReadError)) throw e;
    if (entry) entry.readError = e.reason;
    return { ok: false, error: e.message };
  };
  const check = (rel: string): InventoryEntry | { ok: false; error: string } => {
    const entry = byPath.get(rel);
    if (!entry) return { ok: false, error: 'not in the inventory' };
    if (entry.type !== 'file') return { ok: false, error: `is a ${entry.type}, not a regular file (not opened)` };
    return entry;
  };
  return {
    found,
    inventory,
    entry: (rel) => byPath.get(rel),
    readFile(rel, maxBytes) {
      const entry = check(rel);
      if ('ok' in entry) return entry;
      try {
        const r = readWholeFile(join(found.abs, rel), maxBytes);
        entry.sha256 = r.sha256;
        entry.size = r.size;
        return { ok: true, value: { bytes: r.bytes, truncated: r.truncated } };
      } catch (e) {
        return fail(entry, e);
      }
    },
    streamJsonl(rel, options, onRecord, onDamage, limit) {
      const entry = check(rel);
      if ('ok' in entry) return entry;
      const scanner = new JsonlScanner(onRecord, onDamage, options);
      const begin = rings.get(rel);
      rings.delete(rel);
      const ring = begin?.();
      const earlier = sharedReads.get(rel);
      try {
        if (ring) {
          const r = streamFileShared(join(found.abs, rel), ring, (chunk) => scanner.push(chunk));
          sharedReads.set(rel, r);
          delete entry.sha256;
          entry.size = r.size;
        } else {
          const r = streamFile(join(found.abs, rel), (chunk) => scanner.push(chunk), { reuse: true, stamp: earlier !== undefined, ...(limit !== undefined ? { limit } : {}) });
          entry.size = r.size;
          if (!earlier) entry.sha256 = r.sha256;
          else {
            sharedReads.delete(rel);
            const [a, b] = earlier.stamps;
            const [c, d] = r.stamps!;
            if (a === b && b === c && c === d && r.size === earlier.size) entry.sha256 = r.sha256;
            else {
              delete entry.sha256;
              entry.readError = 'changed while being audited: not hashed, as a hash of it would not be that of the bytes the audit parsed';
            }
          }
        }
      } catch (e) {
        return fail(entry, e);
      }
      return { ok: true, value: scanner.end() };
    },
    shareRead(rel, begin) {
      rings.set(rel, begin);
    },
    adoptHash(rel, sha256, size) {
      const entry = byPath.get(rel);
      const read = sharedReads.get(rel);
      if (!entry || !read || !read.shared || read.size !== size || !/^[0-9a-f]{64}$/.test(sha256)) return false;
      sharedReads.delete(rel);
      entry.sha256 = sha256;
      return true;
    },
    hashUnread() {
      for (const entry of inventory) {
        if (entry.type !== 'file' || entry.sha256 !== undefined || entry.readError !== undefined) continue;
        try {
          const r = streamFile(join(found.abs, entry.path), () => {}, { reuse: true });
          entry.sha256 = r.sha256;
          entry.size = r.size;
        } catch (e) {
          fail(entry, e);
        }
      }
    },
    rawChunks(rel) {
      const entry = byPath.get(rel);
      if (!entry || entry.type !== 'file') throw new ReadError('ENOTREG', `${rel} is not a regular file`);
      return readChunks(join(found.abs, rel));
    },
    streamRaw(rel, onChunk) {
      const entry = check(rel);
      if ('ok' in entry) return entry;
      try {
        return { ok: true, value: streamFile(join(found.abs, rel), onChunk) };
      } catch (e) {
        return fail(entry, e);
      }
    },
    readSibling(group, session, file, maxBytes) {
      if (!found.groupAbs || [group, session, file].some((n) => n === '' || n === '.' || n === '..' || n.includes('/') || n.includes('\0'))) return undefined;
      const root = dirname(found.groupAbs);
      const dir = join(root, group, session);
      for (const p of [join(root, group), dir]) {
        const e = lstatEntry(p, p);
        if (e.readError === 'ENOENT') return undefined;
        if (e.type !== 'dir') return { ok: false, error: `${p === dir ? 'the session' : 'the group'} is a ${e.type}, not a directory (not followed)` };
      }
      const abs = join(dir, file);
      const entry = lstatEntry(abs, file);
      if (entry.readError === 'ENOENT') return { ok: false, error: `the session directory exists but has no ${file}` };
      if (entry.type !== 'file') return { ok: false, error: `${file} is a ${entry.type}, not a regular file (not opened)` };
      try {
        return { ok: true, value: readWholeFile(abs, maxBytes).bytes };
      } catch (e) {
        return fail(undefined, e);
      }
    },
    readGroupFile(name, maxBytes) {
      if (!found.groupAbs) return undefined;
      const abs = join(found.groupAbs, name);
      const entry = lstatEntry(abs, name);
      if (entry.readError === 'ENOENT') return undefined;
      if (entry.type !== 'file') return { ok: false, error: `is a ${entry.type}, not a regular file (not opened)` };
      try {
        return { ok: true, value: readWholeFile(abs, maxBytes).bytes };
      } catch (e) {
        return fail(undefined, e);
      }
    },
  };
}
