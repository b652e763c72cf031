/**
 * The tolerant JSONL reader (DESIGN §4): bytes in, records with exact positions and classified damage out.
 *
 * Push-based and pure: the caller feeds chunks (of any size) and receives callbacks, so the same code serves
 * files of any length with memory bounded by the longest accepted line (capped by `maxLineBytes`).
 * Lines are split on 0x0A only; every line keeps its 1-based number, byte offset and byte length; UTF-8 is
 * decoded strictly; nothing is skipped without a damage report, and no record is invented: a record is
 * delivered only if its exact bytes parse as JSON.
 */
import { isUtf8 } from 'node:buffer';

export const JSONL_DAMAGE_CODES = [
  'JSONL_TORN_TAIL',
  'JSONL_UNTERMINATED_TAIL',
  'JSONL_BAD_LINE',
  'JSONL_MERGED_LINE',
  'JSONL_INVALID_UTF8',
  'JSONL_NUL_BYTES',
  'JSONL_BOM',
  'JSONL_CRLF',
  'JSONL_BLANK_LINE',
  'JSONL_DUPLICATE_LINE',
  'JSONL_OVERSIZED_LINE',
] as const;
export type DamageCode = (typeof JSONL_DAMAGE_CODES)[number];

export interface Damage {
  code: DamageCode;
  line: number;
  /** Offset of the damaged line (or of the damage inside it). */
  byteOffset: number;
  byteLength: number;
  /** Human detail: what exactly is wrong, what was recovered. Never contains raw input bytes. */
  detail: string;
  /** For aggregated damage (CRLF, or the overflow of a per-code cap): how many lines it covers. */
  count?: number;
}

export interface JsonlRecord {
  line: number;
  byteOffset: number;
  byteLength: number;
  value: unknown;
  /** Set when the record came out of a damaged line: which damage let us recover it. */
  recovered?: 'merged' | 'nul' | 'bom';
  /** Set when the line is a byte-identical copy of the previous line. */
  duplicateOf?: number;
}

export interface JsonlOptions {
  /** Longest line accepted (bytes, without the newline). Grok's own cap is 64 MiB. */
  maxLineBytes?: number;
  /** Only objects accepted by this predicate are recovered from merged lines (default: any plain object). */
  looksLikeRecord?: (value: unknown) => boolean;
  /** Individual reports per code per file before the rest are summarised in one report. */
  maxReportsPerCode?: number;
}

export interface JsonlStats {
  lines: number;
  records: number;
  bytes: number;
  endsWithNewline: boolean;
}

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const NL = 0x0a;
const CR = 0x0d;

const isPlainObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

export class JsonlScanner {
  private readonly maxLineBytes: number;
  private readonly looksLikeRecord: (value: unknown) => boolean;
  private readonly maxReports: number;

  private pieces: Buffer[] = [];
  private pendingLen = 0;
  private oversized = false;
  private lineStart = 0;
  private lineNo = 0;
  private total = 0;
  private records = 0;
  private prevRaw: Buffer | null = null;
  private prevLine = 0;
  private lastByte = -1;

  private crCount = 0;
  private crFirst: { line: number; offset: number } | null = null;
  private readonly reported = new Map<DamageCode, number>();
  private readonly overflow = new Map<DamageCode, { count: number; last: Damage }>();

  constructor(
    private readonly onRecord: (record: JsonlRecord) => void,
    private readonly onDamage: (damage: Damage) => void,
    options: JsonlOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.looksLikeRecord = options.looksLikeRecord ?? isPlainObject;
    this.maxReports = options.maxReportsPerCode ?? 50;
  }

  /** Feed the next chunk of the file. The caller may reuse the chunk's memory once push returns. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    this.lastByte = chunk[chunk.length - 1]!;
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, pos);
      if (nl === -1) {
        // Whatever is kept past this call is copied out of the caller's buffer.
        this.accumulate(Buffer.from(chunk.subarray(pos)));
        if (this.prevRaw && this.prevRaw.buffer === chunk.buffer) this.prevRaw = Buffer.from(this.prevRaw);
        return;
      }
      const piece = chunk.subarray(pos, nl);
      let bytes: Buffer;
      if (this.pendingLen === 0 && !this.oversized) {
        bytes = piece;
      } else {
        this.accumulate(piece);
        bytes = this.oversized ? Buffer.alloc(0) : Buffer.concat(this.pieces, this.pendingLen);
      }
      const length = this.oversized ? this.pendingLen : bytes.length;
      this.processLine(bytes, length, true);
      this.pieces = [];
      this.pendingLen = 0;
      this.oversized = false;
      pos = nl + 1;
    }
  }

  /** Signal end of file; flushes the unterminated tail and the aggregated reports. */
  end(): JsonlStats {
    if (this.pendingLen > 0 || this.oversized) {
      const bytes = this.oversized ? Buffer.alloc(0) : Buffer.concat(this.pieces, this.pendingLen);
      this.processLine(bytes, this.pendingLen, false);
      this.pieces = [];
      this.pendingLen = 0;
    }
    if (this.crCount > 0 && this.crFirst) {
      this.onDamage({
        code: 'JSONL_CRLF',
        line: this.crFirst.line,
        byteOffset: this.crFirst.offset,
        byteLength: 0,
        count: this.crCount,
        detail: `${this.crCount} line(s) end with CR LF (first at line ${this.crFirst.line}); Grok writes LF only, so the file was rewritten by another tool`,
      });
    }
    for (const [code, { count, last }] of this.overflow) {
      this.onDamage({
        ...last,
        count,
        detail: `${count} more line(s) with the same damage not listed individually (last at line ${last.line})`,
      });
    }
    return {
      lines: this.lineNo,
      records: this.records,
      bytes: this.total,
      endsWithNewline: this.total === 0 || this.lastByte === NL,
    };
  }

