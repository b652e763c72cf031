/** The audit report from per-session results, in a deterministic order; and whether it fails a gate. */
import { SEVERITY_RANK, type FailOn } from '../model/finding.js';
import { byteOrder } from '../model/order.js';
import type { AuditReport, SessionReport, ToolError } from '../model/report.js';
import type { Finding } from '../model/finding.js';
import { TOOL_VERSION } from '../version.js';
import { compareFindings, countBySeverity } from '../checks/findings.js';

export interface SessionResult {
  session: SessionReport;
  findings: Finding[];
  toolErrors: ToolError[];
  /** Findings left out by an ignore, by code. */
  ignored?: Record<string, number>;
}

export function buildReport(results: readonly SessionResult[], command: AuditReport['command']): AuditReport {
  const sorted = [...results].sort((a, b) => byteOrder(a.session.path, b.session.path));
  for (const r of sorted) {
    r.findings.sort(compareFindings);
    r.session.findings = countBySeverity(r.findings);
  }
  const findings = sorted.flatMap((r) => r.findings);
  const byCode: Record<string, number> = {};
  for (const f of findings) byCode[f.code] = (byCode[f.code] ?? 0) + 1;
  const files = sorted.reduce((n, r) => n + r.session.files.filter((f) => f.type === 'file').length, 0);
  const bytes = sorted.reduce((n, r) => n + r.session.files.reduce((m, f) => m + (f.size ?? 0), 0), 0);
  const homes = sorted.filter((r) => r.session.kind === 'home').length;
  return {
    tool: { name: 'session-audit', version: TOOL_VERSION },
    reportVersion: 1,
    command,
    summary: {
      sessions: sorted.length - homes,
      ...(homes ? { homes } : {}),
      files,
      bytes,
      findings: countBySeverity(findings),
      byCode: Object.fromEntries(Object.entries(byCode).sort(([a], [b]) => byteOrder(a, b))),
    },
    sessions: sorted.map((r) => r.session),
    findings,
    toolErrors: sorted.flatMap((r) => r.toolErrors),
  };
}

/** True when some finding is at or above the threshold. */
export function fails(findings: readonly Finding[], failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  const limit = SEVERITY_RANK[failOn];
  return findings.some((f) => SEVERITY_RANK[f.severity] <= limit);
}
