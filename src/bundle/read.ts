/**
 * Reading a bag without extracting it: a directory, a zip, a tar or a tar.gz, streamed once. Every member is
 * hashed with every BagIt algorithm on the way; tag files (outside data/) are kept in memory. Members with paths
 * that could escape an extraction directory are reported, never resolved.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, openSync, readSync, constants } from 'node:fs';
import { join } from 'node:path';
import { createGunzip, createInflateRaw } from 'node:zlib';
import { readEvidenceFile, streamFile } from '../read/files.js';
import { walkTree } from '../read/walk.js';
import { unsafePath } from './bagit.js';

export const HASHES = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type HashName = (typeof HASHES)[number];

export interface BagMember {
  name: string;
  size: number;
  digests: Record<HashName, string>;
  /** Content of small members outside data/ (tag files). */
  bytes?: Buffer;
}

export interface BagContents {
  kind: 'dir' | 'zip' | 'tar' | 'tgz';
  members: Map<string, BagMember>;
  /** Members that were not read: unsafe paths, links, special files, duplicates. */
  rejected: Array<{ name: string; why: string }>;
  /** Members (or the archive) that could not be read back: corrupt compressed data, a truncated archive. */
  damaged: Array<{ name: string; why: string }>;
  /** The whole archive's sha256 (not for directories). */
  archiveSha256?: string;
  /** The archive's layout is forged (overlapping members, names that disagree, impossible ratios): not read. */
  hostile?: boolean;
}

const TAG_LIMIT = 16 * 1024 * 1024;
/** A member kept whole to show how it differs from a live file: no more than a live file is read for it. */
const WHOLE_LIMIT = 256 * 1024 * 1024;

class MemberHasher {
  private readonly h = HASHES.map((a) => createHash(a));
  private keep: Buffer[] | undefined;
  private readonly limit: number;
  size = 0;
  /** `keepAll`: keep the content up to WHOLE_LIMIT (to compare one member with a live file). */
  constructor(
    readonly name: string,
    keepAll = false,
  ) {
    this.keep = keepAll || !name.startsWith('data/') ? [] : undefined;
    this.limit = keepAll ? WHOLE_LIMIT : TAG_LIMIT;
  }
  update(b: Buffer): void {
    for (const h of this.h) h.update(b);
    this.size += b.length;
    if (!this.keep) return;
    // Past the limit nothing more is kept, and what was kept is let go (memory stays bounded per member).
    if (this.size <= this.limit) this.keep.push(Buffer.from(b));
    else this.keep = undefined;
  }
  done(): BagMember {
    const digests = Object.fromEntries(HASHES.map((a, i) => [a, this.h[i]!.digest('hex')])) as Record<HashName, string>;
    const m: BagMember = { name: this.name, size: this.size, digests };
    if (this.keep) m.bytes = Buffer.concat(this.keep);
    return m;
  }
}

/** Members whose whole content readers keep (set by readMember). */
let keepWhole: ReadonlySet<string> = new Set();
const hasher_ = (name: string): MemberHasher => new MemberHasher(name, keepWhole.has(name));

function admit(c: BagContents, name: string): boolean {
  const why = unsafePath(name);
  if (why) {
    c.rejected.push({ name, why: `${why}: a member that could escape an extraction directory` });
    return false;
  }
  if (c.members.has(name)) {
    c.rejected.push({ name, why: 'appears twice in the archive' });
    return false;
  }
  return true;
}

export function readBagDir(dir: string): BagContents {
  const c: BagContents = { kind: 'dir', members: new Map(), rejected: [], damaged: [] };
  for (const e of walkTree(dir, 64)) {
    if (e.type === 'dir') continue;
    if (e.type !== 'file') {
      c.rejected.push({
        name: e.path,
        why: `a ${e.type}${e.linkTarget !== undefined ? ` to ${JSON.stringify(e.linkTarget)}` : ''}: never followed`,
      });
      continue;
    }
    const h = hasher_(e.path);
    try {
      streamFile(join(dir, e.path), (b) => h.update(b));
    } catch (err) {
      c.damaged.push({ name: e.path, why: `cannot be read (${(err as Error).message})` });
      continue;
    }
    c.members.set(e.path, h.done());
  }
  return c;
}

