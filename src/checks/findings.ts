/**
 * The one place a finding is built: a code, a severity (the code's default, the check's evidence-based choice, or
 * the user's override), a message, a clean location, and a fingerprint that identifies it across runs.
 *
 * Fingerprints (version 2) survive lines inserted above a finding: they hash the code, the session, the file, the
 * JSON pointer and the check's key (`identityOf`, when the finding is made), then a digest of the bytes the finding
 * points at (the record's line, read back once the session is audited) and the finding's occurrence among those
 * identical so far (`finishFingerprints`). No line number or byte offset goes in. Version 1 hashed the line
 * number; an old baseline is matched by place instead (report/baseline.ts).
 */
import { createHash } from 'node:crypto';
import type { CodeInfo, Finding, Location, Severity } from '../model/finding.js';
import { byteOrder } from '../model/order.js';

export const FINGERPRINT_VERSION = 2;

const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

/** The part of a fingerprint known when the finding is made: what it is and where, without line or offset. */
export function identityOf(code: string, session: string, loc: Location, key = ''): string {
  return sha([code, session, loc.file, loc.pointer ?? '', key].join('\u0000')).slice(0, 32);
}

/** The digest of the bytes a finding points at, as `finishFingerprints` takes it. */
export const bytesDigest = (bytes: Buffer): string => sha(bytes).slice(0, 32);

/**
 * Final fingerprints for one batch of findings (one session's, or what the root checks added to it), in report
 * order: each identity (as `makeFinding` left it) joined with the digest of its bytes, when there are any, and its
 * occurrence among findings with the same identity and digest.
 */
export function finishFingerprints(findings: readonly Finding[], digestOf: (f: Finding) => string | undefined): void {
  const seen = new Map<string, number>();
  for (const f of [...findings].sort(compareFindings)) {
    const base = `${f.fingerprint}\u0000${digestOf(f) ?? ''}`;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    f.fingerprint = sha(`v2\u0000${base}\u0000${n}`).slice(0, 32);
  }
}

/** A location with only the fields that are set, in a fixed order (deterministic JSON). */
export function cleanLocation(l: Location): Location {
  const out: Location = { file: l.file };
  if (l.line !== undefined) out.line = l.line;
  if (l.byteOffset !== undefined) out.byteOffset = l.byteOffset;
  if (l.byteLength !== undefined) out.byteLength = l.byteLength;
  if (l.pointer !== undefined) out.pointer = l.pointer;
  return out;
}

export interface FindingInput {
  code: string;
  /** The code's catalog entry (its default severity). */
  info: Pick<CodeInfo, 'severity'>;
  check: string;
  session: { id: string; path: string };
  location: Location;
  message: string;
  /** The check's choice of severity for this finding, and the key that tells apart findings at one place. */
  severity?: Severity;
  key?: string;
  /** The user's per-code overrides (win over everything). */
  overrides?: ReadonlyMap<string, Severity>;
}

export function makeFinding(i: FindingInput): Finding {
  const location = cleanLocation(i.location);
  return {
    code: i.code,
    severity: i.overrides?.get(i.code) ?? i.severity ?? i.info.severity,
    message: i.message,
    check: i.check,
    session: i.session.id,
    sessionPath: i.session.path,
    location,
    fingerprint: identityOf(i.code, i.session.id, location, i.key),
  };
}

/** A finding outside a session audit (bundle verification): the same shape, fingerprint and ordering. */
export function standaloneFinding(
  check: string,
  code: string,
  severity: Severity,
  session: string,
  sessionPath: string,
  location: Location,
  message: string,
  key?: string,
): Finding {
  const base = { code, info: { severity }, check, session: { id: session, path: sessionPath }, location, message };
  const f = makeFinding(key === undefined ? base : { ...base, key });
  // A bag is verified as it is: its findings are told apart by place (nothing baselines them).
  finishFingerprints([f], (x) => `${x.location.line ?? ''}@${x.location.byteOffset ?? ''}`);
  return f;
}

export function compareFindings(a: Finding, b: Finding): number {
  return (
    byteOrder(a.sessionPath, b.sessionPath) ||
    byteOrder(a.location.file, b.location.file) ||
    (a.location.byteOffset ?? -1) - (b.location.byteOffset ?? -1) ||
    (a.location.line ?? 0) - (b.location.line ?? 0) ||
    byteOrder(a.code, b.code) ||
    byteOrder(a.location.pointer ?? '', b.location.pointer ?? '') ||
    byteOrder(a.message, b.message)
  );
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const c: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}