  private accumulate(piece: Buffer): void {
    if (piece.length === 0) return;
    if (!this.oversized && this.pendingLen + piece.length > this.maxLineBytes) {
      this.oversized = true;
      this.pieces = [];
    }
    if (!this.oversized) this.pieces.push(piece);
    this.pendingLen += piece.length;
  }

  private damage(d: Damage): void {
    const n = this.reported.get(d.code) ?? 0;
    if (n < this.maxReports) {
      this.reported.set(d.code, n + 1);
      this.onDamage(d);
      return;
    }
    const o = this.overflow.get(d.code);
    if (o) {
      o.count++;
      o.last = d;
    } else this.overflow.set(d.code, { count: 1, last: d });
  }

  private deliver(record: JsonlRecord): void {
    this.records++;
    this.onRecord(record);
  }

  private processLine(raw: Buffer, rawLength: number, terminated: boolean): void {
    const line = ++this.lineNo;
    const offset = this.lineStart;
    this.lineStart += rawLength + (terminated ? 1 : 0);

    if (rawLength > this.maxLineBytes) {
      this.prevRaw = null;
      this.damage({
        code: 'JSONL_OVERSIZED_LINE',
        line,
        byteOffset: offset,
        byteLength: rawLength,
        detail: `line is ${rawLength} bytes, over the ${this.maxLineBytes}-byte cap; skipped to the next newline without parsing${terminated ? '' : ' (the file ends inside it)'}`,
      });
      return;
    }

    let b = raw;
    let start = offset;
    if (terminated && b.length > 0 && b[b.length - 1] === CR) {
      this.crCount++;
      this.crFirst ??= { line, offset };
      b = b.subarray(0, b.length - 1);
    }
    let bom = false;
    if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
      bom = true;
      this.damage({
        code: 'JSONL_BOM',
        line,
        byteOffset: start,
        byteLength: 3,
        detail: `line starts with a UTF-8 byte-order mark; Grok's serde reader rejects such a line, so it would skip this record`,
      });
      b = b.subarray(3);
      start += 3;
    }
    if (isBlank(b)) {
      this.prevRaw = null;
      this.damage({
        code: 'JSONL_BLANK_LINE',
        line,
        byteOffset: offset,
        byteLength: rawLength,
        detail: rawLength === 0 ? 'empty line' : `line holds only whitespace (${rawLength} bytes)`,
      });
      return;
    }

    let duplicateOf: number | undefined;
    if (this.prevRaw && this.prevRaw.length === raw.length && this.prevRaw.equals(raw)) {
      duplicateOf = this.prevLine;
      this.damage({
        code: 'JSONL_DUPLICATE_LINE',
        line,
        byteOffset: offset,
        byteLength: rawLength,
        detail: `byte-identical to line ${this.prevLine} just before it (a double write or two racing writers)`,
      });
    }
    this.prevRaw = raw;
    this.prevLine = line;

    if (b.indexOf(0) !== -1) {
      this.handleNul(b, line, start, terminated);
      return;
    }

    const parsed = parseBytes(b);
    if (parsed.ok) {
      if (!terminated) {
        this.damage({
          code: 'JSONL_UNTERMINATED_TAIL',
          line,
          byteOffset: offset,
          byteLength: rawLength,
          detail: 'the last line is a complete record without its newline (the writer stopped before the newline; the next append will seal it)',
        });
      }
      const record: JsonlRecord = { line, byteOffset: start, byteLength: b.length, value: parsed.value };
      if (bom) record.recovered = 'bom';
      if (duplicateOf !== undefined) record.duplicateOf = duplicateOf;
      this.deliver(record);
      return;
    }

    if (!terminated) {
      this.damage({
        code: 'JSONL_TORN_TAIL',
        line,
        byteOffset: offset,
        byteLength: rawLength,
        detail: `the last line has no newline and does not parse (${parsed.reason}): a record torn by a crash mid-append`,
      });
      return;
    }

