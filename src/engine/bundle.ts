/**
 * The I/O glue of `bundle`: find the sessions, audit them, build their timelines, plan and write the bag.
 * Everything that goes into the bag is a function of the input bytes, the options and the bagging date (the day
 * the bag is made, UTC, unless --bagging-date or SOURCE_DATE_EPOCH pins it): no input order, no time zone.
 */
import type { KeyObject } from 'node:crypto';
import { existsSync, lstatSync } from 'node:fs';
import { basename, relative, resolve, isAbsolute } from 'node:path';
import { buildBag, type BundledSession } from '../bundle/build.js';
import { privateKeyFromPem } from '../bundle/dsse.js';
import { ChangedDuringBundling } from '../bundle/payload.js';
import { redactor, type Redactor } from '../bundle/redact.js';
import { BagLayout } from '../bundle/layout.js';
import { disagreement } from '../bundle/consistency.js';
import { userDetectors } from '../secrets/user-patterns.js';
import { entryDate, formatOf as archiveFormat, writeBag, type BundleFormat } from '../bundle/write.js';
import type { StoreProvenance } from '../bundle/provenance.js';
import { FORMATS, formatOf } from '../formats/registry.js';
import type { Artifact } from '../model/session.js';
import type { FormatModule } from '../formats/types.js';
import { matchesHomePattern } from '../read/home-files.js';
import { DEFAULT_MAX_LINE_BYTES } from '../model/records.js';
import { fsSource } from '../read/source.js';
import type { SessionSource } from '../model/source.js';
import { byteOrder } from '../model/order.js';
import { renderJson } from '../report/json.js';
import { renderTimelineJsonl } from '../report/timeline.js';
import { buildTimeline } from './timeline.js';
import type { TimelineEvent } from '../timeline/model.js';
import { UsageError } from '../errors.js';
import { ReadError } from '../read/open-regular.js';
import { checkOutputPath } from './output.js';
import { homeSource } from './home-audit.js';
import { auditTree, findSessions } from './tree.js';
import { buildReport } from './report.js';
import type { LineageGraph } from '../lineage/graph.js';
import { readUserFileText } from './user-files.js';
import { opaque } from '../model/found.js';

export interface BundleRequest {
  paths: readonly string[];
  out: string;
  redact: boolean;
  redactPatterns: readonly string[];
  signKey?: string;
  keyId?: string;
  baggingDate?: string;
  force: boolean;
  /** --format-hint: read the paths as sessions of this format only. */
  formatHint?: string;
  /**
   * The path the bag records for a path it was made from (Source-Path, the sessions' paths in the custody
   * statement and the audit report): `bundle --from-store` writes a session out below a temporary directory and
   * records the path the store holds.
   */
  shownAs?: (path: string) => string;
  /** Where the sessions came from when written out of the evidence store (`bundle --from-store`). */
  provenance?: StoreProvenance;
  /**
   * Called between the passes (tests change the evidence there): after discovery, after the analysis (audit and
   * timelines), and after the payload pass, before the archive is written.
   */
  between?: { found?: () => void; analysed?: () => void; planned?: () => void };
}

