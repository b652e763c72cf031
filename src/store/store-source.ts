/**
 * A capture as a SessionSource (model/source.ts), read from the store's pieces without writing it out: what the
 * index runs the audit, the pairing and the timeline on. Each file is the concatenation of its pieces, each piece
 * read pinned and re-hashed against its name (a damaged piece is StoredVersionDamaged: the capture is then not
 * indexed, never indexed from wrong bytes). The session is alone, as when written out under another group's name:
 * no neighbour, group file or context is reachable. Nothing of the store is written.
 */
import { createHash } from 'node:crypto';
import type { FoundSession } from '../model/found.js';
import type { InventoryEntry } from '../model/inventory.js';
import type { SessionSource } from '../model/source.js';
import { streamFile } from '../read/files.js';
import { JsonlScanner } from '../read/jsonl.js';
import { rawPathOf } from '../read/names.js';
import { ReadError } from '../read/open-regular.js';
import { objectPath } from './layout.js';
import { StoredVersionDamaged } from './materialize.js';
import type { CaptureRecord, StoredFile } from './record.js';

/** Small versions read whole are kept for the session's span reads, as the file-system source keeps them. */
const KEEP_FILE_BYTES = 256 * 1024;

/** The pieces of `f`, each re-hashed against its name, chunk by chunk; stops early when `onChunk` says so. */
function streamPieces(store: string, seq: number, f: StoredFile, onChunk: (chunk: Buffer) => boolean | void): void {
  for (const p of f.pieces ?? []) {
    let stop = false;
    let r: ReturnType<typeof streamFile>;
    try {
      r = streamFile(
        objectPath(store, p),
        (chunk) => {
          if (!stop && onChunk(chunk) === false) stop = true;
        },
        { pinned: true },
      );
    } catch (e) {
      if (!(e instanceof ReadError)) throw e;
      throw new StoredVersionDamaged(`${f.path} of capture ${seq}: a stored piece cannot be read (${e.message})`);
    }
    if (r.sha256 !== p)
      throw new StoredVersionDamaged(`${f.path} of capture ${seq}: a stored piece does not hash to its name`);
    if (stop) return;
  }
}

/** `record` as the session `found` names it (a virtual place: nothing is read by path). */
export function storeSource(store: string, record: CaptureRecord, found: FoundSession): SessionSource {
  const files = new Map(record.files.map((f) => [f.path, f]));
  const inventory: InventoryEntry[] = record.files.map((f) => ({
    path: f.path,
    // A name that is not valid UTF-8 is marked as the walk marks it (its real bytes), so checks see it as live.
    ...(rawPathOf(f.path) !== undefined ? { rawPath: rawPathOf(f.path)! } : {}),
    type: f.type,
    size: f.size,
    mtimeMs: f.mtimeMs,
    mode: f.mode,
    ...(f.linkTarget !== undefined ? { linkTarget: f.linkTarget } : {}),
    ...(f.readError !== undefined ? { readError: f.readError } : {}),
  }));
  const byPath = new Map(inventory.map((e) => [e.path, e]));
  const kept = new Map<string, Buffer>();
  const check = (rel: string): StoredFile | { ok: false; error: string } => {
    const f = files.get(rel);
    if (!f) return { ok: false, error: 'not in the inventory' };
    if (f.type !== 'file') return { ok: false, error: `is a ${f.type}, not a regular file (not opened)` };
    if (f.readError !== undefined || f.pieces === undefined)
      return { ok: false, error: `could not be read when it was captured (${f.readError ?? 'no pieces'})` };
    return f;
  };
  /** The whole version, when small enough to keep (else undefined). */
  const whole = (f: StoredFile): Buffer | undefined => {
    const have = kept.get(f.path);
    if (have) return have;
    if (f.size > KEEP_FILE_BYTES) return undefined;
    const parts: Buffer[] = [];
    streamPieces(store, record.seq, f, (c) => {
      parts.push(Buffer.from(c));
    });
    const bytes = Buffer.concat(parts);
    kept.set(f.path, bytes);
    return bytes;
  };
  const read = (f: StoredFile): void => {
    const e = byPath.get(f.path)!;
    e.sha256 = f.sha256!;
    e.size = f.size;
  };
  return {
    found,
    inventory,
    entry: (rel) => byPath.get(rel),
    readFile(rel, maxBytes) {
      const f = check(rel);
      if ('ok' in f) return f;
      const parts: Buffer[] = [];
      let n = 0;
      streamPieces(store, record.seq, f, (c) => {
        const take = c.subarray(0, Math.max(0, maxBytes - n));
        parts.push(Buffer.from(take));
        n += take.length;
        return n < maxBytes;
      });
      read(f);
      return { ok: true, value: { bytes: Buffer.concat(parts, n), truncated: f.size > maxBytes } };
    },
    streamJsonl(rel, options, onRecord, onDamage, limit) {
      const f = check(rel);
      if ('ok' in f) return f;
      const scanner = new JsonlScanner(onRecord, onDamage, options);
      const max = limit ?? Infinity;
      let n = 0;
      const small = whole(f);
      if (small) scanner.push(small.subarray(0, Math.min(small.length, max)));
      else
        streamPieces(store, record.seq, f, (c) => {
          const take = c.subarray(0, Math.max(0, Math.min(c.length, max - n)));
          n += take.length;
          if (take.length) scanner.push(take);
          return n < max;
        });
      read(f);
      return { ok: true, value: scanner.end() };
    },
    readSpans(rel, spans) {
      const f = check(rel);
      if ('ok' in f) return f;
      const small = whole(f);
      const out = spans.map(() => [] as Buffer[]);
      const ends = spans.map((s) => s.offset + Math.max(0, s.max));
      if (small) {
        for (const [i, s] of spans.entries())
          out[i]!.push(small.subarray(Math.min(s.offset, small.length), Math.min(ends[i]!, small.length)));
      } else {
        let at = 0;
        streamPieces(store, record.seq, f, (c) => {
          spans.forEach((s, i) => {
            const from = Math.max(s.offset, at);
            const to = Math.min(ends[i]!, at + c.length);
            if (from < to) out[i]!.push(Buffer.from(c.subarray(from - at, to - at)));
          });
          at += c.length;
          return at < Math.max(...ends);
        });
      }
      return {
        ok: true,
        value: out.map((parts, i) => {
          const b = Buffer.concat(parts);
          const nl = spans[i]!.line ? b.indexOf(10) : -1;
          return nl >= 0 ? b.subarray(0, nl) : b;
        }),
      };
    },
    hashUnread() {
      for (const f of record.files) if (f.type === 'file' && f.sha256 !== undefined) read(f);
    },
    shareRead() {
      // No second thread reads a stored version: the audit does its per-record work in this one.
    },
    adoptHash: () => false,
    async *rawChunks(rel) {
      const f = check(rel);
      if ('ok' in f) throw new ReadError('ENOTREG', `${rel} ${f.error}`);
      const parts: Buffer[] = [];
      streamPieces(store, record.seq, f, (c) => {
        parts.push(Buffer.from(c));
      });
      yield* parts;
    },
    streamRaw(rel, onChunk) {
      const f = check(rel);
      if ('ok' in f) return f;
      const hash = createHash('sha256');
      let size = 0;
      streamPieces(store, record.seq, f, (c) => {
        hash.update(c);
        size += c.length;
        onChunk(c);
      });
      read(f);
      return { ok: true, value: { sha256: hash.digest('hex'), size } };
    },
    readGroupFile: () => undefined,
    readSibling: () => undefined,
    streamContext: () => undefined,
  };
}
