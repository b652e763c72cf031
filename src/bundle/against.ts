/**
 * `verify <bag> --against <live>`: an earlier capture compared with the live session. Logs the agent only appends
 * to must still start with the captured bytes (checked against the ORIGINAL digests the custody statement records,
 * so a redacted capture works too); files the agent legitimately rewrites are reported with what changed; evidence
 * files it never rewrites (quarantine copies, images) must be unchanged. The session's format says which is which.
 * What the bag recorded is read by captured-sessions.ts, paired with a live session by match-live.ts; each live
 * file is read once by live-digest.ts, and describe-change.ts words what changed. A file the bag withheld (not text
 * under --redact, or withheld by its format) is compared by the digest the custody statement records for it.
 */
import { createHash } from 'node:crypto';
import { standaloneFinding } from '../checks/findings.js';
import { BUNDLE_CODES, type BundleCode } from '../checks/bundle-codes.js';
import type { Finding, Location, Severity } from '../model/finding.js';
import type { FoundSession } from '../model/found.js';
import { fsSource } from '../read/source.js';
import type { SessionSource } from '../model/source.js';
import { formatOf } from '../formats/registry.js';
import type { BagContents } from './bag-contents.js';
import type { CapturedFile, CapturedSessionFiles, UnarchivedFile } from './captured-sessions.js';
import { describeChange, differenceAt } from './describe-change.js';
import { safePath } from './layout.js';
import { liveDigest, type LiveDigest } from './live-digest.js';
import { matchLive } from './match-live.js';

export interface AgainstInput {
  contents: BagContents;
  sessions: readonly CapturedSessionFiles[];
  redacted: boolean;
  live: readonly FoundSession[];
  /** The agents' homes found under the live path (their own files, as sessions of the home's format). */
  liveHomes?: readonly FoundSession[];
  /** The whole content of some bag members (read again from the bag, once for all of them). */
  members: (names: readonly string[]) => Promise<Map<string, Buffer>>;
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

/** How a file the bag withheld is spoken of: the bag has no copy of it, the custody statement its digest. */
const HELD = 'withheld from the bag (compared by the digest the custody statement records), ';

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
    const home = s.kind === 'home';
    const found = matchLive(s, home ? (input.liveHomes ?? []) : input.live, taken);
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
        home
          ? `the agent home ${s.id} of the capture was not found under the live path`
          : `session ${s.id} of the capture was not found under the live path`,
        { severity: 'warning', key: 'session' },
      );
      continue;
    }
    compared++;
    const emit = emitAt(found.display);
    const src = fsSource(found);
    const format = formatOf(found);
    const capturedRels = new Set(s.files.map((f) => f.rel));
    /** What the capture left out without a digest: by path, or (older bags) by the path it would have had. */
    const unarchived = new Map(s.unarchived.map((u) => [u.rel ?? `\0${u.member}`, u]));
    const unarchivedOf = (rel: string): UnarchivedFile | undefined =>
      unarchived.get(rel) ?? unarchived.get(`\0${safePath(rel.startsWith('../') ? rel.slice(3) : rel)}`);
    for (const f of s.files) {
      const held = f.withheld !== undefined ? HELD : '';
      const entry = src.entry(f.rel);
      // A home's own files (histories trimmed, indexes and databases rewritten) are the agent's to rewrite.
      const policy = home ? 'rewritable' : format.changePolicy(f.rel);
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
          `${held}captured (${f.size} bytes) but no longer in the live session${why}`,
          { severity: policy === 'append-only' ? 'error' : 'warning' },
        );
        continue;
      }
      if (entry.type !== 'file') {
        emit(
          policy === 'rewritable' ? 'BUNDLE_FILE_CHANGED' : 'BUNDLE_NOT_APPEND_ONLY',
          { file: f.rel },
          `${held}captured as a regular file, now a ` +
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
        prove(`${held}unchanged (${f.size} bytes, sha256 ${f.sha256.slice(0, 12)}…)`);
        continue;
      }
      const grewFrom = live.size >= f.size && live.prefixSha256 === f.sha256;
      if (policy === 'append-only' && grewFrom) {
        prove(
          `${held}${live.prefixLines} -> ${live.lines} lines, the first ${live.prefixLines} unchanged ` +
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
      const u = unarchivedOf(e.path);
      if (u) {
        proofs.push({ session: found.display, file: e.path, text: `not archived in the capture (${u.reason})` });
        continue;
      }
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
      : await input.members(deferred.filter((d) => d.f.withheld === undefined).map((d) => d.f.member));
  const captured = (f: CapturedFile): Buffer | undefined => {
    const b = f.withheld === undefined ? bytes.get(f.member) : undefined;
    return b && createHash('sha256').update(b).digest('hex') === f.sha256 ? b : undefined;
  };
  for (const d of deferred) {
    const before = captured(d.f);
    const held = d.f.withheld !== undefined ? HELD : '';
    if (d.how === 'rewritable') {
      const change = held
        ? `changed since the capture (${d.f.size} → ${d.live.size} bytes)`
        : describeChange(input.redacted, d.f, before, d.src, d.live);
      d.emit('BUNDLE_FILE_CHANGED', { file: d.f.rel }, `${held}${change}`);
      continue;
    }
    const diff = differenceAt(before, d.f, d.src);
    const where = diff ? `line ${diff.line}, column ${diff.column} (byte ${diff.offset})` : '';
    const at = diff
      ? `; first difference at ${where}: was ⟨${diff.was}⟩, now ⟨${diff.now}⟩`
      : held
        ? '; the bag holds no copy of it, so the differing line cannot be shown'
        : input.redacted
          ? '; the capture is redacted, so the differing line cannot be shown'
          : '';
    const msg =
      held +
      (d.how === 'shrank'
        ? `${d.what} shrank from ${d.f.size} to ${d.live.size} bytes${at}`
        : `${d.what} no longer starts with the ${d.f.size} captured bytes (live file: ${d.live.size} bytes)${at}`);
    d.emit('BUNDLE_NOT_APPEND_ONLY', { file: d.f.rel, ...(diff ? { line: diff.line } : {}) }, msg);
  }
  return { compared, proofs };
}
