/**
 * Each indexed row's digest: the first 8 bytes of the sha256 of its columns, in the order below (paths and kinds
 * spelled out, as the `*_rows` views show them), and for an event its flags after them, written with the row and
 * recomputed by `verify --store` (verify-index.ts), so a row edited in place (with sqlite3, say) without its digest
 * shows. It is no signature: whoever edits a row can recompute it; the records are the evidence and `archive
 * --reindex` rebuilds the index from them. An event's hash without its flags is its line's key: what tells a line
 * already indexed from one that is new (update.ts); for tool calls, the digest tells a call's status already
 * indexed from a new one (the table's UNIQUE key).
 */
import * as crypto from 'node:crypto';

export type Cell = string | number | null | undefined;

export const DIGESTED = {
  events: ['file', 'line', 'byte', 'time_ms', 'kind', 'tag', 'tool_call_id', 'tool_status', 'text'],
  tool_calls: ['call_id', 'name', 'kind', 'arguments', 'status', 'may_mutate', 'prompt_index', 'file', 'line', 'byte'],
  findings: ['code', 'severity', 'file', 'line', 'byte', 'message', 'fingerprint'],
} as const;

export type DigestedTable = keyof typeof DIGESTED;

/** Where each table's rows are read with their columns spelled out (schema.ts). */
export const ROWS_VIEW: Readonly<Record<DigestedTable, string>> = {
  events: 'event_rows',
  tool_calls: 'tool_call_rows',
  findings: 'finding_rows',
};

/** An event's flags (`events.flags`): what later lines say of it. */
export const REWOUND = 1;
export const COMPACTED = 2;

/** Node 20.12 and later hash a short input in one call, without a Hash object; hex out is its fast path. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const sha256Hex = oneShot
  ? (s: string): string => oneShot('sha256', s, 'hex')
  : (s: string): string => crypto.createHash('sha256').update(s).digest('hex');

/** The first 16 hex digits of the sha256 of a row's cells, in DIGESTED's order. */
export const cellsHash = (cells: readonly Cell[]): string => {
  let s = '';
  for (let i = 0; i < cells.length; i++) {
    const p = cells[i];
    if (i) s += '\u0000';
    s += p === null || p === undefined ? '\u0000n' : `${typeof p === 'number' ? 'i' : 's'}${p}`;
  }
  return sha256Hex(s).slice(0, 16);
};

/** The digest of a tool call's or a finding's row from its cells, in DIGESTED's order: 8 bytes. */
export const rowDigest = (cells: readonly Cell[]): Buffer => Buffer.from(cellsHash(cells), 'hex');

/**
 * An event's digest: the 8 bytes of its line's hash (`lineHash`: every column but the flags, in DIGESTED.events'
 * order), then its flags, one byte. The line's hash alone is its key: a line is one row however many captures hold
 * it, its flags those of the latest.
 */
export const eventDigest = (lineHash: string, flags: number): Buffer => {
  const b = Buffer.alloc(9);
  b.write(lineHash, 'hex');
  b[8] = flags;
  return b;
};
