/** `inspect`: audit one session while collecting what a reviewer needs before resuming it. */
import { formatOf } from '../formats/registry.js';
import { inspectCollector } from '../inspect/collect.js';
import { buildInspect, type InspectView } from '../inspect/report.js';
import type { FoundSession } from '../model/found.js';
import type { AuditExtras } from '../model/session.js';
import { sessionHomeView } from './home-views.js';
import type { SessionResult } from './report.js';
import { observeSession } from './session.js';

export function inspectSession(
  found: FoundSession,
  extras: AuditExtras,
  maxDbBytes?: number,
): { view: InspectView; result: SessionResult } {
  const format = formatOf(found);
  const { run, data } = inspectCollector(format.pairing, format.duplicateKeys.rejectsRecord);
  const result = observeSession(
    found,
    { command: 'audit', extras, ...(maxDbBytes !== undefined ? { maxDbBytes } : {}) },
    [run],
  );
  const view = buildInspect(found.id, found.display, data, result.findings, format);
  // Beside the log: what the agent's home above the session ties to it (its project's grants, its sandbox events).
  try {
    const home = sessionHomeView(found);
    if (home) view.report.home = home;
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    result.toolErrors.push({ session: found.id, check: 'home-views', message: `${err.message}\n${err.stack ?? ''}` });
  }
  return { view, result };
}