export interface BundleOutcome {
  out: string;
  format: BundleFormat;
  sessions: number;
  /** Agents' homes whose own files were bagged beside the sessions. */
  homes: number;
  files: number;
  bytes: number;
  notArchived: Array<{ bagPath: string; reason: string }>;
  manifestSha256: string;
  redactions?: Record<string, number>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function parseBaggingDate(flag: string | undefined, env: string | undefined): string | undefined {
  if (flag !== undefined) {
    if (!DATE.test(flag) || Number.isNaN(Date.parse(`${flag}T00:00:00Z`)))
      throw new UsageError(`--bagging-date ${JSON.stringify(flag)}: expected YYYY-MM-DD`);
    return flag;
  }
  if (env !== undefined && env !== '') {
    if (!/^\d+$/.test(env))
      throw new UsageError(`SOURCE_DATE_EPOCH ${JSON.stringify(env)}: expected seconds since the epoch`);
    return new Date(Number(env) * 1000).toISOString().slice(0, 10);
  }
  return undefined;
}

/** The user's `--redact-pattern`s, checked once (RE2 syntax, never matching the empty string) or refused. */
export function parseRedactPatterns(list: readonly string[]): string[] {
  userDetectors(list);
  return [...list];
}

function loadSignKey(path: string): KeyObject {
  const pem = readUserFileText('--sign-key', path);
  try {
    return privateKeyFromPem(pem);
  } catch (e) {
    throw new UsageError(`--sign-key ${path}: ${(e as Error).message}`);
  }
}

/** The day the bag is made, in UTC (the default Bagging-Date: RFC 8493 §2.2.2, the date the bag was prepared). */
export const today = (now = new Date()): string => now.toISOString().slice(0, 10);

/**
 * Bag-Group-Identifier: the working directory every session records for itself (its lineage facts), when they all
 * record the same one (a reader can tell which project the bag is of); none otherwise.
 */
function commonCwd(graphs: ReadonlyMap<string, LineageGraph>): string | undefined {
  const cwds = new Set<string>();
  for (const g of graphs.values())
    for (const n of g.nodes) {
      if (n.cwd === undefined || n.cwd === '') return undefined;
      cwds.add(n.cwd);
    }
  return cwds.size === 1 ? [...cwds][0] : undefined;
}

/** The session's timeline as JSONL. */
function timelineOf(src: SessionSource): Buffer | undefined {
  if (opaque(src.found)) return undefined;
  const format = formatOf(src.found);
  const events: TimelineEvent[] = [];
  // A session without a readable log has no timeline.
  const end = buildTimeline({ source: src, format }, { limits: { maxLineBytes: DEFAULT_MAX_LINE_BYTES } }, (e) => {
    events.push(e);
  });
  if (!end.hasLog) return undefined;
  return Buffer.from(renderTimelineJsonl(events), 'utf8');
}

const inside = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

export async function runBundle(req: BundleRequest): Promise<BundleOutcome> {
  const format = archiveFormat(req.out);
  const out = checkOutputPath(req.out, req.paths);
  for (const p of req.paths) {
    if (inside(resolve(p), out)) throw new UsageError(`-o ${req.out}: an input (${p}) is inside the output`);
  }
  if (existsSync(out) || isLink(out)) {
    if (!req.force) throw new UsageError(`-o ${req.out}: already exists (use --force to replace it)`);
    if (isLink(out)) throw new UsageError(`-o ${req.out}: is a symlink; refusing to replace it`);
    if (lstatSync(out).isDirectory() !== (format === 'dir') || (format === 'dir' && !existsSync(`${out}/bagit.txt`))) {
      throw new UsageError(
        `-o ${req.out}: exists and is not a ${format === 'dir' ? 'bag directory' : 'file'}; refusing to replace it`,
      );
    }
  }
  const custom = parseRedactPatterns(req.redactPatterns);
  if (custom.length && !req.redact) throw new UsageError('--redact-pattern needs --redact');
  const signKey = req.signKey !== undefined ? loadSignKey(req.signKey) : undefined;
  if (req.keyId !== undefined && !signKey) throw new UsageError('--key-id needs --sign-key');
  const envDate = process.env.SOURCE_DATE_EPOCH;
  const baggingDate = parseBaggingDate(req.baggingDate, envDate) ?? today();
  const shown = req.shownAs ?? ((p: string) => p);

  // Homes met are listed (a home whose sessions are all gone is bundled for what its own files hold).
  const found = findSessions(req.paths, req.formatHint, undefined, []).sort((a, b) => byteOrder(a.display, b.display));
  const layout = new BagLayout();
  const sessions: BundledSession[] = found.map((f) => {
    const agent = formatOf(f).name;
    const source = fsSource(f);
    return {
      id: f.id,
      path: shown(f.display),
      bagDir: layout.sessionDir(agent, f.id),
      agent,
      ...(f.groupName !== undefined ? { group: f.groupName } : {}),
      source,
      artifacts: formatOf(f).classify(source.inventory),
    };
  });
  sessions.sort((a, b) => byteOrder(a.bagDir, b.bagDir));

  req.between?.found?.();
  const audited = auditTree(
    req.paths,
    { command: 'audit' },
    req.formatHint !== undefined ? { formatHint: req.formatHint } : {},
  );
  const report = buildReport(audited.results, 'audit');
  // The agents' homes the audit judged: their own files (histories, indexes) are evidence and go in the bag too.
  for (const h of audited.homes) {
    if (!report.sessions.some((r) => r.kind === 'home' && r.path === h.display)) continue;
    const source = homeSource(h);
    const module: FormatModule | undefined = FORMATS.find((f) => f.name === h.format);
    const withheld = module?.home?.withheld ?? [];
    const artifacts = new Map<string, Artifact>();
    for (const rel of h.files)
      if (withheld.some((w) => matchesHomePattern(rel, w)))
        artifacts.set(rel, { path: rel, kind: 'home-file', role: 'withheld' });
    sessions.push({
      id: basename(h.display),
      path: shown(h.display),
      bagDir: layout.sessionDir(h.format, 'home'),
      agent: h.format,
      kind: 'home',
      source,
      artifacts,
    });
  }
  sessions.sort((a, b) => byteOrder(a.bagDir, b.bagDir));
  if (req.shownAs) {
    for (const s of report.sessions) {
      s.path = shown(s.path);
      if (s.dir !== undefined) s.dir = shown(s.dir);
    }
    for (const f of report.findings) f.sessionPath = shown(f.sessionPath);
  }
  const tagFiles = new Map<string, Buffer>([['audit-report.json', Buffer.from(renderJson(report), 'utf8')]]);
  for (const s of sessions) {
    if (s.kind === 'home') continue;
    const t = timelineOf(s.source);
    if (t) tagFiles.set(`timelines/${s.bagDir}.jsonl`, t);
  }
  req.between?.analysed?.();
  const r: Redactor | undefined = req.redact ? redactor(custom) : undefined;
  const group = commonCwd(audited.graphs);
  const bag = buildBag({
    sources: req.paths.map(shown).sort(byteOrder),
    sessions,
    baggingDate,
    ...(group !== undefined ? { groupIdentifier: group } : {}),
    ...(req.provenance ? { provenance: req.provenance } : {}),
    ...(r ? { redactor: r, customPatterns: custom } : {}),
    ...(signKey ? { signKey } : {}),
    ...(req.keyId !== undefined ? { keyId: req.keyId } : {}),
    tagFiles,
  });
  // The report, timelines and inventory must describe the bytes the payload holds.
  const differs = disagreement(report, sessions, bag.payload, bag.withheld);
  if (differs !== undefined)
    throw new UsageError(
      `${differs}: the bag's analysis would not match its payload; bundle a quiescent copy (the agent may still ` +
        'be running)',
    );
  req.between?.planned?.();
  try {
    await writeBag(bag.entries, out, format, entryDate(baggingDate), req.force);
  } catch (e) {
    if (e instanceof ChangedDuringBundling)
      throw new UsageError(`${e.message}; bundle a quiescent copy (the agent may still be running)`);
    // A payload file that cannot be read now (or is no longer the file walked: a directory swapped mid-run).
    if (e instanceof ReadError) throw new UsageError(`a payload file ${e.message}: the bag was not written`);
    if ((e as NodeJS.ErrnoException).code)
      throw new UsageError(`-o ${req.out}: cannot write (${(e as NodeJS.ErrnoException).code})`);
    throw e;
  }
  const outcome: BundleOutcome = {
    out: req.out,
    format,
    sessions: sessions.filter((s) => s.kind !== 'home').length,
    homes: sessions.filter((s) => s.kind === 'home').length,
    files: bag.payload.length,
    bytes: bag.payload.reduce((n, p) => n + p.size, 0),
    notArchived: bag.notArchived.map((n) => ({ bagPath: n.bagPath, reason: n.reason })),
    manifestSha256: bag.identity.manifestSha256,
  };
  if (r) outcome.redactions = Object.fromEntries([...r.counts].sort(([a], [b]) => byteOrder(a, b)));
  return outcome;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
