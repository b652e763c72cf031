/**
 * Baselines: findings already known (an earlier JSON report, matched by fingerprint) are suppressed; the report
 * says how many, and which baseline entries no longer occur (fixed, or the evidence changed).
 */
import { z } from 'zod';
import { SEVERITIES, type Finding, type Severity } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import { byteOrder } from '../model/order.js';

/** What a baseline file must hold: findings with fingerprints (a session-audit JSON report). */
const BaselineFile = z.object({
  findings: z.array(
    z.looseObject({
      fingerprint: z.string().min(1),
      code: z.string(),
      session: z.string().optional(),
      sessionPath: z.string().optional(),
      severity: z.enum(SEVERITIES).optional(),
      location: z.looseObject({ file: z.string(), line: z.number().optional() }).optional(),
    }),
  ),
});

export type BaselineEntry = z.infer<typeof BaselineFile>['findings'][number];

export function parseBaseline(text: string): BaselineEntry[] | string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return `not valid JSON (${(e as Error).message})`;
  }
  const r = BaselineFile.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    return `not a session-audit JSON report: at /${issue.path.map(String).join('/')}: ${issue.message}`;
  }
  return r.data.findings;
}

const count = (findings: readonly Finding[]): Record<Severity, number> => {
  const c = { error: 0, warning: 0, note: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
};

/** A new report without the baselined findings, recounted, with a `baseline` section. */
export function applyBaseline(report: AuditReport, entries: readonly BaselineEntry[], path: string): AuditReport {
  const known = new Set(entries.map((e) => e.fingerprint));
  const present = new Set(report.findings.map((f) => f.fingerprint));
  const findings = report.findings.filter((f) => !known.has(f.fingerprint));
  const suppressed = report.findings.length - findings.length;
  const absent = entries
    .filter((e) => !present.has(e.fingerprint))
    .map((e) => {
      const a: NonNullable<AuditReport['baseline']>['absent'][number] = { fingerprint: e.fingerprint, code: e.code };
      if (e.sessionPath !== undefined) a.sessionPath = e.sessionPath;
      if (e.location?.file !== undefined) a.file = e.location.file;
      if (e.location?.line !== undefined) a.line = e.location.line;
      return a;
    })
    .sort((a, b) => byteOrder(a.fingerprint, b.fingerprint));
  const bySession = new Map<string, Finding[]>();
  for (const f of findings) bySession.set(f.sessionPath, [...(bySession.get(f.sessionPath) ?? []), f]);
  const byCode: Record<string, number> = {};
  for (const f of findings) byCode[f.code] = (byCode[f.code] ?? 0) + 1;
  return {
    ...report,
    summary: {
      ...report.summary,
      findings: count(findings),
      byCode: Object.fromEntries(Object.entries(byCode).sort(([a], [b]) => byteOrder(a, b))),
    },
    sessions: report.sessions.map((s) => ({ ...s, findings: count(bySession.get(s.path) ?? []) })),
    findings,
    baseline: { path, suppressed, absent },
  };
}
