/**
 * File names as the file system keeps them: bytes, not always valid UTF-8. Every path the walk hands on is an
 * escaped name: valid UTF-8 as it is, each byte that is not valid UTF-8 as `\xHH`, and a backslash as `\\`, so two
 * names never escape to one string (`evil\xff.json` and `evil\ufffd.json` stay two files), and the escaped name
 * gives back the real bytes (`fsPath`) for every open, stat and listing. A listing is read as bytes for that.
 */

/** `true` when every byte is ASCII and none is a backslash: the name is its own escape. */
function plainAscii(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (c >= 0x80 || c === 0x5c) return false;
  }
  return true;
}

const hex = (c: number): string => `\\x${c.toString(16).padStart(2, '0')}`;

/** The length of the valid UTF-8 sequence at `i` (RFC 3629: no overlong forms, no surrogates), else 0. */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i]!;
  if (c < 0x80) return 1;
  const cont = (k: number): boolean => i + k < b.length && (b[i + k]! & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const d = b[i + 1];
    if (d === undefined || (c === 0xe0 && d < 0xa0) || (c === 0xed && d > 0x9f)) return 0;
    return cont(1) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const d = b[i + 1];
    if (d === undefined || (c === 0xf0 && d < 0x90) || (c === 0xf4 && d > 0x8f)) return 0;
    return cont(1) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/** The escaped name of the bytes `b` (a name, or a whole path: `/` is kept). */
export function escapeName(b: Uint8Array): string {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.length);
  if (plainAscii(buf)) return buf.toString('latin1');
  const s = buf.toString('utf8');
  // Decoding replaces what is not UTF-8 with U+FFFD: none in the text, or only real ones, and the name was valid.
  if (!s.includes('\ufffd') || Buffer.from(s, 'utf8').equals(buf)) return s.replaceAll('\\', '\\\\');
  let out = '';
  let i = 0;
  while (i < b.length) {
    const n = sequenceAt(b, i);
    if (n === 0) {
      out += hex(b[i]!);
      i++;
      continue;
    }
    const part = buf.toString('utf8', i, i + n);
    out += part === '\\' ? '\\\\' : part;
    i += n;
  }
  return out;
}

/** A path given by the user (already a string) as an escaped name: its backslashes doubled. */
export const escapeText = (s: string): string => s.replaceAll('\\', '\\\\');

/** The name holds a byte that is not valid UTF-8 (an `\xHH` escape). */
export function hasRawBytes(escaped: string): boolean {
  for (let i = escaped.indexOf('\\'); i >= 0 && i < escaped.length - 1; i = escaped.indexOf('\\', i)) {
    if (escaped[i + 1] === 'x') return true;
    i += 2;
  }
  return false;
}

/** The real bytes of an escaped name or path. */
export function nameBytes(escaped: string): Buffer {
  if (!escaped.includes('\\')) return Buffer.from(escaped, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = escaped.indexOf('\\'); i >= 0; i = escaped.indexOf('\\', from)) {
    parts.push(Buffer.from(escaped.slice(from, i), 'utf8'));
    const next = escaped[i + 1];
    const hh = escaped.slice(i + 2, i + 4);
    if (next === 'x' && /^[0-9a-f]{2}$/.test(hh)) {
      parts.push(Buffer.from([Number.parseInt(hh, 16)]));
      from = i + 4;
    } else {
      // `\\`, or (never made by escapeName) a lone backslash: kept as one.
      parts.push(Buffer.from('\\'));
      from = next === '\\' ? i + 2 : i + 1;
    }
  }
  parts.push(Buffer.from(escaped.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/**
 * An escaped path as plain text, for where a path is given as an argument (a path whose bytes are not UTF-8 cannot
 * be: it keeps its escapes, and fails to open rather than open another file).
 */
export function plainText(escaped: string): string {
  const b = nameBytes(escaped);
  const s = b.toString('utf8');
  return Buffer.from(s, 'utf8').equals(b) ? s : escaped;
}

/** What to hand fs for an escaped path: the string itself when it holds no escape, else its real bytes. */
export const fsPath = (escaped: string): string | Buffer => (escaped.includes('\\') ? nameBytes(escaped) : escaped);

/** The entry's real bytes, base64, for an inventory entry whose name is not valid UTF-8 (`rawPath`). */
export const rawPathOf = (escaped: string): string | undefined =>
  hasRawBytes(escaped) ? nameBytes(escaped).toString('base64') : undefined;
