/** The I/O glue of audit/validate: find sessions under the given paths, open them read-only, audit each. */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { auditSession, buildReport, runRootChecks, type AuditOptions, type SessionResult } from '../audit.js';
import type { CapturedSession } from '../checks/define-root.js';
import { detectorsFor, formatOf } from '../formats/registry.js';
import { grokHomeOf, readRelocations } from '../formats/grok/relocations.js';
import { summaryView } from '../formats/grok/summary-view.js';
import { lineageObserver, type LineageFacts } from '../lineage/facts.js';
import { buildGraph, type LineageGraph, type Relocation } from '../lineage/graph.js';
import type { AuditReport } from '../model/report.js';
import { discoverSessions, UsageError, type FoundSession } from '../read/discover.js';
import { fsSource } from '../read/source.js';
import { loadProfileBook } from '../sandbox/config.js';
import { ProfileBook } from '../sandbox/profiles.js';
import { readUserFileText } from './user-files.js';
import { auditInWorkers } from './audit-pool.js';
import { opaque } from '../read/discover.js';

/** The identity of a found session on disk: its directory, or for a file session the file it is shown by. */
export const sessionKey = (s: FoundSession): string => (s.members ? `${s.abs}\u0000${s.display.split('/').pop() ?? ''}\u0000${s.members.join('\u0000')}` : s.abs);

