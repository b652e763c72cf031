/**
 * The I/O glue of `verify`: read the bag (directory or archive, never extracted), verify it, optionally compare
 * it with the live session directories, and shape the result as a report (command "verify").
 */
import type { FoundHome } from '../model/found.js';
import type { KeyObject } from 'node:crypto';
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { basename } from 'node:path';
import { standaloneFinding } from '../checks/findings.js';
import { buildReport, type SessionResult } from './report.js';
import { compareWithLive, type Proof } from '../bundle/against.js';
import { capturedSessions } from '../bundle/captured-sessions.js';
import { keyFingerprint, publicKeyFromPem } from '../bundle/dsse.js';
import type { BagContents } from '../bundle/bag-contents.js';
import { readBag, readMembers, sniffArchive } from '../bundle/read.js';
import { verifyBag } from '../bundle/verify.js';
import type { Finding } from '../model/finding.js';
import type { AuditReport } from '../model/report.js';
import { UsageError } from '../errors.js';
import { homeAsFound } from './home-audit.js';
import { findSessions } from './tree.js';
import { readUserFileText } from './user-files.js';
import { bagVerdict, liveVerdict, provenanceOf } from './verdict.js';
import type { SignatureVerdict } from '../model/verdict.js';

export interface VerifyRequest {
  bag: string;
  key?: string;
  against?: string;
}

export interface VerifyOutcome {
  report: AuditReport;
  contents?: BagContents;
  /** Live sessions compared with (for --against). */
  compared?: number;
  /** What the comparison proved of each file that holds (--against). */
  proofs?: Proof[];
}

function loadKey(path: string): KeyObject {
  const pem = readUserFileText('--key', path);
  try {
    return publicKeyFromPem(pem);
  } catch (e) {
    throw new UsageError(`--key ${path}: ${(e as Error).message}`);
  }
}

/**
 * A file that is no archive (by its first bytes, whatever its name), or a directory with no bagit.txt, no
 * manifest and no data/: not a bag at all, one line (a damaged bag still gets its findings).
 */
function notABag(path: string, isDir: boolean): void {
  if (isDir) {
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (e) {
      throw new UsageError(`${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (!names.some((n) => n === 'bagit.txt' || n === 'data' || /^(tag)?manifest-[a-z0-9]+\.txt$/.test(n)))
      throw new UsageError(`${path}: not a bag (no bagit.txt, manifest or data/ directory in it)`);
    return;
  }
  let kind: string | undefined;
  try {
    kind = sniffArchive(path);
  } catch (e) {
    throw new UsageError(`${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!kind) throw new UsageError(`${path}: not a bag (not a directory, nor a zip, tar or tar.gz archive)`);
}

export async function runVerify(req: VerifyRequest): Promise<VerifyOutcome> {
  let st: Stats;
  try {
    st = lstatSync(req.bag);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `${req.bag}: ${code === 'ENOENT' ? 'no such file or directory' : `cannot be read (${code ?? 'error'})`}`,
    );
  }
  if (st.isSymbolicLink()) throw new UsageError(`${req.bag}: is a symlink; give the bag itself`);
  if (!st.isDirectory() && !st.isFile()) throw new UsageError(`${req.bag}: not a directory or an archive file`);
  notABag(req.bag, st.isDirectory());
  const key = req.key !== undefined ? loadKey(req.key) : undefined;
  const homes: FoundHome[] = [];
  const live = req.against !== undefined ? findSessions([req.against], undefined, undefined, homes) : undefined;
  const liveHomes = homes.filter((h) => h.files.length > 0).map(homeAsFound);
  const isDir = st.isDirectory();
  const id = basename(req.bag.replace(/\/+$/, '')) || req.bag;
  const findings: Finding[] = [];
  const ctx = { id, path: req.bag, findings };
  let contents: BagContents | undefined;
  try {
    contents = await readBag(req.bag, isDir);
  } catch (e) {
    findings.push(
      standaloneFinding(
        'bundle',
        'BUNDLE_INVALID',
        'error',
        id,
        req.bag,
        { file: '' },
        `cannot be read as a bag: ${(e as Error).message}`,
      ),
    );
  }
  const results: SessionResult[] = [];
  let compared: number | undefined;
  let proofs: Proof[] | undefined;
  let signature: SignatureVerdict = { present: false, verified: false };
  let predicate: Record<string, unknown> | undefined;
  const againstFindings: Finding[] = [];
  if (contents) {
    const v = verifyBag(contents, ctx, key);
    signature = { ...v.signature };
    predicate = v.statement?.predicate;
    if (live) {
      const sessions = capturedSessions(contents, v.statement);
      if (!sessions)
        throw new UsageError(
          `--against: ${req.bag} has no readable custody statement naming its sessions (was it made by ` +
            `session-audit bundle?)`,
        );
      const cmp = await compareWithLive(
        {
          contents,
          sessions,
          redacted: v.redacted,
          live,
          liveHomes,
          members: (names) => readMembers(req.bag, isDir, names),
        },
        againstFindings,
      );
      compared = cmp.compared;
      proofs = cmp.proofs;
      if (compared === 0)
        throw new UsageError(
          `--against ${req.against!}: none of the bag's sessions (${sessions.map((s) => s.id).join(', ')}) is there`,
        );
      const byPath = new Map<string, Finding[]>();
      for (const f of againstFindings) byPath.set(f.sessionPath, [...(byPath.get(f.sessionPath) ?? []), f]);
      for (const s of live)
        if (sessions.some((c) => c.id === s.id) && !byPath.has(s.display)) byPath.set(s.display, []);
      for (const [path, list] of byPath) {
        const first = list[0];
        results.push({
          session: {
            id: first?.session ?? basename(path),
            path,
            format: 'live session',
            files: [],
            findings: { error: 0, warning: 0, note: 0 },
          },
          findings: list,
          toolErrors: [],
        });
      }
    }
  }
  const files = contents
    ? [...contents.members.values()].map((m) => ({
        path: m.name,
        type: 'file' as const,
        size: m.size,
        sha256: m.digests.sha256,
      }))
    : [];
  results.push({
    session: {
      id,
      path: req.bag,
      format: contents ? `bagit (${contents.kind})` : 'bagit',
      files,
      findings: { error: 0, warning: 0, note: 0 },
    },
    findings,
    toolErrors: [],
  });
  if (key) signature.fingerprint = keyFingerprint(key);
  const report = buildReport(results, 'verify');
  // The verdict is of the findings the report keeps (its order is the report's, not the order they were found in).
  const own = report.findings.filter((f) => f.sessionPath === req.bag);
  const verdict = bagVerdict(own, signature);
  if (compared !== undefined)
    verdict.live = liveVerdict(
      report.findings.filter((f) => f.sessionPath !== req.bag),
      new Set(report.sessions.filter((s) => s.path !== req.bag).map((s) => s.path)).size,
      verdict,
    );
  const provenance = provenanceOf(predicate);
  if (provenance) verdict.provenance = provenance;
  report.verdict = verdict;
  const out: VerifyOutcome = { report };
  if (contents) out.contents = contents;
  if (compared !== undefined) out.compared = compared;
  if (proofs) out.proofs = proofs;
  return out;
}
