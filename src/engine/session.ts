/** One session at a time (inspect, pairs, timeline): find it, open it read-only, observe it. */
import type { CheckRun } from '../checks/define.js';
import { UsageError } from '../errors.js';
import { formatOf } from '../formats/registry.js';
import type { FoundSession } from '../model/found.js';
import { PairingCollector } from '../pairing/collect.js';
import { classifyPairs } from '../pairing/classify.js';
import type { PairRow } from '../pairing/pairing-result.js';
import { fsSource } from '../read/source.js';
import { auditSession, type AuditOptions } from './audit-session.js';
import type { SessionResult } from './report.js';
import { findSessions } from './tree.js';

export function oneSession(path: string, hint?: string): FoundSession {
  const found = findSessions([path], hint);
  if (found.length !== 1) {
    throw new UsageError(
      `${path}: holds ${found.length} sessions; give one session directory (e.g. ${found[0]!.display})`,
    );
  }
  return found[0]!;
}

export function observeSession(
  found: FoundSession,
  options: AuditOptions,
  observers: readonly CheckRun[],
): SessionResult {
  return auditSession(fsSource(found), formatOf(found), options, observers);
}

/** The tool-call pairing rows of one session (a pass with no checks, only the pairing collector). */
export function pairRows(found: FoundSession, maxDbBytes?: number): PairRow[] {
  const dialect = formatOf(found).pairing;
  const c = new PairingCollector(dialect, { keepDetail: true });
  const run: CheckRun = {
    event: (e) => c.event(e),
    chat: (i) => c.chat(i),
    fileEnd: (f) => {
      if (f.file === dialect.toolLog) c.logEnd(f.dead);
    },
  };
  observeSession(found, { command: 'audit', checks: [], ...(maxDbBytes !== undefined ? { maxDbBytes } : {}) }, [run]);
  return classifyPairs(c, dialect).rows;
}
