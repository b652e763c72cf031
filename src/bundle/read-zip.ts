/**
 * Reading a zip bag: the central directory (zip64 too) and every local header checked before anything is
 * decompressed (forged layouts, overlapping members, impossible ratios: archive bombs), then each member inflated
 * no further than it declares.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, openSync, readSync, constants } from 'node:fs';
import { createInflateRaw } from 'node:zlib';
import { streamFile } from '../read/files.js';
import { admit, type BagContents } from './bag-contents.js';
import { hasherFor } from './member-hasher.js';

interface ZipEntry {
  name: string;
  rawName: Buffer;
  method: number;
  compSize: number;
  size: number;
  offset: number;
  mode: number;
  flags: number;
}

function zipDirectory(fd: number, fileSize: number): { entries: ZipEntry[]; cdOffset: number } {
  const tailLen = Math.min(fileSize, 65557);
  const tail = Buffer.alloc(tailLen);
  readSync(fd, tail, 0, tailLen, fileSize - tailLen);
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd === -1) throw new Error('no end-of-central-directory record: not a zip file');
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  const loc = eocd - 20;
  if (loc >= 0 && tail.readUInt32LE(loc) === 0x07064b50) {
    const z64off = Number(tail.readBigUInt64LE(loc + 8));
    const z = Buffer.alloc(56);
    readSync(fd, z, 0, 56, z64off);
    if (z.readUInt32LE(0) === 0x06064b50) {
      count = Number(z.readBigUInt64LE(32));
      cdSize = Number(z.readBigUInt64LE(40));
      cdOffset = Number(z.readBigUInt64LE(48));
    }
  }
  // The central directory must lie inside the file before its end record: never allocate what it claims blindly.
  if (!Number.isSafeInteger(cdOffset) || !Number.isSafeInteger(cdSize) || cdOffset + cdSize > fileSize)
    throw new Error(
      `the central directory (${cdSize} bytes at offset ${cdOffset}) lies beyond the end of the ${fileSize}-byte file`,
    );
  const cd = Buffer.alloc(cdSize);
  readSync(fd, cd, 0, cdSize, cdOffset);
  const out: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count && p + 46 <= cd.length; i++) {
    if (cd.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt central directory');
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    let compSize = cd.readUInt32LE(p + 20);
    let size = cd.readUInt32LE(p + 24);
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    const mode = cd.readUInt32LE(p + 38) >>> 16;
    let offset = cd.readUInt32LE(p + 42);
    const rawName = cd.subarray(p + 46, p + 46 + nameLen);
    const name = rawName.toString('utf8');
    let x = p + 46 + nameLen;
    const xEnd = x + extraLen;
    while (x + 4 <= xEnd) {
      const id = cd.readUInt16LE(x);
      const len = cd.readUInt16LE(x + 2);
      if (id === 0x0001) {
        let q = x + 4;
        if (size === 0xffffffff) {
          size = Number(cd.readBigUInt64LE(q));
          q += 8;
        }
        if (compSize === 0xffffffff) {
          compSize = Number(cd.readBigUInt64LE(q));
          q += 8;
        }
        if (offset === 0xffffffff) offset = Number(cd.readBigUInt64LE(q));
      }
      x += 4 + len;
    }
    out.push({ name, rawName: Buffer.from(rawName), method, compSize, size, offset, mode, flags });
    p = xEnd + commentLen;
  }
  return { entries: out, cdOffset };
}

/**
 * Deflate cannot expand more than 1032 to 1: a member that claims more is forged. A little room above it for
 * the smallest members (a few bytes of header cost).
 */
const MAX_DEFLATE_RATIO = 1032;

interface ZipSpan {
  e: ZipEntry;
  /** The local header's offset and the end of the member's data. */
  start: number;
  end: number;
  dataStart: number;
}

/**
 * The archive's layout, checked before anything is decompressed (archive bombs): every member's local header is
 * where the central directory says and names the same file, its data lies before the central directory, no two
 * members share bytes, and no member claims to expand beyond what deflate can. Returns the problems found
 * (each a BUNDLE_INVALID) and where each member's data starts.
 */
