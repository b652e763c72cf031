/**
 * The sessions a session-audit bag captured, as its custody statement records them: each one's directory in the
 * bag and, per file, its path in the session, the original digest and size (before any redaction) and the member
 * holding it. A file the bag withheld (a database `--redact` cannot redact, a copy of the user's files) is one of
 * them when the statement recorded its digest; older bags recorded only its bag path.
 */
import { byteOrder } from '../model/order.js';
import type { BagContents } from './bag-contents.js';

export interface CapturedFile {
  /** Path relative to the session directory. */
  rel: string;
  /** Digest and size of the original file at capture time. */
  sha256: string;
  size: number;
  /** The bag member holding it (byte for byte unless the bag is redacted); a withheld file's would-be path. */
  member: string;
  /** Why the bag left it out (the custody statement's reason): only its digest and size were recorded. */
  withheld?: string;
}

/** A file the capture recorded but did not archive and holds no digest of (a symlink, an unreadable file). */
export interface UnarchivedFile {
  /** Its path in the session; absent in bags made before it was recorded (then only `member` names it). */
  rel?: string;
  /** Its path in the bag, relative to the session's directory there. */
  member: string;
  reason: string;
}

export interface CapturedSessionFiles {
  id: string;
  bagDir: string;
  /** The session's path as the capture's command line named it. */
  path?: string;
  /** The group directory it was found in (e.g. Grok's working-directory folder), when the capture recorded it. */
  group?: string;
  /** An agent's home (its own files beside the sessions), as the custody statement marks it. */
  kind?: 'home';
  files: CapturedFile[];
  /** What the capture left out without a digest; older bags list every file they left out here. */
  unarchived: UnarchivedFile[];
}

interface StatementLike {
  predicate?: Record<string, unknown>;
}

/** The sessions and original file digests a session-audit bag recorded; undefined for other bags. */
export function capturedSessions(
  c: BagContents,
  statement: StatementLike | undefined,
): CapturedSessionFiles[] | undefined {
  const p = statement?.predicate;
  const sessions = Array.isArray(p?.sessions)
    ? (p.sessions as Array<{ id?: unknown; bagDir?: unknown; path?: unknown; group?: unknown; kind?: unknown }>)
    : undefined;
  if (!sessions) return undefined;
  const recorded = new Map<string, { sha256: string; size: number }>();
  /** Bag path → the file's path in its session (bags lay names out safely; older ones kept them as they were). */
  const original = new Map<string, string>();
  for (const f of Array.isArray(p?.files) ? (p.files as Array<Record<string, unknown>>) : []) {
    if (typeof f.path === 'string' && typeof f.originalSha256 === 'string' && typeof f.originalSize === 'number')
      recorded.set(f.path, { sha256: f.originalSha256, size: f.originalSize });
    if (typeof f.path === 'string' && typeof f.originalPath === 'string') original.set(f.path, f.originalPath);
  }
  const left = Array.isArray(p?.notArchived) ? (p.notArchived as Array<Record<string, unknown>>) : [];
  const out: CapturedSessionFiles[] = [];
  for (const s of sessions) {
    if (typeof s.id !== 'string' || typeof s.bagDir !== 'string') continue;
    const prefix = `${s.bagDir}/`;
    const files: CapturedFile[] = [];
    for (const [name, m] of c.members) {
      if (!name.startsWith(prefix)) continue;
      const orig = recorded.get(name) ?? { sha256: m.digests.sha256, size: m.size };
      files.push({ rel: original.get(name) ?? name.slice(prefix.length), member: name, ...orig });
    }
    const unarchived: UnarchivedFile[] = [];
    for (const n of left) {
      if (typeof n.bagPath !== 'string' || !n.bagPath.startsWith(prefix)) continue;
      const reason = typeof n.reason === 'string' ? n.reason : 'not archived';
      const rel = typeof n.originalPath === 'string' ? n.originalPath : undefined;
      if (rel !== undefined && typeof n.originalSha256 === 'string' && typeof n.originalSize === 'number')
        files.push({ rel, member: n.bagPath, sha256: n.originalSha256, size: n.originalSize, withheld: reason });
      else unarchived.push({ ...(rel !== undefined ? { rel } : {}), member: n.bagPath.slice(prefix.length), reason });
    }
    files.sort((a, b) => byteOrder(a.rel, b.rel));
    out.push({
      id: s.id,
      bagDir: s.bagDir,
      ...(typeof s.path === 'string' ? { path: s.path } : {}),
      ...(typeof s.group === 'string' ? { group: s.group } : {}),
      ...(s.kind === 'home' ? { kind: 'home' as const } : {}),
      files,
      unarchived,
    });
  }
  return out;
}