/** Sessions under the paths; `hint` (--format-hint) restricts detection to one format and forces single files to it. */
export function findSessions(paths: readonly string[], hint?: string): FoundSession[] {
  const seen = new Set<string>();
  const out: FoundSession[] = [];
  const detectors = detectorsFor(hint);
  for (const p of paths) {
    const found = discoverSessions(p, detectors);
    if (found.length === 0) {
      throw new UsageError(`${p}: no session found (expected a Grok session directory with summary.json or updates.jsonl, a Codex rollout-*.jsonl, a Claude Code <session>.jsonl, or a tree holding them${hint !== undefined ? `, of format ${hint}` : ''})`);
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
  /** The grok home holding relocations/ (default: found above a `sessions` root). */
  grokHome?: string;
  /** --format-hint: read sessions as this format only. */
  formatHint?: string;
}

export interface TreeResult {
  found: FoundSession[];
  results: SessionResult[];
  facts: LineageFacts[];
}

/** Audit one session and gather its lineage facts (undefined for a symlinked session directory). */
export function auditOne(found: FoundSession, options: AuditOptions): { result: SessionResult; facts?: LineageFacts } {
  const observer = lineageObserver(found);
  const source = fsSource(found);
  const result = auditSession(source, formatOf(found), options, [observer.run]);
  observer.facts.resumes = result.findings.filter((f) => f.code === 'TIME_RESUME_BOUNDARY').map((f) => f.location.line ?? 0);
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
}

/** Audit every session found under the paths, collecting lineage facts; results in discovery order. */
export function auditPaths(paths: readonly string[], options: AuditOptions, run: RunOptions = {}): TreeResult {
  const found = inShard(findSessions(paths, run.formatHint), run.shard);
  return collect(found, found.map((f, i) => {
    const r = auditOne(f, options);
    run.progress?.(i + 1, found.length);
    return r;
  }));
}

/** A stable 1/n of the sessions: by the session id's hash, so copies of one session land in the same shard. */
export function shardOf(id: string, count: number): number {
  return (createHash('sha256').update(id).digest().readUInt32BE(0) % count) + 1;
}

function inShard(found: FoundSession[], shard: RunOptions['shard']): FoundSession[] {
  return shard ? found.filter((f) => shardOf(f.id, shard.count) === shard.index) : found;
}

function collect(found: FoundSession[], outs: ReadonlyArray<{ result: SessionResult; facts?: LineageFacts }>): TreeResult {
  return { found, results: outs.map((o) => o.result), facts: outs.flatMap((o) => (o.facts ? [o.facts] : [])) };
}

/** The same as auditPaths, with the sessions spread over worker threads; identical results. */
export async function auditPathsParallel(paths: readonly string[], options: AuditOptions, run: RunOptions): Promise<TreeResult> {
  const found = inShard(findSessions(paths, run.formatHint), run.shard);
  const jobs = Math.min(run.jobs ?? 1, found.length);
  if (jobs <= 1) return auditPaths(paths, options, run);
  return collect(found, await auditInWorkers(found, options, jobs, run.progress));
}

/** Relocation journals of the grok homes above the sessions' roots (`root` = the sessions root, `path` = display path). */
function relocationsFor(sessions: ReadonlyArray<{ root: string; path: string }>, explicitHome?: string): Map<string, Relocation> {
  /** Absolute home → the home as the user's paths name it (deterministic in messages). */
  const homes = new Map<string, string>();
  if (explicitHome) homes.set(resolve(explicitHome), explicitHome);
  for (const f of sessions) {
    const home = grokHomeOf(f.root);
    if (home && !homes.has(home)) homes.set(home, dirname(dirname(dirname(f.path))));
  }
  const all = new Map<string, Relocation>();
  for (const [abs, shown] of [...homes].sort()) for (const [id, r] of readRelocations(abs, shown).journals) all.set(id, r);
  return all;
}

/** Sessions of an earlier capture, by id, with their recorded sandbox profile. */
function captured(path: string): Map<string, CapturedSession> {
  const out = new Map<string, CapturedSession>();
  for (const found of findSessions([path])) {
    const src = fsSource(found);
    const r = src.readFile('summary.json', 16 * 1024 * 1024);
    let profile: string | undefined;
    let ok = false;
    if (r.ok) {
      try {
        const v = summaryView(JSON.parse(r.value.bytes.toString('utf8')));
        ok = v !== undefined;
        profile = v?.sandboxProfile;
      } catch {
        ok = false;
      }
    }
    const c: CapturedSession = { id: found.id, path: found.display, hasSummary: ok };
    if (profile !== undefined) c.sandboxProfile = profile;
    if (!out.has(found.id)) out.set(found.id, c);
  }
  return out;
}

export function profileBook(files: readonly string[] = []): ProfileBook {
  if (!files.length) return new ProfileBook();
  try {
    return loadProfileBook(files.map((f) => ({ path: f, text: readUserFileText('--sandbox-config', f) })));
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--sandbox-config ${(e as Error).message}`);
  }
}

/** Sessions grouped by the sessions root they live in, in a stable order. */
export function byRoot(facts: readonly LineageFacts[]): Map<string, LineageFacts[]> {
  const m = new Map<string, LineageFacts[]>();
  for (const f of [...facts].sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0))) m.set(f.root, [...(m.get(f.root) ?? []), f]);
  return m;
}

/** Audit a tree: every session, then (for `audit`) the checks over each sessions root's lineage graph. */
export function auditTree(paths: readonly string[], options: AuditOptions, tree: TreeOptions = {}): { results: SessionResult[]; graphs: Map<string, LineageGraph> } {
  const prepared = prepareTree(tree);
  return finishTree(auditPaths(paths, options, tree.formatHint !== undefined ? { formatHint: tree.formatHint } : {}), options, tree, prepared);
}

export async function auditTreeParallel(paths: readonly string[], options: AuditOptions, tree: TreeOptions, run: RunOptions): Promise<{ results: SessionResult[]; graphs: Map<string, LineageGraph>; facts: LineageFacts[] }> {
  const prepared = prepareTree(tree);
  const audited = await auditPathsParallel(paths, options, tree.formatHint !== undefined ? { ...run, formatHint: tree.formatHint } : run);
  // A shard leaves the checks over the whole lineage graph to `merge`, which has every shard's facts.
  if (run.shard) return { results: audited.results, graphs: new Map(), facts: audited.facts };
  return { ...finishTree(audited, options, tree, prepared), facts: audited.facts };
}

/** `merge`: the root checks over all shards' sessions, as the unsharded run would have run them. */
export function finishMerged(results: SessionResult[], facts: LineageFacts[], options: AuditOptions, tree: TreeOptions): { results: SessionResult[]; graphs: Map<string, LineageGraph> } {
  return finishTree({ results, facts }, options, tree, prepareTree(tree));
}

/** What the root checks need, read (and validated) before any session is audited. */
function prepareTree(tree: TreeOptions): { profiles: ProfileBook; earlier?: Map<string, CapturedSession> } {
  if (tree.grokHome !== undefined) {
    let isDir = false;
    try {
      isDir = statSync(tree.grokHome).isDirectory();
    } catch {
      /* reported below */
    }
    if (!isDir) throw new UsageError(`--grok-home ${tree.grokHome}: no such directory (give the grok home that holds relocations/, e.g. ~/.grok)`);
  }
  const profiles = profileBook(tree.sandboxConfig);
  return tree.against !== undefined ? { profiles, earlier: captured(tree.against) } : { profiles };
}

function finishTree({ results, facts }: Pick<TreeResult, 'results' | 'facts'>, options: AuditOptions, tree: TreeOptions, { profiles, earlier }: ReturnType<typeof prepareTree>): { results: SessionResult[]; graphs: Map<string, LineageGraph> } {
  const graphs = new Map<string, LineageGraph>();
  if (options.command === 'audit') {
    const relocations = relocationsFor(facts, tree.grokHome);
    for (const [root, inRoot] of byRoot(facts)) {
      const g = buildGraph(inRoot, relocations);
      graphs.set(root, g);
      runRootChecks(results, g, profiles, options, earlier);
    }
  }
  return { results, graphs };
}

export function runAudit(paths: readonly string[], options: AuditOptions, tree: TreeOptions = {}): AuditReport {
  return buildReport(auditTree(paths, options, tree).results, options);
}
