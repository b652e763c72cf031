/**
 * Where a bag made by `bundle --from-store` came from: the capture it was written out from (its number, run,
 * status, the sha256 of its record and whether that record is signed), the chain's end when it was exported, and
 * what the store recorded of that session (every rewrite and missing log its captures found, every deletion). Kept
 * in bag-info.txt as `X-Store-*` tags and in the custody statement's predicate (`provenance`).
 */
import type { BagInfo } from './bagit.js';

export interface StoreFindingOfSession {
  /** The capture that recorded it. */
  seq: number;
  code: string;
  file: string;
  line?: number;
  message: string;
}

export interface StoreProvenance {
  /** The store directory as given to --from-store. */
  store: string;
  capture: number;
  /** When the run that made the capture started (ISO 8601). */
  run: string;
  status: string;
  sessionKey: string;
  /** sha256 of the capture record's file, as the chain names it. */
  recordSha256: string;
  recordSigned: boolean;
  /** The last record of the chain when the bag was made. */
  chainHead: { seq: number; sha256: string };
  /** The store's findings on the session, from every capture of it (before and after the one exported). */
  findings: StoreFindingOfSession[];
  /** The captures that recorded the session deleted. */
  deletions: number[];
}

const where = (f: StoreFindingOfSession): string => `${f.file}${f.line !== undefined ? `:${f.line}` : ''}`;

/** The `X-Store-*` tags of bag-info.txt (custom tags: RFC 8493 §2.2.2 allows any label). */
export function provenanceTags(p: StoreProvenance): BagInfo {
  const findings: BagInfo = p.findings.map((f) => [
    'X-Store-Finding',
    `capture ${f.seq}: ${f.code} ${where(f)}: ${f.message}`,
  ]);
  return [
    ['X-Store', p.store],
    ['X-Store-Capture', String(p.capture)],
    ['X-Store-Capture-Run', p.run],
    ['X-Store-Capture-Status', p.status],
    ['X-Store-Session-Key', p.sessionKey],
    ['X-Store-Record-SHA256', p.recordSha256],
    ['X-Store-Record-Signed', p.recordSigned ? 'yes' : 'no'],
    ['X-Store-Chain-Head', `record ${p.chainHead.seq}, sha256 ${p.chainHead.sha256}`],
    ...(findings.length ? findings : [['X-Store-Findings', 'none'] as [string, string]]),
    ...p.deletions.map((seq): [string, string] => ['X-Store-Deleted', `capture ${seq} recorded the session deleted`]),
  ];
}

/** The custody statement's `provenance`: the same facts, every text of the session passed through `said`. */
export function provenancePredicate(p: StoreProvenance, said: (s: string) => string): Record<string, unknown> {
  return {
    from: 'store',
    store: said(p.store),
    capture: p.capture,
    run: p.run,
    status: p.status,
    sessionKey: p.sessionKey,
    record: { sha256: p.recordSha256, signed: p.recordSigned },
    chainHead: p.chainHead,
    findings: p.findings.map((f) => ({ ...f, file: said(f.file), message: said(f.message) })),
    deletions: p.deletions,
  };
}
