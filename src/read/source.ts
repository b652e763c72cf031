/**
 * The file-system SessionSource (model/source.ts): the only implementation that touches input files, read-only,
 * through read/files.ts and read/spans.ts (both open through read/open-regular.ts).
 */
import { dirname, join } from 'node:path';
import type { InventoryEntry } from '../model/inventory.js';
import type { SessionSource, SharedRing } from '../model/source.js';
import type { FoundSession } from '../model/found.js';
import { readChunks, readWholeFile, streamFile, streamFileShared } from './files.js';
import { type Pin, ReadError } from './open-regular.js';
import { readSpans } from './spans.js';
import { RACE_MESSAGE, walkedIdentity } from './pinned.js';
import { JsonlScanner } from './jsonl.js';
import { listDir, lstatEntry, MAX_WALK_DEPTH, walkTree } from './walk.js';
import { byteOrder } from '../model/order.js';
import { opaque } from '../model/found.js';
import { escapeText, fsPath, rawPathOf } from './names.js';

/** Whether every folder on the way from `abs` to its member `m` is a directory by lstat (not a link to one). */
function realDirs(abs: string, m: string): boolean {
  const parts = m.split('/').slice(0, -1);
  return parts.every(
    (_, i) => lstatEntry(join(abs, ...parts.slice(0, i + 1)), parts.slice(0, i + 1).join('/')).type === 'dir',
  );
}

/**
 * The entries of a file session: each member (a file, or a folder taken whole) and nothing else of the directory
 * that holds it, sorted by path like a walk.
 */
export function memberInventory(abs: string, members: readonly string[]): InventoryEntry[] {
  const out: InventoryEntry[] = [];
  for (const m of members) {
    // A member in a folder (an agent home's own files) is read only through real directories, never a link.
    if (m.includes('/') && !realDirs(abs, m)) continue;
    const e = lstatEntry(join(abs, m), m);
    if (e.readError === 'ENOENT') continue;
    out.push(e);
    if (e.type !== 'dir') continue;
    const listed = listDir(join(abs, m), true);
    if (listed.error) e.readError = listed.error;
    else
      for (const c of walkTree(join(abs, m), MAX_WALK_DEPTH - 1, true)) {
        const path = `${m}/${c.path}`;
        const raw = rawPathOf(path);
        out.push({ ...c, path, ...(raw !== undefined ? { rawPath: raw } : {}) });
      }
  }
  return out.sort((a, b) => byteOrder(a.path, b.path));
}

/** Files up to this size, read whole, are kept for span reads; at most this much per session. */
const KEEP_FILE_BYTES = 256 * 1024;
const KEEP_SESSION_BYTES = 1024 * 1024;

/** A span of bytes already in memory, read as `readSpans` reads it from the file. */
function spanOf(bytes: Buffer, { offset, max, line }: { offset: number; max: number; line: boolean }): Buffer {
  const part = bytes.subarray(Math.min(offset, bytes.length), Math.min(bytes.length, offset + Math.max(0, max)));
  const nl = line ? part.indexOf(10) : -1;
  return Buffer.from(nl >= 0 ? part.subarray(0, nl) : part);
}

