/**
 * The I/O glue of the evidence store: `archive` (find the sessions of the roots, capture them into the store),
 * `archive --reindex` and `verify --store` (as a report, like `verify` of a bag). `bundle --from-store` is in
 * bundle-from-store.ts.
 */
import type { KeyObject } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { keyFingerprint, privateKeyFromPem, publicKeyFromPem } from '../bundle/dsse.js';
import { codeInfo } from '../checks/catalog.js';
import { standaloneFinding } from '../checks/findings.js';
import { UsageError } from '../errors.js';
import { detectorsFor, FORMATS, formatOf } from '../formats/registry.js';
import type { AuditReport } from '../model/report.js';
import { discoverSessions } from '../read/discover.js';
import { type HomeLeftOut, homeEntries, homesAbove, rootCaptures } from './archive-homes.js';
import { listDir, lstatEntry } from '../read/walk.js';
import { opaque, type FoundHome, type FoundSession } from '../model/found.js';
import { archive, underLock, type ArchiveOutcome, type ArchiveRoot } from '../store/archive.js';
import { StoreBusy } from '../store/lock.js';
import { openStore, readState, StoreError } from '../store/open.js';
import { verifyStore, type StoreVerification } from '../store/verify.js';
import { buildReport } from './report.js';
import { updateIndex, type IndexOutcome } from './index/update.js';
import { verifyIndex } from './index/verify-index.js';
import { readUserFileText } from './user-files.js';
import { storeVerdict } from './verdict.js';

/** The agents' session homes that exist (the default roots of `archive`). */
export function defaultRoots(home = homedir()): string[] {
  return FORMATS.flatMap((f) => f.homeRoots ?? [])
    .map((r) => join(home, r))
    .filter((p) => existsSync(p));
}

const inside = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The store at `dir` opened (created when asked); what stops it is a usage error in words. */
export function storeOf(dir: string, create: boolean, write = create): string {
  try {
    return openStore(dir, create, write);
  } catch (e) {
    if (e instanceof StoreBusy) throw new UsageError(e.message);
    if (e instanceof StoreError) throw new UsageError(`--store ${e.message}`);
    if ((e as NodeJS.ErrnoException).code)
      throw new UsageError(`--store ${dir}: cannot be used (${(e as NodeJS.ErrnoException).code})`);
    throw e;
  }
}

function key<T>(flag: string, path: string, read: (pem: string) => T): T {
  const pem = readUserFileText(flag, path);
  try {
    return read(pem);
  } catch (e) {
    throw new UsageError(`${flag} ${path}: ${(e as Error).message}`);
  }
}

export interface ArchiveRequest {
  roots: readonly string[];
  store: string;
  signKey?: string;
  keyId?: string;
  rehash?: boolean;
  acknowledgeGap?: string;
  formatHint?: string;
  /** False: capture only, the index left behind (search says so; the next run with the index catches up). */
  index?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Captures indexed, of those the run made (after the capture itself). */
  onIndexProgress?: (done: number, total: number) => void;
}

export interface ArchiveResult extends ArchiveOutcome {
  roots: string[];
  /** Roots given that do not exist now: their sessions are not marked deleted. */
  missing: string[];
  /**
   * The index brought up to date with the new captures, or why it could not be (the captures stay valid);
   * undefined when the run was asked not to index.
   */
  index: IndexOutcome | string | undefined;
}

/** Bring the store's index up to date (or rebuild it): a failure is a sentence, the captures are not affected. */
export function indexStore(
  store: string,
  reindex: boolean,
  onProgress?: (done: number, total: number) => void,
): IndexOutcome | string {
  try {
    return updateIndex(store, { reindex, ...(onProgress ? { onProgress } : {}) });
  } catch (e) {
    if (e instanceof StoreError) return e.message;
    const code = (e as { code?: string }).code;
    if (code) return `${code}: ${(e as Error).message}`;
    throw e;
  }
}

/** `archive --reindex --store DIR`: the index rebuilt from the capture records alone; nothing is captured. */
export function runReindex(dir: string, onProgress?: (done: number, total: number) => void): IndexOutcome {
  const store = storeOf(dir, false, true);
  let r: IndexOutcome | string;
  try {
    r = underLock(store, () => indexStore(store, true, onProgress));
  } catch (e) {
    if (e instanceof StoreBusy) throw new UsageError(e.message);
    throw e;
  }
  if (typeof r === 'string') throw new UsageError(`--store ${dir}: the index cannot be rebuilt (${r})`);
  return r;
}

