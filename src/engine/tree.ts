/** Auditing a tree: find sessions under the given paths, open them read-only, audit each, then the root checks. */
import { createHash } from 'node:crypto';
import type { RootCheck, TreeInputs } from '../checks/define-root.js';
import { CHECKS } from '../checks/registry.js';
import { UsageError } from '../errors.js';
import { detectorsFor, FORMATS, formatOf, sessionNouns } from '../formats/registry.js';
import type { FormatModule } from '../formats/types.js';
import { lineageObserver, type LineageFacts } from '../lineage/facts.js';
import { buildGraph, type LineageGraph, type Relocation } from '../lineage/graph.js';
import { FLAG_CODES } from '../lineage/view.js';
import { opaque, type FoundHome, type FoundSession } from '../model/found.js';
import { notRead, type NotRead } from '../model/not-read.js';
import type { AuditReport } from '../model/report.js';
import type { SessionObserver } from '../model/session.js';
import { discoverSessions } from '../read/discover.js';
import { describeTop } from '../read/top-entries.js';
import { escapeText } from '../report/escape.js';
import { fsSource } from '../read/source.js';
import { auditSession, rootChecks, runRootChecks, type AuditOptions } from './audit-session.js';
import { auditHome, homeChecksFor } from './home-audit.js';
import type { GoneSession } from '../checks/define-home.js';
import { AuditPool } from './parallel/pool.js';
import { buildReport, type SessionResult } from './report.js';
import { readUserFileText } from './user-files.js';

/** The identity of a found session on disk: its directory, or for a file session the file it is shown by. */
export const sessionKey = (s: FoundSession): string =>
  s.members ? `${s.abs}\u0000${s.display.split('/').pop() ?? ''}\u0000${s.members.join('\u0000')}` : s.abs;

/**
 * Sessions under the paths; `hint` (--format-hint) restricts detection to one format and forces single files to it.
 * `early` sees each session as discovery meets it (walk order, before the sort; a session met twice, once), so its
 * audit can start before the walk ends.
 */
export function findSessions(
  paths: readonly string[],
  hint?: string,
  early?: (s: FoundSession) => void,
  homes?: FoundHome[],
): FoundSession[] {
  const seen = new Set<string>();
  const out: FoundSession[] = [];
  const detectors = detectorsFor(hint);
  const met = new Set<string>();
  const meet = early
    ? (s: FoundSession): void => {
        const key = sessionKey(s);
        if (met.has(key)) return;
        met.add(key);
        early(s);
      }
    : undefined;
  for (const p of paths) {
    const metHomes: FoundHome[] = [];
    const found = discoverSessions(p, detectors, meet, homes ? metHomes : undefined);
    for (const h of metHomes) if (!homes!.some((x) => x.abs === h.abs && x.format === h.format)) homes!.push(h);
    // A home whose sessions are all gone still holds what its history knows of them: audited, not refused.
    if (found.length === 0 && metHomes.length === 0) {
      throw new UsageError(
        `${p}: no session found (expected ${sessionNouns(hint)}, or a tree holding them` +
          `${hint !== undefined ? `, of format ${hint}` : ''}); ${describeTop(p, escapeText, detectors.homeRoots)}`,
      );
    }
    for (const s of found) {
      const key = sessionKey(s);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(s);
    }
  }
  return out;
}

export interface TreeOptions {
  /** sandbox.toml files defining custom profiles. */
  sandboxConfig?: readonly string[];
  /** An earlier capture of the same sessions. */
  against?: string;
  /** An agent home given on the command line (`--grok-home`: its relocation journals decide between copies). */
  home?: string;
  /** --format-hint: read sessions as this format only. */
  formatHint?: string;
}

export interface TreeResult {
  found: FoundSession[];
  /** The agents' homes met that hold their own files (audited after the sessions, against them). */
  homes: FoundHome[];
  /** Sessions the homes' files know whose logs are gone, with the home and its format. */
  gone: Array<GoneSession & { home: string; format: string }>;
  results: SessionResult[];
  facts: LineageFacts[];
}

/** Audit one session and gather its lineage facts (undefined for a session that is recorded, never opened). */
export function auditOne(
  found: FoundSession,
  options: AuditOptions,
  observers: readonly SessionObserver[] = [],
): { result: SessionResult; facts?: LineageFacts } {
  const observer = lineageObserver(found);
  const source = fsSource(found);
  const result = auditSession(source, formatOf(found), options, [observer.run, ...observers]);
  observer.facts.resumes = result.findings
    .filter((f) => f.code === 'TIME_RESUME_BOUNDARY')
    .map((f) => f.location.line ?? 0);
  return !opaque(found) ? { result, facts: observer.facts } : { result };
}

