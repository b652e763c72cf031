/**
 * `verify <bag> --against <live>`: an earlier capture compared with the live session. Logs the agent only appends
 * to must still start with the captured bytes (checked against the ORIGINAL digests the custody statement records,
 * so a redacted capture works too); files the agent legitimately rewrites are reported with what changed; evidence
 * files it never rewrites (quarantine copies, images) must be unchanged. The session's format says which is which.
 */
import { createHash } from 'node:crypto';
import { standaloneFinding } from '../checks/findings.js';
import { BUNDLE_CODES, type BundleCode } from '../checks/bundle-codes.js';
import type { Finding, Location, Severity } from '../model/finding.js';
import type { FoundSession } from '../model/found.js';
import { fsSource } from '../read/source.js';
import type { SessionSource } from '../model/source.js';
import { byteOrder } from '../model/order.js';
import { formatOf } from '../formats/registry.js';
import type { BagContents } from './bag-contents.js';

export interface CapturedFile {
  /** Path relative to the session directory. */
  rel: string;
  /** Digest and size of the original file at capture time. */
  sha256: string;
  size: number;
  /** The bag member holding it (byte for byte unless the bag is redacted). */
  member: string;
}

export interface CapturedSessionFiles {
  id: string;
  bagDir: string;
  /** The session's path as the capture's command line named it. */
  path?: string;
  /** The group directory it was found in (e.g. Grok's working-directory folder), when the capture recorded it. */
  group?: string;
  files: CapturedFile[];
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
    ? (p.sessions as Array<{ id?: unknown; bagDir?: unknown; path?: unknown; group?: unknown }>)
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
    files.sort((a, b) => byteOrder(a.rel, b.rel));
    out.push({
      id: s.id,
      bagDir: s.bagDir,
      ...(typeof s.path === 'string' ? { path: s.path } : {}),
      ...(typeof s.group === 'string' ? { group: s.group } : {}),
      files,
    });
  }
  return out;
}

interface LiveDigest {
  size: number;
  sha256: string;
  /** sha256 of the first `prefixLen` bytes. */
  prefixSha256: string;
  /** Lines of the whole file and of its first `prefixLen` bytes (a last line without a newline counts). */
  lines: number;
  prefixLines: number;
}

const newlines = (b: Buffer): number => {
  let n = 0;
  for (let k = b.indexOf(10); k !== -1; k = b.indexOf(10, k + 1)) n++;
  return n;
};

function liveDigest(src: SessionSource, rel: string, prefixLen: number): LiveDigest | { error: string } {
  const whole = createHash('sha256');
  const prefix = createHash('sha256');
  let seen = 0;
  let lines = 0;
  let prefixLines = 0;
  let last = 10;
  let prefixLast = 10;
  const r = src.streamRaw(rel, (chunk) => {
    whole.update(chunk);
    lines += newlines(chunk);
    if (chunk.length) last = chunk[chunk.length - 1]!;
    if (seen < prefixLen) {
      const part = chunk.subarray(0, Math.min(chunk.length, prefixLen - seen));
      prefix.update(part);
      prefixLines += newlines(part);
      if (part.length) prefixLast = part[part.length - 1]!;
    }
    seen += chunk.length;
  });
  if (!r.ok) return { error: r.error };
  return {
    size: r.value.size,
    sha256: whole.digest('hex'),
    prefixSha256: prefix.digest('hex'),
    lines: lines + (last !== 10 ? 1 : 0),
    prefixLines: prefixLines + (prefixLast !== 10 ? 1 : 0),
  };
}

/** Where two byte strings first differ: 1-based line and byte offset, and the two lines (shortened). */
export function firstDifference(
  before: Buffer,
  after: Buffer,
): { line: number; column: number; offset: number; was: string; now: string } | undefined {
  const n = Math.min(before.length, after.length);
  let i = 0;
  while (i < n && before[i] === after[i]) i++;
  if (i === before.length && i <= after.length) return undefined;
  const lineStart = before.lastIndexOf(10, i - 1) + 1;
  let line = 1;
  for (let k = before.indexOf(10); k !== -1 && k < lineStart; k = before.indexOf(10, k + 1)) line++;
  // The text around the first differing byte of that line, in both versions.
  const from = Math.max(lineStart, i - 40);
  const lineOf = (b: Buffer): string => {
    if (i >= b.length && lineStart >= b.length) return '(end of file)';
    const nl = b.indexOf(10, from);
    const end = Math.min(nl === -1 ? b.length : nl, i + 80);
    const s = b.subarray(from, end).toString('utf8');
    const eol = nl === -1 ? b.length : nl;
    const ends = i >= end && end === eol ? ' (line ends)' : '';
    return `${from > lineStart ? '…' : ''}${s}${end < eol ? '…' : ''}${ends}`;
  };
  return { line, column: i - lineStart + 1, offset: i, was: lineOf(before), now: lineOf(after) };
}

const countLines = (b: Buffer): number => {
  let n = 0;
  for (let k = b.indexOf(10); k !== -1; k = b.indexOf(10, k + 1)) n++;
  return b.length && b[b.length - 1] !== 10 ? n + 1 : n;
};

