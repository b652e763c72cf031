/** I/O glue for the one-session commands (inspect, pairs): find the session, open it read-only, observe it. */
import { auditSession, type AuditOptions, type SessionResult } from '../audit.js';
import type { CheckRun } from '../checks/define.js';
import { formatFor } from '../formats/registry.js';
import type { FoundSession } from '../read/discover.js';
import { fsSource } from '../read/source.js';
import { listDir } from '../read/walk.js';
import { UsageError } from './errors.js';
import { findSessions } from './run-audit.js';

export function oneSession(path: string): FoundSession {
  const found = findSessions([path]);
  if (found.length !== 1) {
    throw new UsageError(`${path}: holds ${found.length} sessions; give one session directory (e.g. ${found[0]!.display})`);
  }
  return found[0]!;
}

export function observeSession(found: FoundSession, options: AuditOptions, observers: readonly CheckRun[]): SessionResult {
  const format = formatFor(found.symlinkTarget !== undefined ? [] : listDir(found.abs).names);
  return auditSession(fsSource(found), format, options, observers);
}

export { readUserFile } from './user-files.js';
