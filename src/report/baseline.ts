/**
 * Baselines: findings already known (an earlier JSON report) are suppressed; the report says how many, and which
 * baseline entries no longer occur (fixed, or the evidence changed). A baseline written with fingerprint version 2
 * (`configuration.fingerprintVersion`) is matched by fingerprint, which survives lines inserted above a finding.
 * An older one (version 1 hashed the line number) is matched the way it always behaved, by place: code, session,
 * file, line and pointer; the report says so, and writing the baseline again moves it to version 2.
 */
import { z } from 'zod';
import { SEVERITIES, type Finding, type Severity } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import { byteOrder } from '../model/order.js';

/** What a baseline file must hold: findings with fingerprints (a session-audit JSON report). */
const BaselineFile = z.object({
  configuration: z.looseObject({ fingerprintVersion: z.number().optional() }).optional(),
  findings: z.array(
    z.looseObject({
      fingerprint: z.string().min(1),
      code: z.string(),
      session: z.string().optional(),
      sessionPath: z.string().optional(),
      severity: z.enum(SEVERITIES).optional(),
      location: z
        .looseObject({ file: z.string(), line: z.number().optional(), pointer: z.string().optional() })
        .optional(),
    }),
  ),
});

export type BaselineEntry = z.infer<typeof BaselineFile>['findings'][number];

export interface Baseline {
  entries: BaselineEntry[];
  /** How entries are matched: by fingerprint (version 2), or by place (a baseline written before version 2). */
  matchedBy: 'fingerprint' | 'place';
}

export function parseBaseline(text: string): Baseline | string {
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
  return {
    entries: r.data.findings,
    matchedBy: (r.data.configuration?.fingerprintVersion ?? 1) >= 2 ? 'fingerprint' : 'place',
  };
}

const count = (findings: readonly Finding[]): Record<Severity, number> => {
  const c = { error: 0, warning: 0, note: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
};

const place = (code: string, session: string | undefined, file = '', line?: number, pointer?: string): string =>
  [code, session ?? '', file, line ?? '', pointer ?? ''].join('\u0000');

/** A new report without the baselined findings, recounted, with a `baseline` section. */
export function applyBaseline(report: AuditReport, baseline: Baseline, path: string): AuditReport {
  const byPlace = baseline.matchedBy === 'place';
  const keyOf = (f: Finding): string =>
    byPlace ? place(f.code, f.session, f.location.file, f.location.line, f.location.pointer) : f.fingerprint;
  const entryKey = (e: BaselineEntry): string =>
    byPlace ? place(e.code, e.session, e.location?.file, e.location?.line, e.location?.pointer) : e.fingerprint;
  // A multiset: two identical entries suppress two findings, not every finding of that key.
  const known = new Map<string, number>();
  for (const e of baseline.entries) known.set(entryKey(e), (known.get(entryKey(e)) ?? 0) + 1);
  const findings: Finding[] = [];
  for (const f of report.findings) {
    const k = keyOf(f);
    const n = known.get(k) ?? 0;
    if (n > 0) known.set(k, n - 1);
    else findings.push(f);
  }
  const suppressed = report.findings.length - findings.length;
  const absent = baseline.entries
    .filter((e) => {
      const k = entryKey(e);
      const n = known.get(k) ?? 0;
      if (n === 0) return false;
      known.set(k, n - 1);
      return true;
    })
    .map((e) => {
      const a: NonNullable<AuditReport['baseline']>['absent'][number] = { fingerprint: e.fingerprint, code: e.code };
      if (e.sessionPath !== undefined) a.sessionPath = e.sessionPath;
      if (e.location?.file !== undefined) a.file = e.location.file;
      if (e.location?.line !== undefined) a.line = e.location.line;
      return a;
    })
    .sort((a, b) => byteOrder(a.fingerprint, b.fingerprint));
  const bySession = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = bySession.get(f.sessionPath);
    if (list) list.push(f);
    else bySession.set(f.sessionPath, [f]);
  }
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
    baseline: { path, suppressed, absent, matchedBy: baseline.matchedBy },
  };
}