/** Top-level JSON keys whose values differ (for identity and other state documents). */
function changedKeys(before: Buffer, after: Buffer): string[] | undefined {
  try {
    const a = JSON.parse(before.toString('utf8')) as unknown;
    const b = JSON.parse(after.toString('utf8')) as unknown;
    if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b))
      return undefined;
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return [...new Set([...Object.keys(ra), ...Object.keys(rb)])]
      .filter((k) => JSON.stringify(ra[k]) !== JSON.stringify(rb[k]))
      .sort(byteOrder);
  } catch {
    return undefined;
  }
}

export interface AgainstInput {
  contents: BagContents;
  sessions: readonly CapturedSessionFiles[];
  redacted: boolean;
  live: readonly FoundSession[];
  /** The whole content of some bag members (read again from the bag, once for all of them). */
  members: (names: readonly string[]) => Promise<Map<string, Buffer>>;
}

const LIVE_READ_LIMIT = 256 * 1024 * 1024;

/** Path components two paths share at their ends (how alike two places of one session id are). */
function commonSuffix(a: string, b: string): number {
  const x = a.split('/').filter(Boolean);
  const y = b.split('/').filter(Boolean);
  let n = 0;
  while (n < x.length && n < y.length && x[x.length - 1 - n] === y[y.length - 1 - n]) n++;
  return n;
}

/**
 * The live session a captured one corresponds to: same id; among several copies of one id, the one in the same
 * cwd group whose path ends most like the captured path. Each live session is matched at most once.
 */
function matchLive(
  s: CapturedSessionFiles,
  live: readonly FoundSession[],
  taken: Set<FoundSession>,
): FoundSession | undefined {
  const group = s.group ?? s.bagDir.split('/')[1];
  let best: FoundSession | undefined;
  let bestScore = -1;
  for (const f of live) {
    if (f.id !== s.id || taken.has(f)) continue;
    const score = (f.groupName === group ? 1000 : 0) + (s.path !== undefined ? commonSuffix(s.path, f.display) : 0);
    if (score > bestScore) {
      best = f;
      bestScore = score;
    }
  }
  if (best) taken.add(best);
  return best;
}

type Emit = (
  code: BundleCode,
  location: Location,
  message: string,
  opts?: { severity?: Severity; key?: string },
) => void;

/** A comparison that needs the captured bytes, done once every needed member has been read. */
interface Deferred {
  f: CapturedFile;
  src: SessionSource;
  live: LiveDigest;
  emit: Emit;
  how: 'rewritable' | 'shrank' | 'rewritten';
  what: string;
}

/** What a comparison proved about one file that holds (the positive side: printed, not a finding). */
export interface Proof {
  /** The live session's display path. */
  session: string;
  file: string;
  text: string;
}

