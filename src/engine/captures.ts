/**
 * `captures --store DIR [--session ID]`: what the store holds, read from its records (the evidence, not the index):
 * per session its captures in order, each with its number, run time, status, size, the logs that grew (from what
 * size to what size), the logs rewritten and the logs deleted in the source, and the gaps a person acknowledged.
 */
import { UsageError } from '../errors.js';
import { openStore, readState, StoreError } from '../store/open.js';
import type { CaptureRecord, GapRecord } from '../store/record.js';
import { pickSession } from '../store/select.js';

export interface CaptureEntry {
  seq: number;
  run: string;
  status: CaptureRecord['status'];
  files: number;
  bytes: number;
  /** Append-only logs that grew since the session's previous capture: from and to (bytes). */
  grew: Array<{ file: string; from: number; to: number }>;
  /** Logs that should only grow and were rewritten, or deleted, in the source (the capture's findings). */
  rewritten: Array<{ file: string; line?: number }>;
  deletedLogs: string[];
  /** The capture it was compared with when not its previous one (a session moved or back after a deletion). */
  basis?: number;
}

export interface SessionCaptures {
  id: string;
  key: string;
  agent: string;
  path: string;
  captures: CaptureEntry[];
}

export interface CaptureListing {
  store: string;
  sessions: SessionCaptures[];
  gaps: Array<Pick<GapRecord, 'seq' | 'run' | 'lost' | 'found' | 'reason' | 'by'>>;
}

const entry = (r: CaptureRecord): CaptureEntry => ({
  seq: r.seq,
  run: r.run,
  status: r.status,
  files: r.files.length,
  bytes: r.files.reduce((n, f) => n + (f.type === 'file' ? f.size : 0), 0),
  grew: Object.entries(r.grewFrom).map(([file, from]) => ({
    file,
    from,
    to: r.files.find((f) => f.path === file)?.size ?? from,
  })),
  rewritten: r.findings
    .filter((f) => f.code === 'BUNDLE_NOT_APPEND_ONLY')
    .map((f) => ({ file: f.file, ...(f.line !== undefined ? { line: f.line } : {}) })),
  deletedLogs: r.findings.filter((f) => f.code === 'BUNDLE_FILE_MISSING').map((f) => f.file),
  ...(r.basis !== undefined ? { basis: r.basis } : {}),
});

export function listCaptures(storeDir: string, session: string | undefined): CaptureListing {
  let state: ReturnType<typeof readState>;
  try {
    state = readState(openStore(storeDir, false, false));
  } catch (e) {
    if (e instanceof StoreError) throw new UsageError(`--store ${e.message}`);
    throw e;
  }
  let only: string | undefined;
  if (session !== undefined) {
    const key = pickSession(state.records, session);
    if (typeof key !== 'string') throw new UsageError(`--session ${session}: ${key.error}`);
    only = key;
  }
  const bySession = new Map<string, SessionCaptures>();
  for (const r of state.records) {
    if (only !== undefined && r.session.key !== only) continue;
    let s = bySession.get(r.session.key);
    if (!s) {
      s = { id: r.session.id, key: r.session.key, agent: r.session.format, path: r.session.display, captures: [] };
      bySession.set(r.session.key, s);
    }
    // The latest path the session was archived by.
    s.path = r.session.display;
    s.captures.push(entry(r));
  }
  return {
    store: storeDir,
    sessions: [...bySession.values()],
    gaps:
      only !== undefined
        ? []
        : state.gaps.map(({ seq, run, lost, found, reason, by }) => ({ seq, run, lost, found, reason, by })),
  };
}