export function fsSource(walked: FoundSession): SessionSource {
  let found = walked;
  const inventory = opaque(found)
    ? []
    : found.members
      ? memberInventory(found.abs, found.members)
      : walkTree(found.abs, MAX_WALK_DEPTH, true);
  const rootError = (inventory as ReturnType<typeof walkTree>).rootError;
  // The session directory itself cannot be listed now (gone, denied, or swapped for a symlink since discovery).
  if (rootError !== undefined)
    found = { ...found, unreachable: rootError === 'ERACE' ? RACE_MESSAGE : `listing it failed (${rootError})` };
  const byPath = new Map(inventory.map((e) => [e.path, e]));
  const rings = new Map<string, () => SharedRing | undefined>();
  /** Reads made through a ring whose hash is not settled yet. */
  const sharedReads = new Map<string, { size: number; shared: boolean; stamps: [string, string] }>();
  const fail = (entry: InventoryEntry | undefined, e: unknown): { ok: false; error: string } => {
    if (!(e instanceof ReadError)) throw e;
    if (entry) entry.readError = e.reason;
    return { ok: false, error: e.message };
  };
  /** How an entry's open is pinned: to what the walk saw of it, else by its path. */
  const pin = (entry: InventoryEntry): Pin => walkedIdentity(entry) ?? true;
  /**
   * The bytes of the small files read whole, kept for the session's span reads (a finding's line, for its
   * fingerprint): served from here they are the very bytes the audit parsed, and cost no second open. A file read
   * again keeps its latest read (a live session may have rewritten it in between), or nothing.
   */
  const kept = new Map<string, Buffer>();
  let keptBytes = 0;
  const keeps = (rel: string, size: number): boolean =>
    size <= KEEP_FILE_BYTES && keptBytes - (kept.get(rel)?.length ?? 0) + size <= KEEP_SESSION_BYTES;
  const forget = (rel: string): void => {
    keptBytes -= kept.get(rel)?.length ?? 0;
    kept.delete(rel);
  };
  const keep = (rel: string, bytes: Buffer): void => {
    const fits = keeps(rel, bytes.length);
    forget(rel);
    if (!fits) return;
    kept.set(rel, bytes);
    keptBytes += bytes.length;
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
        const r = readWholeFile(fsPath(join(found.abs, rel)), maxBytes, pin(entry));
        entry.sha256 = r.sha256;
        entry.size = r.size;
        if (!r.truncated) keep(rel, r.bytes);
        else forget(rel);
        return { ok: true, value: { bytes: r.bytes, truncated: r.truncated } };
      } catch (e) {
        forget(rel);
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
          const r = streamFileShared(fsPath(join(found.abs, rel)), ring, (chunk) => scanner.push(chunk), pin(entry));
          sharedReads.set(rel, r);
          forget(rel);
          delete entry.sha256;
          entry.size = r.size;
        } else {
          // A small file read in one chunk is kept (a copy: the read buffer is shared) for span reads.
          let whole: Buffer | undefined;
          let chunks = 0;
          const r = streamFile(
            fsPath(join(found.abs, rel)),
            (chunk) => {
              if (++chunks === 1 && keeps(rel, chunk.length)) whole = Buffer.from(chunk);
              else whole = undefined;
              scanner.push(chunk);
            },
            {
              reuse: true,
              pinned: pin(entry),
              stamp: earlier !== undefined,
              ...(limit !== undefined ? { limit } : {}),
            },
          );
          if (whole && whole.length === r.size && limit === undefined) keep(rel, whole);
          else if (limit === undefined) forget(rel);
          entry.size = r.size;
          if (!earlier) entry.sha256 = r.sha256;
          else {
            sharedReads.delete(rel);
            const [a, b] = earlier.stamps;
            const [c, d] = r.stamps!;
            if (a === b && b === c && c === d && r.size === earlier.size) entry.sha256 = r.sha256;
            else {
              delete entry.sha256;
              entry.readError =
                'changed while being audited: not hashed, as a hash of it would not be that of the bytes the audit ' +
                'parsed';
            }
          }
        }
      } catch (e) {
        forget(rel);
        return fail(entry, e);
      }
      return { ok: true, value: scanner.end() };
    },
    readSpans(rel, spans) {
      const entry = check(rel);
      if ('ok' in entry) return entry;
      const bytes = kept.get(rel);
      if (bytes) return { ok: true, value: spans.map((s) => spanOf(bytes, s)) };
      try {
        return { ok: true, value: readSpans(fsPath(join(found.abs, rel)), spans, pin(entry)) };
      } catch (e) {
        if (!(e instanceof ReadError)) throw e;
        return { ok: false, error: e.message };
      }
    },
    shareRead(rel, begin) {
      rings.set(rel, begin);
    },
    adoptHash(rel, sha256, size) {
      const entry = byPath.get(rel);
      const read = sharedReads.get(rel);
      if (!entry || !read?.shared || read.size !== size || !/^[0-9a-f]{64}$/.test(sha256)) return false;
      sharedReads.delete(rel);
      entry.sha256 = sha256;
      return true;
    },
    hashUnread() {
      for (const entry of inventory) {
        if (entry.type !== 'file' || entry.sha256 !== undefined || entry.readError !== undefined) continue;
        try {
          const r = streamFile(fsPath(join(found.abs, entry.path)), () => {}, { reuse: true, pinned: pin(entry) });
          entry.sha256 = r.sha256;
          entry.size = r.size;
        } catch (e) {
          fail(entry, e);
        }
      }
    },
    rawChunks(rel) {
      const entry = byPath.get(rel);
      if (entry?.type !== 'file') throw new ReadError('ENOTREG', `${rel} is not a regular file`);
      return readChunks(fsPath(join(found.abs, rel)), undefined, pin(entry));
    },
    streamRaw(rel, onChunk) {
      const entry = check(rel);
      if ('ok' in entry) return entry;
      try {
        return { ok: true, value: streamFile(fsPath(join(found.abs, rel)), onChunk, { pinned: pin(entry) }) };
      } catch (e) {
        forget(rel);
        return fail(entry, e);
      }
    },
    readSibling(group, session, file, maxBytes) {
      if (
        !found.groupAbs ||
        [group, session, file].some((n) => n === '' || n === '.' || n === '..' || n.includes('/') || n.includes('\0'))
      )
        return undefined;
      const root = dirname(found.groupAbs);
      // The names come from what a session records (plain text): escaped to name their real bytes.
      const dir = join(root, escapeText(group), escapeText(session));
      for (const p of [join(root, escapeText(group)), dir]) {
        const e = lstatEntry(p, p);
        if (e.readError === 'ENOENT') return undefined;
        if (e.type !== 'dir')
          return {
            ok: false,
            error: `${p === dir ? 'the session' : 'the group'} is a ${e.type}, not a directory (not followed)`,
          };
      }
      const abs = join(dir, escapeText(file));
      const entry = lstatEntry(abs, escapeText(file));
      if (entry.readError === 'ENOENT') return { ok: false, error: `the session directory exists but has no ${file}` };
      if (entry.readError !== undefined) return { ok: false, error: `${file} cannot be read (${entry.readError})` };
      if (entry.type !== 'file')
        return { ok: false, error: `${file} is a ${entry.type}, not a regular file (not opened)` };
      try {
        return { ok: true, value: readWholeFile(fsPath(abs), maxBytes, true).bytes };
      } catch (e) {
        return fail(undefined, e);
      }
    },
    streamContext(up, name, options, onRecord) {
      if (name.split('/').some((n) => n === '' || n === '.' || n === '..' || n.includes('\0'))) return undefined;
      let dir = found.abs;
      for (let i = 0; i < up; i++) dir = dirname(dir);
      // Every directory on the way is a real one (a symlink is never followed), as the walk would have seen it.
      const parts = name.split('/');
      for (let i = 1; i < parts.length; i++) {
        const d = join(dir, ...parts.slice(0, i).map(escapeText));
        const e = lstatEntry(d, d);
        if (e.readError === 'ENOENT') return undefined;
        if (e.type !== 'dir')
          return { ok: false, error: `${parts.slice(0, i).join('/')} is a ${e.type}, not a directory` };
      }
      const abs = join(dir, ...parts.map(escapeText));
      const entry = lstatEntry(abs, escapeText(name));
      if (entry.readError === 'ENOENT') return undefined;
      if (entry.type !== 'file')
        return { ok: false, error: `${name} is a ${entry.type}, not a regular file (not opened)` };
      const scanner = new JsonlScanner(onRecord, () => {}, options);
      try {
        streamFile(fsPath(abs), (chunk) => scanner.push(chunk), { reuse: true, pinned: true });
        return { ok: true, value: scanner.end() };
      } catch (e) {
        return fail(undefined, e);
      }
    },
    readGroupFile(name, maxBytes) {
      if (!found.groupAbs) return undefined;
      const abs = join(found.groupAbs, escapeText(name));
      const entry = lstatEntry(abs, escapeText(name));
      if (entry.readError === 'ENOENT') return undefined;
      if (entry.type !== 'file') return { ok: false, error: `is a ${entry.type}, not a regular file (not opened)` };
      try {
        return { ok: true, value: readWholeFile(fsPath(abs), maxBytes, true).bytes };
      } catch (e) {
        return fail(undefined, e);
      }
    },
  };
}
