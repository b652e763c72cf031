/**
 * Byte-level helpers of the JSONL reader: strict UTF-8, the nesting depth, then JSON.parse of one line, where the
 * first invalid UTF-8 sequence is, whether a line ends inside a character, and where a trailing record starts in a
 * merged line. Pure functions over Buffers; they never throw.
 */
import { isUtf8 } from 'node:buffer';
import { tooDeep, tooDeepDetail, type TooDeep } from './json-depth.js';
import { duplicateKey, type DuplicateKey } from './json-keys.js';

const CR = 0x0d;

export function isBlank(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
}

export function prevNonSpace(b: Buffer, p: number): number {
  for (let i = p - 1; i >= 0; i--) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== CR) return c;
  }
  return -1;
}

export type ParseResult =
  | { ok: true; value: unknown; duplicateKey?: DuplicateKey }
  | { ok: false; reason: string; badUtf8At?: number; utf8CutAtEnd?: boolean; tooDeep?: TooDeep };

/**
 * Strict UTF-8, the nesting depth (json-depth.ts: a text nested too deep is not parsed), then JSON.parse (and the
 * first repeated key, unless `keys` is false). Never throws.
 */
export function parseBytes(b: Buffer, keys = true): ParseResult {
  if (!isUtf8(b)) {
    const at = firstInvalidUtf8(b);
    const cutAtEnd = isTruncatedSequenceAtEnd(b, at);
    return {
      ok: false,
      reason: cutAtEnd ? 'ends inside a multi-byte UTF-8 character' : `invalid UTF-8 at byte ${at}`,
      badUtf8At: at,
      utf8CutAtEnd: cutAtEnd,
    };
  }
  const deep = tooDeep(b);
  if (deep) return { ok: false, reason: tooDeepDetail(deep, 'line'), tooDeep: deep };
  const text = b.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? shortJsonError(e.message) : 'not JSON' };
  }
  // Only objects can repeat a key.
  const dup = keys && text.includes('{') ? duplicateKey(text) : undefined;
  return dup ? { ok: true, value, duplicateKey: dup } : { ok: true, value };
}

function shortJsonError(msg: string): string {
  // V8 messages may quote the input; keep the generic part, and the position (in characters, not bytes).
  const pos = /at position (\d+)/.exec(msg)?.[1];
  const head = msg
    .replace(/, ".*" is not valid JSON$/s, '')
    .replace(/ (?:in JSON )?at position \d+$/, '')
    .replace(/^Unexpected token '(.*)'$/s, (_m, t: string) => `Unexpected token ${JSON.stringify(t)}`);
  return pos !== undefined ? `${head} at character ${pos}` : head;
}

/** Index of the first byte that breaks strict UTF-8 decoding. */
export function firstInvalidUtf8(b: Buffer): number {
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= n) return i;
    let cp = c & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) {
      const cc = b[i + k];
      if (cc === undefined || (cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return n;
}

/** True when the only invalid sequence is an incomplete character at the very end (a tear inside it). */
function isTruncatedSequenceAtEnd(b: Buffer, at: number): boolean {
  const rest = b.length - at;
  if (rest < 1 || rest > 3) return false;
  const c = b[at]!;
  const need = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
  if (need < rest) return false;
  for (let k = 1; k < rest; k++) if ((b[at + k]! & 0xc0) !== 0x80) return false;
  return true;
}

/**
 * Start of the top-level JSON object that ends the line, found by one string-aware backward scan
 * (braces inside strings are ignored; a quote is a delimiter unless preceded by an odd run of backslashes).
 * Returns -1 when the line does not end with such an object.
 */
export function trailingObjectStart(b: Buffer): number {
  let end = b.length - 1;
  while (end >= 0 && (b[end] === 0x20 || b[end] === 0x09 || b[end] === CR)) end--;
  if (end < 0 || b[end] !== 0x7d) return -1;
  let depth = 0;
  let inStr = false;
  for (let i = end; i >= 0; i--) {
    const c = b[i];
    if (c === 0x22) {
      let k = i - 1;
      let slashes = 0;
      while (k >= 0 && b[k] === 0x5c) {
        slashes++;
        k--;
      }
      if (slashes % 2 === 0) inStr = !inStr;
      continue;
    }
    if (inStr) continue;
    if (c === 0x7d || c === 0x5d) depth++;
    else if (c === 0x7b || c === 0x5b) {
      depth--;
      if (depth === 0) return c === 0x7b ? i : -1;
      if (depth < 0) return -1;
    }
  }
  return -1;
}