export function runArchive(req: ArchiveRequest): ArchiveResult {
  const roots = req.roots.length ? [...req.roots] : defaultRoots();
  if (!roots.length)
    throw new UsageError(
      `archive: no agent session home exists here (${FORMATS.flatMap((f) => f.homeRoots ?? [])
        .map((r) => `~/${r}`)
        .join(', ')}); give the roots to archive`,
    );
  const signKey: KeyObject | undefined =
    req.signKey !== undefined ? key('--sign-key', req.signKey, privateKeyFromPem) : undefined;
  if (req.keyId !== undefined && !signKey) throw new UsageError('--key-id needs --sign-key');
  const store = storeOf(req.store, true);
  const detectors = detectorsFor(req.formatHint);
  const found: ArchiveRoot[] = [];
  const missing: string[] = [];
  const leftOut: HomeLeftOut[] = [];
  for (const arg of roots) {
    if (!existsSync(arg)) {
      // A root that is gone (an unmounted home?) is not evidence that its sessions were deleted.
      if (req.roots.length) missing.push(arg);
      continue;
    }
    const abs = realpathSync(arg);
    if (inside(store, abs) || inside(abs, store))
      throw new UsageError(`${arg}: the store ${req.store} and a root to archive may not be inside each other`);
    const met: FoundHome[] = [];
    const sessions = discoverSessions(arg, detectors, undefined, met);
    const homes = homeEntries([...homesAbove(arg, abs, detectors), ...met], leftOut).filter(
      (h) => !found.some((r) => r.sessions.some((s) => s.id === h.id && s.abs === h.abs)),
    );
    found.push({ arg, abs, sessions: rootCaptures(sessions, groupFiles(sessions), homes) });
  }
  try {
    const { afterwards: index, ...out } = archive(
      {
        store,
        roots: found,
        policy: (f) => {
          // A group's own files: no format says how they change, so none is held to growing only.
          if (f.format === undefined) return () => 'rewritable';
          const format = formatOf(f);
          return (rel) => format.changePolicy(rel);
        },
        ...(signKey ? { signKey } : {}),
        ...(req.keyId !== undefined ? { keyId: req.keyId } : {}),
        ...(req.rehash ? { rehash: true } : {}),
        ...(req.acknowledgeGap !== undefined ? { acknowledgeGap: req.acknowledgeGap } : {}),
        ...(req.onProgress ? { onProgress: req.onProgress } : {}),
      },
      // After a gap the index holds captures the chain lost: it is built again from the records.
      (o) => (req.index === false ? undefined : indexStore(store, o.gap !== undefined, req.onIndexProgress)),
    );
    const skipped = [...out.skipped, ...leftOut];
    return { ...out, skipped, roots: found.map((r) => r.arg), missing, index };
  } catch (e) {
    if (e instanceof StoreBusy || e instanceof StoreError) throw new UsageError(e.message);
    // The store cannot be written (full, read-only, denied): what was recorded before stays valid.
    const code = (e as NodeJS.ErrnoException).code;
    if (code)
      throw new UsageError(
        `--store ${req.store}: cannot be written (${code}); the captures recorded before this stay valid`,
      );
    throw e;
  }
}

/**
 * The files of each cwd group that belong to no session (an agent's per-project prompt history, indexes): kept as a
 * session of their own (`group:<name>`), so they are retained too and a capture bundles with them where the audit
 * reads them.
 */
export function groupFiles(sessions: readonly FoundSession[]): FoundSession[] {
  const groups = new Map<string, { display: string; claimed: Set<string> }>();
  for (const s of sessions) {
    if (s.groupAbs === undefined || opaque(s)) continue;
    const g = groups.get(s.groupAbs) ?? { display: dirname(s.display), claimed: new Set<string>() };
    groups.set(s.groupAbs, g);
    if (s.members) for (const m of s.members) g.claimed.add(m);
    else g.claimed.add(basename(s.abs));
  }
  const out: FoundSession[] = [];
  for (const [groupAbs, g] of groups) {
    const listed = listDir(groupAbs, true);
    const members = listed.names.filter(
      (n) => !g.claimed.has(n) && !n.startsWith('.') && lstatEntry(join(groupAbs, n), n).type === 'file',
    );
    if (!members.length) continue;
    out.push({
      abs: groupAbs,
      // Shown (and keyed) by the group directory: its files may come and go.
      display: g.display,
      id: `group:${basename(groupAbs)}`,
      groupName: basename(groupAbs),
      groupAbs,
      members,
    });
  }
  return out;
}

export interface StoreVerifyOutcome {
  report: AuditReport;
  verification: StoreVerification;
}

/** `verify --store`: the findings as a verify report of one "session", the store. */
export function runStoreVerify(dir: string, keyPath: string | undefined): StoreVerifyOutcome {
  const publicKey = keyPath !== undefined ? key('--key', keyPath, publicKeyFromPem) : undefined;
  const store = storeOf(dir, false);
  const v = verifyStore(store, publicKey);
  // The index is checked against a chain that holds together (a broken chain is verify's finding already).
  let state: ReturnType<typeof readState> | undefined;
  try {
    state = readState(store);
  } catch (e) {
    if (!(e instanceof StoreError)) throw e;
  }
  if (state) v.problems.push(...verifyIndex(store, state));
  const findings = v.problems.map((p) =>
    standaloneFinding(
      'store',
      p.code,
      p.severity ?? codeInfo(p.code)?.severity ?? 'error',
      'store',
      dir,
      { file: p.place },
      p.message,
    ),
  );
  const report = buildReport(
    [
      {
        session: {
          id: 'store',
          path: dir,
          format: 'session-audit store',
          files: [],
          findings: { error: 0, warning: 0, note: 0 },
        },
        findings,
        toolErrors: [],
      },
    ],
    'verify',
  );
  // Signatures verified: a key was given and no signature finding says otherwise.
  const verified =
    publicKey !== undefined && v.signed > 0 && !findings.some((f) => f.code === 'BUNDLE_SIGNATURE_INVALID');
  report.verdict = storeVerdict(
    report.findings,
    {
      present: v.signed > 0,
      verified,
      ...(verified && v.keyIds[0] !== undefined ? { keyId: v.keyIds[0] } : {}),
      ...(publicKey ? { fingerprint: keyFingerprint(publicKey) } : {}),
    },
    {
      records: v.records,
      signed: v.signed,
      rewrites: v.rewrites,
      deletions: v.deletions,
      gaps: v.gaps.map((g) => ({ seq: g.seq, lost: g.lost, by: g.by, reason: g.reason })),
    },
  );
  return { report, verification: v };
}
