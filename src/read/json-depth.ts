/**
 * How deep a JSON text nests, checked before it is parsed. JSON.parse itself accepts any depth, but the code that
 * walks a parsed value (JSON.stringify, text extraction, schema validation, secret scans, summaries) recurses, and a
 * value nested some thousands of levels deep overflows the stack. Every reader of evidence JSON (the JSONL reader,
 * the sidecar documents, the JSON cells of a database) refuses a text nested deeper than MAX_JSON_DEPTH, so nothing
 * after it ever sees such a value. One linear pass over the bytes (strings skipped), and only for a text that
 * holds more opening brackets than the limit at all (counted with indexOf).
 */
import { MAX_JSON_DEPTH } from '../model/records.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** Where a text nests too deep: the byte offset of the bracket that opens the level past the limit. */
export interface TooDeep {
  at: number;
  limit: number;
}

/** Whether there are more than `limit` opening brackets in `b` at all (in strings or not): the quick answer. */
function manyOpeners(b: Uint8Array, limit: number): boolean {
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.length);
  let n = 0;
  for (const c of [OPEN_OBJECT, OPEN_ARRAY]) {
    for (let i = buf.indexOf(c); i !== -1; i = buf.indexOf(c, i + 1)) if (++n > limit) return true;
  }
  return false;
}

/**
 * Undefined when the JSON text `b` nests at most `limit` levels deep, else where it goes past. Brackets inside
 * strings do not count (a backslash in a string escapes the byte after it). The text need not be
 * valid JSON: a closing bracket without its opener only lowers the count, never below zero.
 */
export function tooDeep(b: Uint8Array, limit = MAX_JSON_DEPTH): TooDeep | undefined {
  if (!manyOpeners(b, limit)) return undefined;
  const buf = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.length);
  const n = buf.length;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = buf[i];
    if (c === QUOTE) {
      // A plain loop to the closing quote: strings full of escaped quotes (JSON text in a tool's output) would
      // cost an indexOf call each.
      for (i++; i < n; i++) {
        const d = buf[i];
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > limit) return { at: i, limit };
    } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && depth > 0) depth--;
  }
  return undefined;
}

/** The same check on a JS string (a database cell): its UTF-8 bytes are what the offset counts. */
export function tooDeepText(s: string, limit = MAX_JSON_DEPTH): TooDeep | undefined {
  let openers = 0;
  for (const c of ['{', '[']) {
    for (let i = s.indexOf(c); i !== -1 && openers <= limit; i = s.indexOf(c, i + 1)) openers++;
  }
  return openers > limit ? tooDeep(Buffer.from(s, 'utf8'), limit) : undefined;
}

/** What a finding says about a text nested too deep. */
export const tooDeepDetail = (d: TooDeep, of = ''): string =>
  `nested more than ${d.limit} levels deep (the bracket at byte ${d.at}${of && ` of the ${of}`} opens level ` +
  `${d.limit + 1})`;
