/**
 * What the tolerant JSONL reader hands on: records with their exact place in the file, and classified damage
 * (DESIGN §4). Shared vocabulary of the reader, the formats, the checks and the reports.
 */

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
  'JSONL_TOO_DEEP',
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
  /** Set when one object of the record repeats a key (JSON.parse kept the last value; other parsers differ). */
  duplicateKey?: { key: string; pointer: string };
}

export interface JsonlOptions {
  /** Longest line accepted (bytes, without the newline); default DEFAULT_MAX_LINE_BYTES. */
  maxLineBytes?: number;
  /** Only objects accepted by this predicate are recovered from merged lines (default: any plain object). */
  looksLikeRecord?: (value: unknown) => boolean;
  /** Individual reports per code per file before the rest are summarised in one report. */
  maxReportsPerCode?: number;
  /**
   * Look for repeated keys in each record (`JsonlRecord.duplicateKey`; default true). A reader whose consumers do
   * not use them (the second thread of a large log) skips the search: the records, lines and damage are the same.
   */
  duplicateKeys?: boolean;
  /**
   * Parse only the lines this accepts (given the line's byte offset and its bytes, CR and BOM included): the others
   * are counted in `lines` and give neither a record nor damage past a blank or oversized line's. For a reader that
   * needs some lines alone (the secret scan of a large log's second thread: secrets/raw-literals.ts names them).
   */
  select?: (byteOffset: number, bytes: Buffer) => boolean;
}

export interface JsonlStats {
  lines: number;
  records: number;
  bytes: number;
  endsWithNewline: boolean;
}

/**
 * The deepest nesting of arrays and objects any reader of evidence JSON accepts (read/json-depth.ts; README,
 * "Limits"): deeper text is a finding and is never parsed, so that no recursive walker meets it.
 */
export const MAX_JSON_DEPTH = 512;

/** Longest line parsed by default (bytes, without the newline): 64 MiB, the cap agents themselves use. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;
