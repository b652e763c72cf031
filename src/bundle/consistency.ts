/**
 * A bag's analysis must describe exactly the bytes it archives. The audit report and the timelines are made
 * from one read of the sessions, the payload from another (pass 1, then pass 2 into the archive): a file that
 * grew, changed, appeared or disappeared in between makes them disagree. This compares what each pass saw and
 * names the first file they disagree on; the bundle then stops rather than write a bag at odds with itself.
 */
import type { AuditReport } from '../model/report.js';
import type { BundledSession } from './build.js';
import type { PayloadFile } from './payload.js';

const short = (d: string | undefined): string => (d === undefined ? 'no digest' : `sha256 ${d.slice(0, 12)}…`);

/** The first disagreement between the analysis (report, timelines, inventory) and the payload pass, if any. */
export function disagreement(
  report: AuditReport,
  sessions: readonly BundledSession[],
  payload: readonly PayloadFile[],
  withheld: ReadonlyArray<{ source: unknown; rel: string }> = [],
): string | undefined {
  const bySource = new Map<unknown, PayloadFile[]>();
  for (const p of payload) {
    const list = bySource.get(p.source);
    if (list) list.push(p);
    else bySource.set(p.source, [p]);
  }
  const reported = new Map(report.sessions.map((r) => [`${r.id}\0${r.path}`, r]));
  for (const s of sessions) {
    const audited = reported.get(`${s.id}\0${s.path}`);
    if (!audited) return `session ${s.path} appeared after the audit`;
    const recorded = new Map(audited.files.filter((f) => f.type === 'file').map((f) => [f.path, f]));
    const archived = new Set<string>(withheld.filter((w) => w.source === s.source).map((w) => w.rel));
    for (const p of bySource.get(s.source) ?? []) {
      archived.add(p.rel);
      const where = `${s.path}/${p.rel}`;
      const r = recorded.get(p.rel);
      if (!r) return `${where} appeared after the audit`;
      if (r.sha256 === undefined)
        return `${where} could not be read by the audit${r.readError ? ` (${r.readError})` : ''}, then could`;
      if (r.sha256 !== p.originalSha256 || r.size !== p.originalSize)
        return (
          `${where} changed between the audit (${r.size} bytes, ${short(r.sha256)}) and the payload pass ` +
          `(${p.originalSize} bytes, ${short(p.originalSha256)})`
        );
      // What the timeline read (and the inventory's size) must be the same bytes too.
      const e = s.source.entry(p.rel);
      if (e && ((e.sha256 !== undefined && e.sha256 !== p.originalSha256) || e.size !== p.originalSize))
        return (
          `${where} changed between the timeline pass (${e.size} bytes, ${short(e.sha256)}) and the payload ` +
          `pass (${p.originalSize} bytes, ${short(p.originalSha256)})`
        );
    }
    for (const [rel, r] of recorded) {
      if (r.sha256 !== undefined && !archived.has(rel))
        return `${s.path}/${rel} disappeared or became unreadable after the audit read it`;
    }
  }
  const bagged = new Set(sessions.map((s) => `${s.id}\0${s.path}`));
  for (const r of report.sessions)
    if (!bagged.has(`${r.id}\0${r.path}`)) return `session ${r.path} appeared during the bundle (audited, not bagged)`;
  return undefined;
}
