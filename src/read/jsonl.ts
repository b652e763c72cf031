/**
 * The tolerant JSONL reader (DESIGN §4): bytes in, records with exact positions and classified damage out.
 *
 * Push-based and pure: the caller feeds chunks (of any size) and receives callbacks, so the same code serves
 * files of any length with memory bounded by the longest accepted line (capped by `maxLineBytes`).
 * Lines are split on 0x0A only; every line keeps its 1-based number, byte offset and byte length; UTF-8 is
 * decoded strictly; nothing is skipped without a damage report, and no record is invented: a record is
 * delivered only if its exact bytes parse as JSON.
 */
import {
  DEFAULT_MAX_LINE_BYTES,
  type Damage,
  type DamageCode,
  type JsonlOptions,
  type JsonlRecord,
  type JsonlStats,
} from '../model/records.js';
import { isBlank, parseBytes, prevNonSpace, trailingObjectStart } from './json-bytes.js';

const NL = 0x0a;
const CR = 0x0d;

const isPlainObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

export class JsonlScanner {
  private readonly maxLineBytes: number;
  private readonly looksLikeRecord: (value: unknown) => boolean;
  private readonly maxReports: number;
  /** Whether records are searched for repeated keys (JsonlOptions.duplicateKeys). */
  private readonly keys: boolean;
  private readonly select: JsonlOptions['select'];

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
    this.keys = options.duplicateKeys ?? true;
    this.select = options.select;
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
        detail: `${this.crCount} line(s) end with CR LF (first at line ${this.crFirst.line})`,
      });
    }
    for (const [_code, { count, last }] of this.overflow) {
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
        detail:
          `line is ${rawLength} bytes, over the ${this.maxLineBytes}-byte cap; skipped to the next newline ` +
          `without parsing${terminated ? '' : ' (the file ends inside it)'}`,
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
        detail: 'line starts with a UTF-8 byte-order mark',
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
    if (this.select && !this.select(offset, raw)) return;

    if (b.indexOf(0) !== -1) {
      this.handleNul(b, line, start, terminated);
      return;
    }

    const parsed = parseBytes(b, this.keys);
    if (parsed.ok) {
      if (!terminated) {
        this.damage({
          code: 'JSONL_UNTERMINATED_TAIL',
          line,
          byteOffset: offset,
          byteLength: rawLength,
          detail:
            'the last line is a complete record without its newline (the writer stopped before the newline; the ' +
            'next append will seal it)',
        });
      }
      const record: JsonlRecord = { line, byteOffset: start, byteLength: b.length, value: parsed.value };
      if (bom) record.recovered = 'bom';
      if (parsed.duplicateKey) record.duplicateKey = parsed.duplicateKey;
      if (duplicateOf !== undefined) record.duplicateOf = duplicateOf;
      this.deliver(record);
      return;
    }

    if (parsed.tooDeep) {
      this.damage({
        code: 'JSONL_TOO_DEEP',
        line,
        byteOffset: offset,
        byteLength: rawLength,
        detail: `line is ${parsed.reason}${terminated ? '' : ' (the file ends inside it)'}; not parsed`,
      });
      return;
    }

    if (!terminated) {
      this.damage({
        code: 'JSONL_TORN_TAIL',
        line,
        byteOffset: offset,
        byteLength: rawLength,
        detail:
          `the last line has no newline and does not parse (${parsed.reason}): a record torn by a crash ` +
          `mid-append`,
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
        detail: `invalid UTF-8 at byte ${parsed.badUtf8At} of the line`,
      });
      return;
    }
    this.damage({
      code: 'JSONL_BAD_LINE',
      line,
      byteOffset: offset,
      byteLength: rawLength,
      detail:
        `line does not parse (${parsed.reason}) but later lines do: a torn record sealed by the next append, ` +
        `or a foreign write`,
    });
  }

  /**
   * A line holding records glued together (a writer that appends without a leading newline after a line that lost
   * its own): recover every complete record, peeled from the end, and say whether the first bytes are a complete
   * record too or a partial one (lost).
   */
  private recoverMerged(b: Buffer, line: number, start: number): boolean {
    const tails: Array<{ at: number; end: number; value: unknown }> = [];
    let end = b.length;
    let headOk = false;
    let cutUtf8 = false;
    let headValue: unknown;
    for (;;) {
      const rest = b.subarray(0, end);
      const p = trailingObjectStart(rest);
      if (p <= 0) break;
      const before = prevNonSpace(rest, p);
      if (before === 0x3a /* : */ || before === 0x2c /* , */ || before === 0x5b /* [ */) break;
      const tail = parseBytes(b.subarray(p, end), this.keys);
      if (!tail.ok || !this.looksLikeRecord(tail.value)) break;
      tails.unshift({ at: p, end, value: tail.value });
      end = p;
      const head = parseBytes(b.subarray(0, end), this.keys);
      headOk = head.ok && this.looksLikeRecord(head.value);
      cutUtf8 = !head.ok && head.badUtf8At !== undefined;
      if (headOk && head.ok) {
        headValue = head.value;
        break;
      }
    }
    if (!tails.length) return false;
    const p = tails[0]!.at;
    const starts = tails.map((t) => t.at).join(', ');
    let detail: string;
    if (tails.length === 1)
      detail = headOk
        ? `two complete records on one line (the second starts at byte ${p} of the line); both recovered`
        : `the first ${p} bytes are a partial record${cutUtf8 ? ' (torn inside a UTF-8 character)' : ''} with the ` +
          `next record glued on at byte ${p}; the trailing record was recovered, the partial one is lost`;
    else
      detail = headOk
        ? `${tails.length + 1} complete records on one line (the others start at bytes ${starts} of the line); all ` +
          'recovered'
        : `the first ${p} bytes are a partial record${cutUtf8 ? ' (torn inside a UTF-8 character)' : ''} with ` +
          `${tails.length} complete records glued on (at bytes ${starts}); those were recovered, the partial one ` +
          'is lost';
    this.damage({ code: 'JSONL_MERGED_LINE', line, byteOffset: start, byteLength: b.length, detail });
    if (headOk) this.deliver({ line, byteOffset: start, byteLength: p, value: headValue, recovered: 'merged' });
    for (const t of tails)
      this.deliver({ line, byteOffset: start + t.at, byteLength: t.end - t.at, value: t.value, recovered: 'merged' });
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
      const r = parseBytes(seg, this.keys);
      if (r.ok && this.looksLikeRecord(r.value)) {
        recovered.push({ line, byteOffset: start + s, byteLength: e - s, value: r.value, recovered: 'nul' });
      } else lost++;
    }
    const parts = [
      `${nulCount} NUL byte(s) from byte ${firstNul} to ${lastNul} of the line (a zero-filled region, typically ` +
        `blocks allocated but never written before a crash)`,
    ];
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
