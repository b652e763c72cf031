/**
 * Reading Gemini CLI's `logs.json` (formats/gemini-cli.md §1.3; `core/core/logger.ts`): one pretty-printed JSON array
 * of `{sessionId, messageId, timestamp, type, message}`, rewritten whole at every prompt. Read bounded (the first
 * LOGS_MAX_BYTES only), never recursively: the array's elements are found by a byte scan that tracks strings and
 * depth, each element parsed alone when it is flat (an entry is an object of strings and numbers), so a file cut
 * short still gives the entries before the cut, and no nesting depth or size can throw. Whether the whole file is
 * what the CLI accepts (valid JSON, an array) is judged as the CLI does, with JSON.parse.
 */
import type { JsonlRecord } from '../../../model/records.js';
import type { ReadOutcome, SessionSource } from '../../../model/source.js';

/** The most of one logs.json this audit reads (about 160,000 prompts of 200 bytes). */
export const LOGS_MAX_BYTES = 32 * 1024 * 1024;

/** What is wrong with the file as a whole, as Gemini CLI's reader sees it. */
export type LogsProblem =
  /** Not valid JSON: the CLI renames it to `logs.json.invalid_json.<ms>.bak` at its next start and writes `[]`. */
  | 'invalid_json'
  /** Valid JSON that is not an array: renamed to `logs.json.malformed_array.<ms>.bak`. */
  | 'not_array'
  /** Larger than this audit reads: only the entries in its first LOGS_MAX_BYTES are judged. */
  | 'too_large';

export interface LogsRead {
  /** The array's complete elements in order, each as a record (value undefined: not flat, or not JSON). */
  records: JsonlRecord[];
  problem?: LogsProblem;
  size: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const NEWLINE = 0x0a;
const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === NEWLINE || c === 0x0d;

function wholeProblem(bytes: Buffer, truncated: boolean): LogsProblem | undefined {
  if (truncated) return 'too_large';
  try {
    return Array.isArray(JSON.parse(bytes.toString('utf8'))) ? undefined : 'not_array';
  } catch {
    return 'invalid_json';
  }
}

/** The complete elements of the top-level array in `bytes` (none when it does not start with `[`). */
export function scanElements(bytes: Buffer): JsonlRecord[] {
  const out: JsonlRecord[] = [];
  const n = bytes.length;
  let i = 0;
  let line = 1;
  let counted = 0;
  const lineAt = (at: number): number => {
    for (; counted < at; counted++) if (bytes[counted] === NEWLINE) line++;
    return line;
  };
  while (i < n && isSpace(bytes[i])) i++;
  if (bytes[i] !== OPEN_ARRAY) return out;
  i++;
  for (;;) {
    while (i < n && isSpace(bytes[i])) i++;
    if (i >= n || bytes[i] === CLOSE_ARRAY) return out;
    const start = i;
    let depth = 0;
    let deepest = 0;
    let inString = false;
    let escaped = false;
    let j = start;
    for (; j < n; j++) {
      const c = bytes[j];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) deepest = Math.max(deepest, ++depth);
      else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        if (depth === 0) break;
        depth--;
      } else if (c === COMMA && depth === 0) break;
    }
    // Cut short inside an element: the elements before it are all there is.
    if (j >= n) return out;
    let end = j;
    while (end > start && isSpace(bytes[end - 1])) end--;
    let value: unknown;
    if (deepest <= 1)
      try {
        value = JSON.parse(bytes.toString('utf8', start, end));
      } catch {
        value = undefined;
      }
    out.push({ line: lineAt(start), byteOffset: start, byteLength: end - start, value });
    if (bytes[j] === CLOSE_ARRAY || bytes[j] === CLOSE_OBJECT) return out;
    i = j + 1;
  }
}

/** The first `maxBytes` of a file too large to read whole (the reader then keeps none of it). */
function prefix(source: SessionSource, rel: string, maxBytes: number): Buffer {
  const parts: Buffer[] = [];
  let kept = 0;
  source.streamRaw(rel, (chunk) => {
    if (kept >= maxBytes) return;
    const part = chunk.subarray(0, maxBytes - kept);
    parts.push(Buffer.from(part));
    kept += part.length;
  });
  return Buffer.concat(parts, kept);
}

/** A logs.json of the home, read once and bounded. */
export function readLogs(source: SessionSource, rel: string, maxBytes = LOGS_MAX_BYTES): ReadOutcome<LogsRead> {
  const r = source.readFile(rel, maxBytes);
  if (!r.ok) return r;
  const { truncated } = r.value;
  const bytes = truncated ? prefix(source, rel, maxBytes) : r.value.bytes;
  const problem = wholeProblem(bytes, truncated);
  const records = problem === 'not_array' ? [] : scanElements(bytes);
  return {
    ok: true,
    value: { records, size: source.entry(rel)?.size ?? bytes.length, ...(problem ? { problem } : {}) },
  };
}