export interface RunOptions {
  /** Sessions audited in parallel (worker threads); 1 = in this thread. */
  jobs?: number;
  /** Audit only shard `index` of `count` (1-based), chosen by a hash of the session id. */
  shard?: { index: number; count: number };
  /** --format-hint: read sessions as this format only. */
  formatHint?: string;
  /** Called after each session (done, total). */
  progress?: (done: number, total: number) => void;
  /** More observers of each session's audit, made for it (in this thread only: `jobs` must be 1). */
  observe?: (found: FoundSession) => readonly SessionObserver[];
}

/** Audit every session found under the paths, collecting lineage facts; results in discovery order. */
export function auditPaths(paths: readonly string[], options: AuditOptions, run: RunOptions = {}): TreeResult {
  const homes: FoundHome[] = [];
  const all = findSessions(paths, run.formatHint, undefined, homes);
  const found = inShard(all, run.shard);
  return withHomes(
    auditFound(found, (f) => auditOne(f, options, run.observe?.(f)), run.progress),
    homes,
    all,
    options,
    run,
  );
}

/**
 * The homes' audits, against every session found (a shard's too: the homes go to shard 1 alone), added to the
 * results after the sessions'.
 */
function withHomes(
  audited: Omit<TreeResult, 'homes' | 'gone'>,
  homes: FoundHome[],
  all: readonly FoundSession[],
  options: AuditOptions,
  run: RunOptions,
): TreeResult {
  const gone: TreeResult['gone'] = [];
  if (!run.shard || run.shard.index === 1)
    for (const h of homes) {
      if (homeChecksFor(options, h.format).length === 0) continue;
      const r = auditHome(h, all, options);
      audited.results.push(r.result);
      gone.push(...r.gone.map((g) => ({ ...g, home: h.display, format: h.format })));
    }
  return { ...audited, homes, gone };
}

function auditFound(
  found: FoundSession[],
  audit: (f: FoundSession) => { result: SessionResult; facts?: LineageFacts },
  progress: RunOptions['progress'],
): Omit<TreeResult, 'homes' | 'gone'> {
  return collect(
    found,
    found.map((f, i) => {
      const r = audit(f);
      progress?.(i + 1, found.length);
      return r;
    }),
  );
}

/** A stable 1/n of the sessions: by the session id's hash, so copies of one session land in the same shard. */
export function shardOf(id: string, count: number): number {
  return (createHash('sha256').update(id).digest().readUInt32BE(0) % count) + 1;
}

function inShard(found: FoundSession[], shard: RunOptions['shard']): FoundSession[] {
  return shard ? found.filter((f) => shardOf(f.id, shard.count) === shard.index) : found;
}

function collect(
  found: FoundSession[],
  outs: ReadonlyArray<{ result: SessionResult; facts?: LineageFacts }>,
): Omit<TreeResult, 'homes' | 'gone'> {
  return { found, results: outs.map((o) => o.result), facts: outs.flatMap((o) => (o.facts ? [o.facts] : [])) };
}

/**
 * The same as auditPaths, with the sessions spread over worker threads; identical results. The workers start first
 * and are given sessions while this thread is still walking the paths.
 */
export async function auditPathsParallel(
  paths: readonly string[],
  options: AuditOptions,
  run: RunOptions,
): Promise<TreeResult> {
  const wanted = run.jobs ?? 1;
  if (wanted <= 1) return auditPaths(paths, options, run);
  const pool = new AuditPool(options, wanted - 1);
  let found: FoundSession[];
  let all: FoundSession[];
  const homes: FoundHome[] = [];
  try {
    const shard = run.shard;
    all = findSessions(
      paths,
      run.formatHint,
      (s) => {
        if (!shard || shardOf(s.id, shard.count) === shard.index) pool.offer(s);
      },
      homes,
    );
    found = inShard(all, shard);
  } catch (e) {
    await pool.stop();
    throw e;
  }
  return withHomes(
    collect(found, await pool.finish(found, (f) => auditOne(f, options), run.progress)),
    homes,
    all,
    options,
    run,
  );
}

/**
 * The per-session checks `lineage` needs: those that can emit a code its view shows (a flag, a resume boundary).
 * The rest of an audit is work the lineage never shows (`AuditOptions.only`); the root checks all run.
 */
export function lineageCheckIds(): string[] {
  const shown = new Set<string>([...FLAG_CODES, 'TIME_RESUME_BOUNDARY']);
  const all = [...CHECKS, ...(FORMATS as readonly FormatModule[]).flatMap((f) => f.checks)];
  return [...new Set(all.filter((c) => Object.keys(c.codes).some((k) => shown.has(k))).map((c) => c.id))];
}

