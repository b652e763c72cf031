/**
 * Hand-made archives with member names no honest writer produces (`../`, absolute, drive letters,
 * backslashes), links, and the name-override records of tar (pax `path`, GNU long names): the inputs of
 * zip-slip style attacks on whoever unpacks a bag. Written byte by byte so that no library sanitises the names.
 */
import { crc32, gzipSync } from 'node:zlib';

export interface Member {
  name: string;
  data?: Buffer;
  /** 'file' (default), 'symlink' (data = target), 'hardlink' (tar only; linkname = target), 'dir'. */
  type?: 'file' | 'symlink' | 'hardlink' | 'dir';
  linkname?: string;
  /** tar only: carry the name in a pax `path` record (the header's own name is `paxHeaderName`). */
  pax?: boolean;
  /** tar only: carry the name in a GNU long-name record. */
  gnuLong?: boolean;
}

/** A zip of stored (uncompressed) members; symlinks carry S_IFLNK in the external attributes. */
export function zipOf(members: readonly Member[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const m of members) {
    const name = Buffer.from(m.name, 'utf8');
    const data = m.type === 'symlink' ? Buffer.from(m.linkname ?? '', 'utf8') : (m.data ?? Buffer.alloc(0));
    const crc = crc32(data);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(0x0800, 6); // UTF-8 names
    lh.writeUInt16LE(0, 8); // stored
    lh.writeUInt16LE(0, 10);
    lh.writeUInt16LE(0x21, 12); // 1980-01-01
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(data.length, 18);
    lh.writeUInt32LE(data.length, 22);
    lh.writeUInt16LE(name.length, 26);
    lh.writeUInt16LE(0, 28);
    locals.push(lh, name, data);
    const mode = m.type === 'symlink' ? 0o120777 : m.type === 'dir' ? 0o40755 : 0o100644;
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE((3 << 8) | 20, 4); // made by unix
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(0x0800, 8);
    ch.writeUInt16LE(0, 10);
    ch.writeUInt16LE(0, 12);
    ch.writeUInt16LE(0x21, 14);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(data.length, 20);
    ch.writeUInt32LE(data.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE((mode << 16) >>> 0, 38);
    ch.writeUInt32LE(offset, 42);
    central.push(ch, name);
    offset += lh.length + name.length + data.length;
  }
  const cd = Buffer.concat(central);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(members.length, 8);
  eocd.writeUInt16LE(members.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

function tarHeader(name: string, size: number, type: string, linkname = ''): Buffer {
  const h = Buffer.alloc(512);
  const put = (s: string | Buffer, at: number, len: number): void => {
    const b = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
    b.copy(h, at, 0, Math.min(len, b.length));
  };
  const oct = (n: number, len: number): string => `${n.toString(8).padStart(len - 1, '0')}\0`;
  put(name, 0, 100);
  put(oct(type === '5' ? 0o755 : 0o644, 8), 100, 8);
  put(oct(0, 8), 108, 8);
  put(oct(0, 8), 116, 8);
  put(oct(size, 12), 124, 12);
  put(oct(0, 12), 136, 12);
  put('        ', 148, 8);
  put(type, 156, 1);
  put(linkname, 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

const pad = (n: number): Buffer => Buffer.alloc((512 - (n % 512)) % 512);

/** A ustar archive; pax and GNU long-name records where asked; two zero blocks at the end. */
export function tarOf(members: readonly Member[]): Buffer {
  const out: Buffer[] = [];
  for (const m of members) {
    const data = m.data ?? Buffer.alloc(0);
    const type = m.type === 'symlink' ? '2' : m.type === 'hardlink' ? '1' : m.type === 'dir' ? '5' : '0';
    let headerName = m.name;
    if (m.pax) {
      const rec = (k: string, v: string): string => {
        const body = ` ${k}=${v}\n`;
        let len = body.length + 1;
        while (`${len}${body}`.length !== len) len = `${len}${body}`.length;
        return `${len}${body}`;
      };
      const paxData = Buffer.from(rec('path', m.name), 'utf8');
      out.push(tarHeader('PaxHeader/innocent', paxData.length, 'x'), paxData, pad(paxData.length));
      headerName = 'data/innocent.txt';
    } else if (m.gnuLong) {
      const ln = Buffer.from(`${m.name}\0`, 'utf8');
      out.push(tarHeader('././@LongLink', ln.length, 'L'), ln, pad(ln.length));
      headerName = 'data/innocent-gnu.txt';
    }
    const size = type === '0' ? data.length : 0;
    out.push(tarHeader(headerName, size, type, m.linkname ?? ''));
    if (size) out.push(data, pad(size));
  }
  out.push(Buffer.alloc(1024));
  return Buffer.concat(out);
}

export const tgzOf = (members: readonly Member[]): Buffer => gzipSync(tarOf(members));
