/**
 * Each indexed row's digest: 16 hex digits of the sha256 of its columns, in the order below, written with the row
 * and recomputed by `verify --store` (verify-index.ts), so a row edited in place (with sqlite3, say) without its
 * digest shows. It is no signature: whoever edits a row can recompute it; the records are the evidence and
 * `archive --reindex` rebuilds the index from them. For events and tool calls it is also what tells a line (a call
 * status) already indexed from one that is new (the tables' UNIQUE keys).
 */
import { createHash } from 'node:crypto';

export type Cell = string | number | null | undefined;

export const DIGESTED = {
  events: [
    'file',
    'line',
    'byte',
    'time',
    'kind',
    'tag',
    'tool_call_id',
    'tool_status',
    'rewound',
    'compacted',
    'text',
  ],
  tool_calls: ['call_id', 'name', 'kind', 'arguments', 'status', 'may_mutate', 'prompt_index', 'file', 'line', 'byte'],
  findings: ['code', 'severity', 'file', 'line', 'byte', 'message', 'fingerprint'],
} as const;

export type DigestedTable = keyof typeof DIGESTED;

/**
 * What makes an event the same line in two captures (`events.line_key`): its columns but the flags a later line
 * sets (rewound, compacted), so a line is one row however many captures hold it, its flags those of the latest.
 */
export const LINE_KEYED = [
  'file',
  'line',
  'byte',
  'time',
  'kind',
  'tag',
  'tool_call_id',
  'tool_status',
  'text',
] as const;

/** The digest of a row from its cells, in DIGESTED's order. */
export const rowDigest = (cells: readonly Cell[]): string =>
  createHash('sha256')
    .update(
      cells
        .map((p) => (p === null || p === undefined ? '\u0000n' : `${typeof p === 'number' ? 'i' : 's'}${p}`))
        .join('\u0000'),
    )
    .digest('hex')
    .slice(0, 16);
