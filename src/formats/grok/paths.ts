/**
 * Grok's session placement: `<grok_home>/sessions/<encode_cwd_dirname(cwd)>/<session-id>/`
 * (xai-grok-config/src/paths.rs). Percent-encoding as the `urlencoding` crate does it when the result fits in
 * 255 bytes; otherwise `{slug(leaf, 40)}-{blake3(cwd)[..16]}` plus a `.cwd` file holding the raw cwd.
 */
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export const MAX_DIRNAME_BYTES = 255;

const SAFE = (b: number): boolean =>
  (b >= 48 && b <= 57) ||
  (b >= 65 && b <= 90) ||
  (b >= 97 && b <= 122) ||
  b === 45 ||
  b === 46 ||
  b === 95 ||
  b === 126;

/** urlencoding::encode: UTF-8 bytes, `0-9A-Za-z-._~` kept, everything else `%XX` (uppercase). */
export function urlencode(s: string): string {
  let o = '';
  for (const b of Buffer.from(s, 'utf8'))
    o += SAFE(b) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  return o;
}

/** Rust `Path::file_name()` on Unix. */
function fileName(p: string): string | null {
  const parts = p.split('/').filter((x) => x !== '' && x !== '.');
  const last = parts.at(-1);
  return !last || last === '..' ? null : last;
}

function slugify(s: string, max: number): string {
  let r = '';
  let dash = false;
  for (const ch of s.toLowerCase()) {
    if (/^[0-9a-z]$/.test(ch)) {
      r += ch;
      dash = false;
    } else if (!dash) {
      r += '-';
      dash = true;
    }
  }
  return [...r.replace(/^-+|-+$/g, '')].slice(0, max).join('');
}

export function encodeCwdDirname(cwd: string): string {
  const u = urlencode(cwd);
  if (u.length <= MAX_DIRNAME_BYTES) return u;
  const hash = bytesToHex(blake3(Buffer.from(cwd, 'utf8'))).slice(0, 16);
  const slug = slugify(fileName(cwd) ?? 'workspace', 40) || 'workspace';
  return `${slug}-${hash}`;
}

/** True for a name in the hashed form (`<slug>-<16 hex>`). */
export const isHashedDirname = (name: string): boolean => /^[0-9a-z-]{1,40}-[0-9a-f]{16}$/.test(name);

/** Does a directory name look like a Grok cwd group (so that placement can be checked against it)? */
export function looksLikeGroup(name: string, hasCwdFile: boolean): boolean {
  const d = urldecode(name);
  return (d?.startsWith('/') && name.includes('%')) || isHashedDirname(name) || hasCwdFile;
}

/** Lenient percent-decoding as urlencoding::decode (bad escapes kept literally); undefined if not UTF-8. */
export function urldecode(name: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const c = name[i]!;
    if (c === '%' && /^[0-9a-fA-F]{2}$/.test(name.slice(i + 1, i + 3))) {
      bytes.push(parseInt(name.slice(i + 1, i + 3), 16));
      i += 2;
    } else for (const b of Buffer.from(c, 'utf8')) bytes.push(b);
  }
  const buf = Buffer.from(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    return undefined;
  }
}

/** decode_cwd_from_dirname: the URL-decoded name if it is an absolute path, else the trimmed `.cwd` content. */
export function decodeCwdDirname(name: string, cwdFile?: string): string | undefined {
  const d = urldecode(name);
  if (d?.startsWith('/')) return d;
  return cwdFile?.trim();
}
