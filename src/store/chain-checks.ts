/**
 * The checks of `verify --store` that look beyond one record: head.json against the chain of records, and a
 * record's claims about its session's previous record. StoreProblem is what every check of the store reports.
 */
import type { BundleCode } from '../checks/bundle-codes.js';
import { readWholeFile } from '../read/files.js';
import { ReadError } from '../read/open-regular.js';
import { headFile } from './layout.js';
import type { CaptureRecord } from './record.js';

export interface StoreProblem {
  code: BundleCode;
  severity?: 'error' | 'warning' | 'note';
  /** Relative to the store: the record, object or file the problem is in. */
  place: string;
  message: string;
}

/** head.json against the records: the last record was not edited, and none after it was removed. */
export function checkHead(
  store: string,
  hashes: ReadonlyMap<number, { hash: string; place: string }>,
  last: number,
  problems: StoreProblem[],
): void {
  let head: { seq?: unknown; sha256?: unknown } | undefined;
  try {
    head = JSON.parse(readWholeFile(headFile(store), 4096, true).bytes.toString('utf8')) as typeof head;
  } catch (e) {
    if (e instanceof ReadError && e.reason === 'ENOENT') head = undefined;
    else {
      problems.push({
        code: 'BUNDLE_INVALID',
        place: 'head.json',
        message: `cannot be read (${(e as Error).message})`,
      });
      return;
    }
  }
  if (!head) {
    if (last > 0)
      problems.push({
        code: 'BUNDLE_FILE_MISSING',
        place: 'head.json',
        message: 'missing: an edit of the last capture record cannot be detected',
      });
    return;
  }
  const seq = Number(head.seq);
  const at = hashes.get(seq);
  if (seq > last)
    problems.push({
      code: 'BUNDLE_FILE_MISSING',
      place: 'head.json',
      message: `names capture ${seq} as the last, but the records end at ${last}: records were removed`,
    });
  else if (seq > 0 && (!at || at.hash !== head.sha256))
    problems.push({
      code: 'BUNDLE_MANIFEST_MISMATCH',
      place: at?.place ?? 'head.json',
      message:
        `hashes to ${at?.hash ?? 'nothing'}, but head.json recorded ${String(head.sha256)}: ` +
        'edited after it was written',
    });
  else if (seq < last)
    problems.push({
      code: 'BUNDLE_UNVERIFIED',
      severity: 'warning',
      place: 'head.json',
      message:
        `names capture ${seq}, the records go on to ${last}: a run was stopped between writing a record and the ` +
        'head (the next run catches up), so the last records are covered by the chain only',
    });
}

/**
 * A record's claims about its predecessor, re-checked: it names the session's previous record, and each log it says
 * grew from N bytes starts with the very pieces of the previous version, which were N bytes (pieces are named by
 * their digest and re-hashed by verify.ts, so equal piece lists are equal bytes: the proof that the log only grew).
 */
export function checkGrowth(
  record: CaptureRecord,
  before: CaptureRecord | undefined,
  place: string,
  problems: StoreProblem[],
): void {
  if ((record.previous ?? null) !== (before?.seq ?? null))
    problems.push({
      code: 'BUNDLE_INVALID',
      place,
      message:
        `names capture ${record.previous ?? 'none'} as the session's previous one, but it is ` +
        `${before?.seq ?? 'none'}`,
    });
  for (const [path, size] of Object.entries(record.grewFrom ?? {})) {
    const now = record.files.find((f) => f.path === path);
    const then = before?.files.find((f) => f.path === path);
    const prefix =
      now?.pieces !== undefined &&
      then?.pieces !== undefined &&
      then.size === size &&
      now.size >= size &&
      then.pieces.every((p, i) => now.pieces![i] === p);
    if (!prefix)
      problems.push({
        code: 'BUNDLE_INVALID',
        place: `${place}: ${path}`,
        message: `says the log grew from the previous capture's ${size} bytes, but the stored versions do not show it`,
      });
  }
}
