/** STORE_*: what `verify --store` (and `archive`, `search`) find about the evidence store itself. */
import type { CodeInfo } from '../model/finding.js';

export const STORE_CODES = {
  STORE_GAP: {
    severity: 'error',
    title: 'Capture records are missing from the end of the chain',
    help:
      'head.json names a later record than the chain holds, names a record that no longer hashes as it did, or is ' +
      'missing: records were removed or altered after they were written (by hand, by a restore from an older ' +
      'backup, or by someone hiding what was captured). `archive` refuses to build on such a chain until a person ' +
      'acknowledges it (`archive --acknowledge-gap "why"`), which writes a gap record naming what is missing; ' +
      'from then on the gap is reported as a warning that names who acknowledged it and why, for good.',
  },
  STORE_UNPROTECTED: {
    severity: 'warning',
    title: 'Others than its owner could have written the store',
    help:
      'The store directory, or one of its own entries, is writable by its group or by every user, or is owned by ' +
      'another user than the store directory: any of them could have rewritten it. An unsigned chain proves nothing ' +
      'against someone who can write it; a signed one still proves what its signatures cover. `archive` refuses to ' +
      'write such a store.',
  },
  STORE_EMPTY: {
    severity: 'warning',
    title: 'The store holds no capture record',
    help:
      'A new store, or one emptied: nothing is proven. A store whose records were all removed cannot be told from a ' +
      'new one unless its head is signed and the key is given.',
  },
  STORE_ORPHAN_OBJECT: {
    severity: 'note',
    title: 'Stored pieces that no capture record names',
    help:
      'Objects under objects/ that no record uses: a run killed after writing pieces and before their record, a ' +
      'session that kept changing while it was read (left for the next run), or records that were removed.',
  },
  STORE_INDEX_MISMATCH: {
    severity: 'warning',
    title: 'The search index disagrees with the capture records',
    help:
      'index.sqlite is derived from the records: it lacks captures the chain holds (a run killed while indexing, one ' +
      'indexing now), holds captures the chain does not, records another hash for one, or has rows whose digest does ' +
      'not match their contents (edited). `search` refuses a stale index unless `--allow-stale`; `archive --reindex` ' +
      'rebuilds it from the records, which are the evidence.',
  },
} as const satisfies Record<string, CodeInfo>;

export type StoreCode = keyof typeof STORE_CODES;
