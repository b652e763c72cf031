/** The I/O glue of audit/validate: find sessions under the given paths, open them read-only, audit each. */
import { auditSession, buildReport, type AuditOptions, type SessionResult } from '../audit.js';
import { detectAny, formatFor } from '../formats/registry.js';
import type { AuditReport } from '../model/report.js';
import { discoverSessions, UsageError, type FoundSession } from '../read/discover.js';
import { fsSource } from '../read/source.js';
import { listDir } from '../read/walk.js';

export function findSessions(paths: readonly string[]): FoundSession[] {
  const seen = new Set<string>();
  const out: FoundSession[] = [];
  for (const p of paths) {
    const found = discoverSessions(p, detectAny);
    if (found.length === 0) {
      throw new UsageError(`${p}: no session found (expected a session directory with summary.json or updates.jsonl, a cwd group, or a sessions root)`);
    }
    for (const s of found) {
      if (seen.has(s.abs)) continue;
      seen.add(s.abs);
      out.push(s);
    }
  }
  return out;
}

/** Audit every session found under the paths (per-session results, unordered). */
export function auditPaths(paths: readonly string[], options: AuditOptions): SessionResult[] {
  return findSessions(paths).map((found) => {
    const source = fsSource(found);
    return auditSession(source, formatFor(found.symlinkTarget !== undefined ? [] : listDir(found.abs).names), options);
  });
}

export function runAudit(paths: readonly string[], options: AuditOptions): AuditReport {
  return buildReport(auditPaths(paths, options), options);
}