function zipLayout(
  fd: number,
  fileSize: number,
  entries: readonly ZipEntry[],
  cdOffset: number,
): { problems: Array<{ name: string; why: string }>; spans: Map<ZipEntry, ZipSpan> } {
  const problems: Array<{ name: string; why: string }> = [];
  const spans = new Map<ZipEntry, ZipSpan>();
  const lh = Buffer.alloc(30);
  for (const e of entries) {
    if (e.offset + 30 > cdOffset) {
      problems.push({ name: e.name, why: `its local header (offset ${e.offset}) lies beyond the members' area` });
      continue;
    }
    readSync(fd, lh, 0, 30, e.offset);
    if (lh.readUInt32LE(0) !== 0x04034b50) {
      problems.push({ name: e.name, why: `no local header at offset ${e.offset}, where the central directory says` });
      continue;
    }
    const nameLen = lh.readUInt16LE(26);
    const localName = Buffer.alloc(nameLen);
    readSync(fd, localName, 0, nameLen, e.offset + 30);
    if (!localName.equals(e.rawName)) {
      problems.push({
        name: e.name,
        why:
          `the local header names ${JSON.stringify(localName.toString('utf8'))}, the central directory ` +
          `${JSON.stringify(e.name)}: one of them is forged`,
      });
      continue;
    }
    const dataStart = e.offset + 30 + nameLen + lh.readUInt16LE(28);
    const end = dataStart + e.compSize;
    if (end > cdOffset || end > fileSize) {
      problems.push({ name: e.name, why: `its ${e.compSize} compressed bytes run past the members' area` });
      continue;
    }
    if (e.method === 0 && e.size !== e.compSize) {
      problems.push({ name: e.name, why: `stored (not compressed), yet it claims ${e.size} bytes from ${e.compSize}` });
      continue;
    }
    if (e.method === 8 && e.size > Math.max(e.compSize, 1) * MAX_DEFLATE_RATIO + 1024) {
      problems.push({
        name: e.name,
        why:
          `claims to expand ${e.compSize} compressed bytes to ${e.size}, beyond what deflate can ` +
          `(${MAX_DEFLATE_RATIO} to 1): a compression bomb`,
      });
      continue;
    }
    spans.set(e, { e, start: e.offset, end, dataStart });
  }
  const sorted = [...spans.values()].sort((a, b) => a.start - b.start || a.end - b.end);
  let reach: ZipSpan | undefined;
  let overlapping = 0;
  for (const sp of sorted) {
    if (reach && sp.start < reach.end) {
      overlapping++;
      // One line per member would be 400 lines for a 38 KB archive: the first few, then a count.
      if (overlapping <= 5)
        problems.push({
          name: sp.e.name,
          why:
            `shares bytes with ${JSON.stringify(reach.e.name)} (offsets ${sp.start}-${sp.end} and ` +
            `${reach.start}-${reach.end}): overlapping members, the shape of a zip bomb`,
        });
      spans.delete(sp.e);
      spans.delete(reach.e);
    }
    if (!reach || sp.end > reach.end) reach = sp;
  }
  if (overlapping > 5)
    problems.push({ name: '', why: `${overlapping - 5} more members overlap others: overlapping members` });
  return { problems, spans };
}

export async function readZip(path: string): Promise<BagContents> {
  const c: BagContents = { kind: 'zip', members: new Map(), rejected: [], damaged: [] };
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const size = fstatSync(fd).size;
    const whole = createHash('sha256');
    streamFile(path, (b) => whole.update(b));
    c.archiveSha256 = whole.digest('hex');
    const { entries, cdOffset } = zipDirectory(fd, size);
    const layout = zipLayout(fd, size, entries, cdOffset);
    if (layout.problems.length) {
      // A forged layout: nothing of it is decompressed (that is what the bomb needs), every problem is reported.
      for (const p of layout.problems) c.damaged.push(p);
      c.hostile = true;
      return c;
    }
    for (const e of entries) {
      if (e.name.endsWith('/')) continue;
      if ((e.mode & 0o170000) === 0o120000) {
        c.rejected.push({ name: e.name, why: 'a symlink member: never followed' });
        continue;
      }
      if (!admit(c, e.name)) continue;
      if (e.method !== 0 && e.method !== 8) {
        c.rejected.push({ name: e.name, why: `compression method ${e.method} is not supported` });
        continue;
      }
      if (e.flags & 1) {
        c.rejected.push({ name: e.name, why: 'an encrypted member' });
        continue;
      }
      const start = layout.spans.get(e)!.dataStart;
      const h = hasherFor(e.name);
      const raw = e.compSize > 0 ? createReadStream(path, { start, end: start + e.compSize - 1 }) : undefined;
      let over = false;
      try {
        if (raw) {
          const stream = e.method === 8 ? raw.pipe(createInflateRaw()) : raw;
          for await (const chunk of stream) {
            // Never more than the member declares (bounded work whatever the data says).
            if (h.size + (chunk as Buffer).length > e.size) {
              over = true;
              raw.destroy();
              break;
            }
            h.update(chunk as Buffer);
          }
        }
      } catch (err) {
        raw?.destroy();
        c.damaged.push({ name: e.name, why: `cannot be decompressed (${(err as Error).message})` });
        continue;
      }
      if (over) {
        c.damaged.push({ name: e.name, why: `decompresses to more than the ${e.size} bytes the archive says` });
        continue;
      }
      if (h.size !== e.size) {
        c.damaged.push({ name: e.name, why: `decompresses to ${h.size} bytes, the archive says ${e.size}` });
        continue;
      }
      c.members.set(e.name, h.done());
    }
  } finally {
    closeSync(fd);
  }
  return c;
}
