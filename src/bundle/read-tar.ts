/**
 * Reading a tar or tar.gz bag in one streamed pass (ustar, pax, GNU long names), never past its end-of-archive
 * marker; the tar header checksum that tells a tar file by its first bytes.
 */
import { createHash } from 'node:crypto';
import { createReadStream, openSync, constants } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { streamFile } from '../read/files.js';
import { admit, type BagContents } from './bag-contents.js';
import { hasherFor, type MemberHasher } from './member-hasher.js';

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

export async function readTar(path: string, gz: boolean): Promise<BagContents> {
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

/** A tar header's checksum: the sum of its bytes with the checksum field read as spaces. */
export function tarChecksumOk(h: Buffer): boolean {
  const recorded = tarNumber(h.subarray(148, 156));
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  return recorded === sum;
}