    if (this.recoverMerged(b, line, start)) return;

    if (parsed.badUtf8At !== undefined && !parsed.utf8CutAtEnd) {
      this.damage({
        code: 'JSONL_INVALID_UTF8',
        line,
        byteOffset: start + parsed.badUtf8At,
        byteLength: b.length - parsed.badUtf8At,
        detail: `invalid UTF-8 at byte ${parsed.badUtf8At} of the line; Grok skips such a line, so the record is lost`,
      });
      return;
    }
    this.damage({
      code: 'JSONL_BAD_LINE',
      line,
      byteOffset: offset,
      byteLength: rawLength,
      detail: `line does not parse (${parsed.reason}) but later lines do: a torn record sealed by the next append, or a foreign write`,
    });
  }

  /** A line holding a partial record with the next record glued on: recover the trailing complete record. */
  private recoverMerged(b: Buffer, line: number, start: number): boolean {
    const p = trailingObjectStart(b);
    if (p <= 0) return false;
    const before = prevNonSpace(b, p);
    if (before === 0x3a /* : */ || before === 0x2c /* , */ || before === 0x5b /* [ */) return false;
    const tail = parseBytes(b.subarray(p));
    if (!tail.ok || !this.looksLikeRecord(tail.value)) return false;
    const prefix = b.subarray(0, p);
    const head = parseBytes(prefix);
    const headOk = head.ok && this.looksLikeRecord(head.value);
    const cutUtf8 = !head.ok && head.badUtf8At !== undefined;
    this.damage({
      code: 'JSONL_MERGED_LINE',
      line,
      byteOffset: start,
      byteLength: b.length,
      detail: headOk
        ? `two complete records on one line (the second starts at byte ${p} of the line); both recovered`
        : `the first ${p} bytes are a partial record${cutUtf8 ? ' (torn inside a UTF-8 character)' : ''} with the next record glued on at byte ${p}; the trailing record was recovered, the partial one is lost`,
    });
    if (headOk && head.ok) this.deliver({ line, byteOffset: start, byteLength: p, value: head.value, recovered: 'merged' });
    this.deliver({ line, byteOffset: start + p, byteLength: b.length - p, value: tail.value, recovered: 'merged' });
    return true;
  }

  /** A zero-filled region inside (or as) a line: report it once, recover every segment that parses. */
  private handleNul(b: Buffer, line: number, start: number, terminated: boolean): void {
    let nulCount = 0;
    let firstNul = -1;
    let lastNul = -1;
    const segments: Array<[number, number]> = [];
    let segStart = 0;
    for (let i = 0; i < b.length; i++) {
      if (b[i] === 0) {
        nulCount++;
        if (firstNul === -1) firstNul = i;
        lastNul = i;
        if (i > segStart) segments.push([segStart, i]);
        segStart = i + 1;
      }
    }
    if (segStart < b.length) segments.push([segStart, b.length]);
    const recovered: JsonlRecord[] = [];
    let lost = 0;
    for (const [s, e] of segments) {
      const seg = b.subarray(s, e);
      if (isBlank(seg)) continue;
      const r = parseBytes(seg);
      if (r.ok && this.looksLikeRecord(r.value)) {
        recovered.push({ line, byteOffset: start + s, byteLength: e - s, value: r.value, recovered: 'nul' });
      } else lost++;
    }
    const parts = [`${nulCount} NUL byte(s) from byte ${firstNul} to ${lastNul} of the line (a zero-filled region, typically blocks allocated but never written before a crash)`];
    if (recovered.length) parts.push(`${recovered.length} complete record(s) around the zeros recovered`);
    if (lost) parts.push(`${lost} fragment(s) around the zeros do not parse and are lost`);
    if (!terminated) parts.push('the file ends inside this region');
    this.damage({
      code: 'JSONL_NUL_BYTES',
      line,
      byteOffset: start + firstNul,
      byteLength: lastNul - firstNul + 1,
      detail: parts.join('; '),
    });
    for (const r of recovered) this.deliver(r);
  }
}

function isBlank(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== CR) return false;
  }
  return true;
}

function prevNonSpace(b: Buffer, p: number): number {
  for (let i = p - 1; i >= 0; i--) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x09 && c !== CR) return c;
  }
  return -1;
}

type ParseResult =
  | { ok: true; value: unknown }
  | { ok: false; reason: string; badUtf8At?: number; utf8CutAtEnd?: boolean };

/** Strict UTF-8 then JSON.parse. Never throws. */
export function parseBytes(b: Buffer): ParseResult {
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
  try {
    return { ok: true, value: JSON.parse(b.toString('utf8')) };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? shortJsonError(e.message) : 'not JSON' };
  }
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
