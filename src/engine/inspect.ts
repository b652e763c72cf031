/** `inspect`: audit one session while collecting what a reviewer needs before resuming it. */
import { formatOf } from '../formats/registry.js';
import { inspectCollector } from '../inspect/collect.js';
import { buildInspect, type InspectView } from '../inspect/report.js';
import type { FoundSession } from '../model/found.js';
import type { AuditExtras } from '../model/session.js';
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
  return { view: buildInspect(found.id, found.display, data, result.findings, format), result };
}