/** Sessions grouped by the sessions root they live in, in a stable order. */
export function byRoot(facts: readonly LineageFacts[]): Map<string, LineageFacts[]> {
  const m = new Map<string, LineageFacts[]>();
  for (const f of [...facts].sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0))) {
    const list = m.get(f.root);
    if (list) list.push(f);
    else m.set(f.root, [f]);
  }
  return m;
}

interface PreparedTree {
  checks: Array<{ check: RootCheck; prepared: unknown }>;
}

/** What the root checks need, read (and validated) before any session is audited. */
function prepareTree(tree: TreeOptions): PreparedTree {
  const inputs: TreeInputs = {
    sandboxConfigs: (tree.sandboxConfig ?? []).map((f) => ({ path: f, text: readUserFileText('--sandbox-config', f) })),
    ...(tree.against !== undefined ? { earlier: findSessions([tree.against]).map((f) => fsSource(f)) } : {}),
  };
  return { checks: rootChecks(FORMATS).map((check) => ({ check, prepared: check.prepare?.(inputs) })) };
}

/** Relocation journals of every format, for the sessions under the audited roots. */
function relocationsFor(facts: readonly LineageFacts[], home: string | undefined): Map<string, Relocation> {
  const all = new Map<string, Relocation>();
  for (const f of FORMATS as readonly FormatModule[]) {
    if (!f.relocations) continue;
    const mine = facts.filter((x) => x.format === f.name);
    for (const [id, r] of f.relocations(mine, home)) all.set(id, r);
  }
  return all;
}

function finishTree(
  { results, facts, found }: Pick<TreeResult, 'results' | 'facts'> & { found?: FoundSession[] },
  options: AuditOptions,
  tree: TreeOptions,
  prepared: PreparedTree,
): { results: SessionResult[]; graphs: Map<string, LineageGraph>; notRead: NotRead[] } {
  const graphs = new Map<string, LineageGraph>();
  if (options.command === 'audit') {
    const relocations = relocationsFor(facts, tree.home);
    for (const [root, inRoot] of byRoot(facts)) {
      const g = buildGraph(inRoot, relocations);
      graphs.set(root, g);
      runRootChecks(results, g, prepared.checks, options);
    }
  }
  return { results, graphs, notRead: notRead(found ?? []) };
}

/** Audit a tree: every session, then (for `audit`) the checks over each sessions root's lineage graph. */
export function auditTree(
  paths: readonly string[],
  options: AuditOptions,
  tree: TreeOptions = {},
  run: Pick<RunOptions, 'observe' | 'progress'> = {},
): {
  results: SessionResult[];
  graphs: Map<string, LineageGraph>;
  notRead: NotRead[];
  gone: TreeResult['gone'];
  homes: FoundHome[];
  /** Every session found under the paths. */
  found: FoundSession[];
} {
  const prepared = prepareTree(tree);
  const audited = auditPaths(paths, options, {
    ...run,
    ...(tree.formatHint !== undefined ? { formatHint: tree.formatHint } : {}),
  });
  return {
    ...finishTree(audited, options, tree, prepared),
    gone: audited.gone,
    homes: audited.homes,
    found: audited.found,
  };
}

export async function auditTreeParallel(
  paths: readonly string[],
  options: AuditOptions,
  tree: TreeOptions,
  run: RunOptions,
): Promise<{ results: SessionResult[]; graphs: Map<string, LineageGraph>; facts: LineageFacts[]; notRead: NotRead[] }> {
  const prepared = prepareTree(tree);
  const audited = await auditPathsParallel(
    paths,
    options,
    tree.formatHint !== undefined ? { ...run, formatHint: tree.formatHint } : run,
  );
  // A shard leaves the checks over the whole lineage graph to `merge`, which has every shard's facts.
  if (run.shard) return { results: audited.results, graphs: new Map(), facts: audited.facts, notRead: [] };
  return { ...finishTree(audited, options, tree, prepared), facts: audited.facts };
}

/** `merge`: the root checks over all shards' sessions, as the unsharded run would have run them. */
export function finishMerged(
  results: SessionResult[],
  facts: LineageFacts[],
  options: AuditOptions,
  tree: TreeOptions,
): { results: SessionResult[]; graphs: Map<string, LineageGraph> } {
  return finishTree({ results, facts }, options, tree, prepareTree(tree));
}

export function runAudit(paths: readonly string[], options: AuditOptions, tree: TreeOptions = {}): AuditReport {
  return buildReport(auditTree(paths, options, tree).results, options.command);
}