/** Push-based tar reader (ustar, pax `x`/`g` headers, GNU long names). */
class TarReader {
  private buf: Buffer = Buffer.alloc(0);
  private state:
    | { kind: 'header' }
    | { kind: 'data'; left: number; pad: number; h?: MemberHasher; meta?: 'pax' | 'gnu'; metaBuf: Buffer[] } = {
    kind: 'header',
  };
  private pax: Record<string, string> = {};
  private longName: string | undefined;
  ended = false;
  constructor(private readonly c: BagContents) {}

  /** The member being read, if any. */
  current(): string {
    return this.state.kind === 'data' ? (this.state.h?.name ?? '') : '';
  }

  /** After the last chunk: a member cut short, or no end-of-archive marker. */
  finish(): void {
    if (this.state.kind === 'data' && this.state.left > 0) {
      this.c.damaged.push({
        name: this.state.h?.name ?? '',
        why: `the archive ends ${this.state.left} bytes before the end of this member: truncated`,
      });
    } else if (!this.ended && this.buf.length) {
      this.c.damaged.push({
        name: '',
        why: `the archive ends with ${this.buf.length} stray bytes: truncated or damaged`,
      });
    }
  }

  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      if (this.ended) return;
      if (this.state.kind === 'header') {
        if (this.buf.length < 512) return;
        const hdr = this.buf.subarray(0, 512);
        this.buf = this.buf.subarray(512);
        this.header(hdr);
        continue;
      }
      const st = this.state;
      if (st.left > 0) {
        if (!this.buf.length) return;
        const n = Math.min(st.left, this.buf.length);
        const part = this.buf.subarray(0, n);
        if (st.meta) st.metaBuf.push(Buffer.from(part));
        else st.h?.update(part);
        st.left -= n;
        this.buf = this.buf.subarray(n);
        if (st.left > 0) return;
      }
      if (this.buf.length < st.pad) return;
      this.buf = this.buf.subarray(st.pad);
      if (st.meta === 'pax') this.pax = parsePax(Buffer.concat(st.metaBuf));
      else if (st.meta === 'gnu') this.longName = Buffer.concat(st.metaBuf).toString('utf8').replace(/\0+$/, '');
      else if (st.h) this.c.members.set(st.h.name, st.h.done());
      this.state = { kind: 'header' };
    }
  }

  private header(h: Buffer): void {
    if (h.every((b) => b === 0)) {
      this.ended = true;
      return;
    }
    const str = (o: number, l: number): string =>
      h
        .subarray(o, o + l)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = tarNumber(h.subarray(124, 136));
    const type = String.fromCharCode(h[156] ? h[156] : 48);
    const prefix = str(345, 155);
    let name = this.pax.path ?? this.longName ?? (prefix ? `${prefix}/${str(0, 100)}` : str(0, 100));
    const effSize = this.pax.size !== undefined ? Number(this.pax.size) : size;
    const pad = (512 - (effSize % 512)) % 512;
    if (type === 'x' || type === 'L' || type === 'g') {
      this.state = {
        kind: 'data',
        left: size,
        pad: (512 - (size % 512)) % 512,
        meta: type === 'L' ? 'gnu' : type === 'x' ? 'pax' : undefined,
        metaBuf: [],
      };
      if (type === 'g') this.state = { kind: 'data', left: size, pad: (512 - (size % 512)) % 512, metaBuf: [] };
      return;
    }
    this.pax = {};
    this.longName = undefined;
    name = name.replace(/^\.\//, '');
    let hasher: MemberHasher | undefined;
    const hasherFor = hasher_;
    if (type === '0' || type === '7') {
      if (admit(this.c, name)) hasher = hasherFor(name);
    } else if (type !== '5') {
      this.c.rejected.push({
        name,
        why:
          type === '2'
            ? `a symlink to ${JSON.stringify(str(157, 100))}: never followed`
            : type === '1'
              ? 'a hard link: not a file of its own'
              : `a special member (type ${type})`,
      });
    }
    this.state = { kind: 'data', left: effSize, pad, ...(hasher ? { h: hasher } : {}), metaBuf: [] };
  }
}

