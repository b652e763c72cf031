/** An HtmlInput assembled from the real CLI: the audit report, every session's timeline and pairs, and a lineage. */
import type { LineageView } from '../../src/lineage/view.js';
import type { AuditReport } from '../../src/model/report.js';
import type { PairRow } from '../../src/pairing/pairing-result.js';
import type { HtmlInput, HtmlSession } from '../../src/report/html-input.js';
import type { TimelineEvent } from '../../src/timeline/model.js';
import { cli } from './cli.js';

export async function htmlInputFromCli(
  paths: string[],
  lineageRoot?: string,
  title = paths.join(' '),
): Promise<HtmlInput> {
  const rep = JSON.parse(
    (await cli(['audit', ...paths, '--format', 'json', '--fail-on', 'never'])).stdout,
  ) as AuditReport;
  const sessions: HtmlSession[] = [];
  for (const s of rep.sessions) {
    const session: HtmlSession = { id: s.id, path: s.path, format: s.format };
    const tl = await cli(['timeline', s.path, '--format', 'jsonl']);
    if (tl.code === 0)
      session.timeline = tl.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TimelineEvent);
    const pr = await cli(['pairs', s.path, '--format', 'json']);
    if (pr.code === 0)
      session.pairs = (JSON.parse(pr.stdout) as { sessions: Array<{ rows: PairRow[] }> }).sessions[0]?.rows ?? [];
    sessions.push(session);
  }
  const lineage = lineageRoot
    ? (JSON.parse((await cli(['lineage', lineageRoot, '--format', 'json'])).stdout) as { roots: LineageView[] }).roots
    : [];
  return { report: rep, sessions, lineage, title };
}