/** Compare every captured session with its live counterpart; findings go to `out`. */
export async function compareWithLive(
  input: AgainstInput,
  out: Finding[],
): Promise<{ compared: number; proofs: Proof[] }> {
  const taken = new Set<FoundSession>();
  const deferred: Deferred[] = [];
  const proofs: Proof[] = [];
  let compared = 0;
  for (const s of input.sessions) {
    const found = matchLive(s, input.live, taken);
    const emitAt =
      (sessionPath: string): Emit =>
      (code, location, message, opts = {}) => {
        out.push(
          standaloneFinding(
            'bundle',
            code,
            opts.severity ?? BUNDLE_CODES[code].severity,
            s.id,
            sessionPath,
            location,
            message,
            opts.key,
          ),
        );
      };
    if (!found) {
      emitAt(s.bagDir)(
        'BUNDLE_FILE_MISSING',
        { file: '' },
        `session ${s.id} of the capture was not found under the live path`,
        { severity: 'warning', key: 'session' },
      );
      continue;
    }
    compared++;
    const emit = emitAt(found.display);
    const src = fsSource(found);
    const format = formatOf(found);
    const capturedRels = new Set(s.files.map((f) => f.rel));
    for (const f of s.files) {
      const entry = src.entry(f.rel);
      const policy = format.changePolicy(f.rel);
      if (!entry) {
        const why =
          policy === 'append-only'
            ? ': an append-only log was deleted'
            : format.cleanup !== undefined
              ? ` (${format.cleanup})`
              : '';
        emit(
          'BUNDLE_FILE_MISSING',
          { file: f.rel },
          `captured (${f.size} bytes) but no longer in the live session${why}`,
          { severity: policy === 'append-only' ? 'error' : 'warning' },
        );
        continue;
      }
      if (entry.type !== 'file') {
        emit(
          policy === 'rewritable' ? 'BUNDLE_FILE_CHANGED' : 'BUNDLE_NOT_APPEND_ONLY',
          { file: f.rel },
          `captured as a regular file, now a ` +
            `${entry.type}${entry.linkTarget !== undefined ? ` to ${JSON.stringify(entry.linkTarget)}` : ''}`,
        );
        continue;
      }
      const live = liveDigest(src, f.rel, f.size);
      if ('error' in live) {
        emit('BUNDLE_FILE_MISSING', { file: f.rel }, `the live file cannot be read (${live.error})`, {
          severity: 'warning',
        });
        continue;
      }
      const prove = (text: string): void => {
        proofs.push({ session: found.display, file: f.rel, text });
      };
      if (live.sha256 === f.sha256 && live.size === f.size) {
        prove(`unchanged (${f.size} bytes, sha256 ${f.sha256.slice(0, 12)}…)`);
        continue;
      }
      const grewFrom = live.size >= f.size && live.prefixSha256 === f.sha256;
      if (policy === 'append-only' && grewFrom) {
        prove(
          `${live.prefixLines} -> ${live.lines} lines, the first ${live.prefixLines} unchanged ` +
            `(${f.size} -> ${live.size} bytes; the captured bytes are the live file's first ${f.size})`,
        );
        continue;
      }
      const what =
        policy === 'append-only' ? 'an append-only log' : `an evidence file ${format.shortName} never rewrites`;
      deferred.push({
        f,
        src,
        live,
        emit,
        how: policy === 'rewritable' ? 'rewritable' : live.size < f.size ? 'shrank' : 'rewritten',
        what,
      });
    }
    const added = src.inventory.filter(
      (e) => e.type !== 'dir' && !capturedRels.has(e.path) && !e.path.endsWith('.lock'),
    );
    for (const e of added) {
      emit(
        'BUNDLE_FILE_CHANGED',
        { file: e.path },
        `new since the capture (${e.type === 'file' ? `${e.size} bytes` : `a ${e.type}`})`,
        { key: 'new' },
      );
    }
  }
  const bytes =
    input.redacted || !deferred.length
      ? new Map<string, Buffer>()
      : await input.members(deferred.map((d) => d.f.member));
  const captured = (f: CapturedFile): Buffer | undefined => {
    const b = bytes.get(f.member);
    return b && createHash('sha256').update(b).digest('hex') === f.sha256 ? b : undefined;
  };
  for (const d of deferred) {
    const before = captured(d.f);
    if (d.how === 'rewritable') {
      d.emit('BUNDLE_FILE_CHANGED', { file: d.f.rel }, describeChange(input.redacted, d.f, before, d.src, d.live));
      continue;
    }
    const diff = differenceAt(before, d.f, d.src);
    const where = diff ? `line ${diff.line}, column ${diff.column} (byte ${diff.offset})` : '';
    const at = diff
      ? `; first difference at ${where}: was ⟨${diff.was}⟩, now ⟨${diff.now}⟩`
      : input.redacted
        ? '; the capture is redacted, so the differing line cannot be shown'
        : '';
    const msg =
      d.how === 'shrank'
        ? `${d.what} shrank from ${d.f.size} to ${d.live.size} bytes${at}`
        : `${d.what} no longer starts with the ${d.f.size} captured bytes (live file: ${d.live.size} bytes)${at}`;
    d.emit('BUNDLE_NOT_APPEND_ONLY', { file: d.f.rel, ...(diff ? { line: diff.line } : {}) }, msg);
  }
  return { compared, proofs };
}

function differenceAt(
  before: Buffer | undefined,
  f: CapturedFile,
  src: SessionSource,
): ReturnType<typeof firstDifference> {
  if (!before) return undefined;
  const now = src.readFile(f.rel, LIVE_READ_LIMIT);
  if (!now.ok) return undefined;
  return firstDifference(before, now.value.bytes.subarray(0, before.length + 1));
}

function describeChange(
  redacted: boolean,
  f: CapturedFile,
  before: Buffer | undefined,
  src: SessionSource,
  live: LiveDigest,
): string {
  const sizes = `${f.size} → ${live.size} bytes`;
  const now = before ? src.readFile(f.rel, LIVE_READ_LIMIT) : undefined;
  if (!before || !now?.ok || now.value.truncated)
    return `changed since the capture (${sizes}${redacted ? '; the capture is redacted, contents not compared' : ''})`;
  const after = now.value.bytes;
  if (f.rel.endsWith('.json')) {
    const keys = changedKeys(before, after);
    if (keys)
      return (
        `rewritten since the capture (${sizes}); changed key${keys.length === 1 ? '' : 's'}: ` +
        `${keys.length ? keys.join(', ') : 'none (formatting only)'}`
      );
  }
  if (f.rel.endsWith('.jsonl')) {
    const diff = firstDifference(before, after);
    const grew = live.size >= f.size && live.prefixSha256 === f.sha256;
    const kind = grew ? 'appended to' : 'rewritten (compaction, rewind or repair)';
    return (
      `${kind} since the capture: ${countLines(before)} → ${countLines(after)} ` +
      `lines${diff && !grew ? `, first difference at line ${diff.line}` : ''}`
    );
  }
  const diff = firstDifference(before, after);
  return `changed since the capture (${sizes})${diff ? `, first difference at line ${diff.line}` : ''}`;
}