function tarNumber(b: Buffer): number {
  if (b[0]! & 0x80) {
    let n = 0;
    for (let i = 1; i < b.length; i++) n = n * 256 + b[i]!;
    return n;
  }
  const s = b
    .toString('ascii')
    .replace(/[\0 ]+/g, ' ')
    .trim();
  return s ? parseInt(s, 8) : 0;
}

function parsePax(b: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < b.length) {
    const sp = b.indexOf(32, i);
    if (sp === -1) break;
    const len = parseInt(b.subarray(i, sp).toString('ascii'), 10);
    if (!len) break;
    const rec = b.subarray(sp + 1, i + len - 1).toString('utf8');
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

async function readTar(path: string, gz: boolean): Promise<BagContents> {
  const c: BagContents = { kind: gz ? 'tgz' : 'tar', members: new Map(), rejected: [], damaged: [] };
  const t = new TarReader(c);
  const raw = createReadStream('', { fd: openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)) });
  const stream = gz ? raw.pipe(createGunzip()) : raw;
  try {
    for await (const chunk of stream) {
      t.push(chunk as Buffer);
      // Past the end-of-archive marker nothing is a member: what follows is not decompressed (a padded bomb).
      if (t.ended) {
        raw.destroy();
        break;
      }
    }
    t.finish();
  } catch (e) {
    // Corrupt gzip data: what was read so far stands; the rest is reported.
    c.damaged.push({
      name: t.current(),
      why: `the archive cannot be decompressed past this point (${(e as Error).message}): truncated or damaged`,
    });
  }
  // The whole file's digest, in a pass of its own (the members' pass may stop at the end-of-archive marker).
  const whole = createHash('sha256');
  streamFile(path, (b) => whole.update(b));
  c.archiveSha256 = whole.digest('hex');
  return c;
}

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

async function readZip(path: string): Promise<BagContents> {
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
      const h = hasher_(e.name);
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

/** What an archive file is, by its first bytes (never by its name); undefined: not an archive this tool reads. */
export function sniffArchive(path: string): 'zip' | 'tar' | 'tgz' | undefined {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  const head = Buffer.alloc(512);
  let n: number;
  try {
    n = readSync(fd, head, 0, 512, 0);
  } finally {
    closeSync(fd);
  }
  if (n >= 4 && (head.readUInt32LE(0) === 0x04034b50 || head.readUInt32LE(0) === 0x06054b50)) return 'zip';
  if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tgz';
  if (n === 512 && (head.every((b) => b === 0) || tarChecksumOk(head))) return 'tar';
  return undefined;
}

/** A tar header's checksum: the sum of its bytes with the checksum field read as spaces. */
function tarChecksumOk(h: Buffer): boolean {
  const recorded = tarNumber(h.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  return recorded === sum;
}

export async function readBag(path: string, isDir: boolean): Promise<BagContents> {
  if (isDir) return readBagDir(path);
  const kind = sniffArchive(path);
  if (kind === 'zip') return readZip(path);
  if (kind === 'tgz') return readTar(path, true);
  return readTar(path, false);
}

/**
 * The whole content of some members, to show how files differ from live ones: one pass over an archive, direct reads in
 * a directory.
 */
export async function readMembers(
  path: string,
  isDir: boolean,
  names: readonly string[],
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (isDir) {
    for (const name of new Set(names)) {
      if (unsafePath(name)) continue;
      try {
        out.set(name, readEvidenceFile(join(path, name), Number.MAX_SAFE_INTEGER));
      } catch {
        /* missing or unreadable: nothing to compare */
      }
    }
    return out;
  }
  keepWhole = new Set(names);
  try {
    const c = await readBag(path, false);
    for (const n of names) {
      const b = c.members.get(n)?.bytes;
      if (b) out.set(n, b);
    }
    return out;
  } finally {
    keepWhole = new Set();
  }
}
