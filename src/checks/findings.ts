/**
 * The one place a finding is built: a code, a severity (the code's default, the check's evidence-based choice, or
 * the user's override), a message, a clean location, and a fingerprint that identifies it across runs.
 */
import { createHash } from 'node:crypto';
import type { CodeInfo, Finding, Location, Severity } from '../model/finding.js';
import { byteOrder } from '../model/order.js';

export function fingerprint(code: string, session: string, loc: Location, key = ''): string {
  const h = createHash('sha256');
  h.update([code, session, loc.file, loc.line ?? '', loc.pointer ?? '', key].join('\u0000'));
  return h.digest('hex').slice(0, 32);
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
    fingerprint: fingerprint(i.code, i.session.id, location, i.key),
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
  return makeFinding(key === undefined ? base : { ...base, key });
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
