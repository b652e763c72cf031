/**
 * The check of `verify --store` that looks beyond one record: a record's claims about its session's previous record
 * (head.json against the chain's end is head.ts). StoreProblem is what every check of the store reports.
 */
import type { BundleCode } from '../checks/bundle-codes.js';
import type { StoreCode } from '../checks/store-codes.js';
import { filesAs, type CaptureRecord } from './record.js';

export interface StoreProblem {
  code: BundleCode | StoreCode;
  severity?: 'error' | 'warning' | 'note';
  /** Relative to the store: the record, object or file the problem is in. */
  place: string;
  message: string;
}

/**
 * A record's claims about its predecessor, re-checked: it names the session's previous record, the capture it was
 * compared with (`basis`, when not that one) is of the same session or of the same agent and id, and each log it says
 * grew from N bytes starts with the very pieces of the compared version, which were N bytes (pieces are named by
 * their digest and re-hashed by verify.ts, so equal piece lists are equal bytes: the proof that the log only grew).
 */
export function checkGrowth(
  record: CaptureRecord,
  before: CaptureRecord | undefined,
  bySeq: ReadonlyMap<number, CaptureRecord>,
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
  let against = before;
  if (record.basis !== undefined) {
    against = bySeq.get(record.basis);
    const same =
      against !== undefined &&
      against.seq < record.seq &&
      (against.session.key === record.session.key ||
        (against.session.format === record.session.format && against.session.id === record.session.id));
    if (!same) {
      problems.push({
        code: 'BUNDLE_INVALID',
        place,
        message: `says it was compared with capture ${record.basis}, which is not an earlier capture of this session`,
      });
      return;
    }
  }
  const then = against ? filesAs(against, record.session) : [];
  for (const [path, size] of Object.entries(record.grewFrom ?? {})) {
    const now = record.files.find((f) => f.path === path);
    const was = then.find((f) => f.path === path);
    const prefix =
      now?.pieces !== undefined &&
      was?.pieces !== undefined &&
      was.size === size &&
      now.size >= size &&
      was.pieces.every((p, i) => now.pieces![i] === p);
    if (!prefix)
      problems.push({
        code: 'BUNDLE_INVALID',
        place: `${place}: ${path}`,
        message: `says the log grew from the previous capture's ${size} bytes, but the stored versions do not show it`,
      });
  }
}
