/** I/O glue for the one-session commands (inspect, pairs): find the session, open it read-only, observe it. */
import { auditSession, type AuditOptions, type SessionResult } from '../audit.js';
import type { CheckRun } from '../checks/define.js';
import { formatOf } from '../formats/registry.js';
import type { FoundSession } from '../read/discover.js';
import { fsSource } from '../read/source.js';
import { UsageError } from './errors.js';
import { PairingCollector } from '../pairing/collect.js';
import { classifyPairs, type PairRow } from '../pairing/classify.js';
import { findSessions } from './run-audit.js';

export function oneSession(path: string, hint?: string): FoundSession {
  const found = findSessions([path], hint);
  if (found.length !== 1) {
    throw new UsageError(`${path}: holds ${found.length} sessions; give one session directory (e.g. ${found[0]!.display})`);
  }
  return found[0]!;
}

export function observeSession(found: FoundSession, options: AuditOptions, observers: readonly CheckRun[]): SessionResult {
  return auditSession(fsSource(found), formatOf(found), options, observers);
}

/** The tool-call pairing rows of one session (a pass with no checks, only the pairing collector). */
export function pairRows(found: FoundSession): PairRow[] {
  const c = new PairingCollector({ keepDetail: true });
  const run: CheckRun = {
    event: (e) => c.event(e),
    chat: (i) => c.chat(i),
    fileEnd: (f) => {
      if (f.file === 'updates.jsonl') c.logEnd(f.dead);
    },
  };
  observeSession(found, { command: 'audit', checks: [] }, [run]);
  const dialect = formatOf(found).pairing;
  return classifyPairs(c, dialect ? { dialect } : {}).rows;
}

export { readUserFile } from './user-files.js';
