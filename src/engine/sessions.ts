/**
 * `sessions`: the list a reviewer starts from. One audit pass per session (the tree's, root checks included, so its
 * findings are the audit's) with one more observer beside the checks: what the session records about itself (its
 * identity document: project, creation and update times), the prompt turns its agent counts, and its tool calls
 * paired as `pairs` pairs them. Nothing here knows an agent: every fact comes through the normalized model.
 */
import { SEVERITY_RANK, type Severity } from '../model/finding.js';
import type { SessionRow } from '../model/session-row.js';
import type { FoundSession } from '../model/found.js';
import { IDENTITY_KIND, type SessionIdentity } from '../model/identity.js';
import type { NotRead } from '../model/not-read.js';
import type { ToolError } from '../model/report.js';
import { byteOrder } from '../model/order.js';
import type { SessionObserver } from '../model/session.js';
import { formatOf } from '../formats/registry.js';
import { classifyPairs } from '../pairing/classify.js';
import { PairingCollector } from '../pairing/collect.js';
import type { PairStatus } from '../pairing/pairing-result.js';
import { compareFindings } from '../checks/findings.js';
import { auditTree } from './tree.js';

export type { SessionRow } from '../model/session-row.js';

export interface SessionFilters {
  /** Epoch ms, inclusive, on the start time (a session without one is left out when a bound is given). */
  since?: number;
  until?: number;
  /** Format names; empty: every agent. */
  agents?: readonly string[];
  /**
   * An absolute path: the project is that directory or inside it; anything else: a substring of the project.
   */
  project?: string;
}

/** Pair statuses that mean a call did not run to a real result. */
const NOT_ANSWERED: ReadonlySet<PairStatus> = new Set<PairStatus>(['synthetic', 'unanswered', 'interrupted']);

interface Tally {
  identity?: SessionIdentity;
  first?: number;
  last?: number;
  prompts: number;
  toolCalls: number;
  failedCalls: number;
}

/**
 * The observer of one session's audit: identity, times, prompt turns, and the calls paired at its end (the pairing's
 * tables are dropped then: a tree of many sessions holds one small tally each).
 */
function tallyObserver(found: FoundSession): { run: SessionObserver; tally: Tally } {
  const dialect = formatOf(found).pairing;
  const tally: Tally = { prompts: 0, toolCalls: 0, failedCalls: 0 };
  const pairing = new PairingCollector(dialect);
  /** Calls whose result or log line says they failed. */
  const failed = new Set<string>();
  const run: SessionObserver = {
    doc({ kind, value }) {
      if (kind === IDENTITY_KIND && typeof value === 'object' && value !== null)
        tally.identity = value as SessionIdentity;
    },
    event(e) {
      pairing.event(e);
      if (e.opensTurn && e.recovered !== true) tally.prompts++;
      if (e.toolStatus === 'failed' && e.toolCallId !== undefined) failed.add(e.toolCallId);
      if (e.timeMs !== undefined && Number.isFinite(e.timeMs)) {
        if (tally.first === undefined || e.timeMs < tally.first) tally.first = e.timeMs;
        if (tally.last === undefined || e.timeMs > tally.last) tally.last = e.timeMs;
      }
    },
    chat: (c) => pairing.chat(c),
    fileEnd(f) {
      if (f.file === dialect.toolLog) pairing.logEnd(f.dead);
    },
    end() {
      for (const r of classifyPairs(pairing, dialect).rows) {
        if (r.status === 'orphan result') continue;
        tally.toolCalls++;
        if (NOT_ANSWERED.has(r.status) || r.logTerminal?.status === 'failed' || failed.has(r.id)) tally.failedCalls++;
      }
    },
  };
  return { run, tally };
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/** A recorded time as ISO 8601 UTC, or undefined when it does not parse. */
function recorded(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : ms;
}

function rowOf(
  session: { id: string; format: string; path: string },
  tally: Tally | undefined,
  findings: SessionRowFindings,
): SessionRow {
  const created = recorded(tally?.identity?.createdAt);
  const updated = recorded(tally?.identity?.updatedAt);
  const ends = [updated, tally?.last].filter((t): t is number => t !== undefined);
  const cwd = tally?.identity?.cwd;
  return {
    id: session.id,
    agent: session.format,
    path: session.path,
    project: cwd !== undefined && cwd !== '' ? cwd : null,
    started: iso(created ?? tally?.first),
    ended: iso(ends.length ? Math.max(...ends) : undefined),
    prompts: tally?.prompts ?? 0,
    toolCalls: tally?.toolCalls ?? 0,
    failedCalls: tally?.failedCalls ?? 0,
    worst: findings.worst,
    findings: findings.counts,
  };
}

interface SessionRowFindings {
  worst: SessionRow['worst'];
  counts: Record<Severity, number>;
}

/** Whether a row passes the filters. */
export function keepRow(r: SessionRow, f: SessionFilters): boolean {
  if (f.agents?.length && !f.agents.includes(r.agent)) return false;
  if (f.since !== undefined || f.until !== undefined) {
    if (r.started === null) return false;
    const t = Date.parse(r.started);
    if (f.since !== undefined && t < f.since) return false;
    if (f.until !== undefined && t > f.until) return false;
  }
  if (f.project !== undefined) {
    if (r.project === null) return false;
    if (f.project.startsWith('/')) {
      const base = f.project.length > 1 ? f.project.replace(/\/+$/, '') : f.project;
      if (r.project !== base && !r.project.startsWith(base === '/' ? '/' : `${base}/`)) return false;
    } else if (!r.project.includes(f.project)) return false;
  }
  return true;
}

/** By start time (sessions without one last), then path. */
export function compareRows(a: SessionRow, b: SessionRow): number {
  if (a.started !== b.started) {
    if (a.started === null) return 1;
    if (b.started === null) return -1;
    return a.started < b.started ? -1 : 1;
  }
  return byteOrder(a.path, b.path);
}

/** Every session under the paths, audited once, as rows sorted by start time, filtered. */
export function listSessions(
  paths: readonly string[],
  filters: SessionFilters = {},
  progress?: (done: number, total: number) => void,
): {
  rows: SessionRow[];
  total: number;
  notRead: NotRead[];
  homes: Map<string, number>;
  toolErrors: ToolError[];
} {
  const tallies = new Map<string, Tally>();
  const observe = (found: FoundSession): SessionObserver[] => {
    const { run, tally } = tallyObserver(found);
    tallies.set(found.display, tally);
    return [run];
  };
  const { results, notRead, gone } = auditTree(
    paths,
    { command: 'audit' },
    {},
    { observe, ...(progress ? { progress } : {}) },
  );
  const homes = new Map<string, number>();
  const rows = results.flatMap((r) => {
    if (r.session.kind === 'home') return [];
    if (r.session.home !== undefined) homes.set(r.session.home, (homes.get(r.session.home) ?? 0) + 1);
    const counts: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
    let worst: SessionRow['worst'] = null;
    let worstFinding: (typeof r.findings)[number] | undefined;
    for (const f of r.findings) {
      counts[f.severity]++;
      const better =
        !worstFinding ||
        SEVERITY_RANK[f.severity] < SEVERITY_RANK[worstFinding.severity] ||
        (f.severity === worstFinding.severity && compareFindings(f, worstFinding) < 0);
      if (better) worstFinding = f;
    }
    if (worstFinding) worst = { severity: worstFinding.severity, code: worstFinding.code };
    return [rowOf(r.session, tallies.get(r.session.path), { worst, counts })];
  });
  // Sessions known only to a history or an index of their agent's home: one row each, marked gone, with what the
  // files that know it record (the earliest start, the latest end, the most prompts; each file named).
  const goneRows = new Map<string, SessionRow>();
  for (const g of gone) {
    const key = `${g.format}\u0000${g.home}\u0000${g.id}`;
    const had = goneRows.get(key);
    const path = `${g.home}/${g.source}`;
    if (had) {
      const start = g.firstAt ?? null;
      if (start !== null && (had.started === null || start < had.started)) had.started = start;
      const end = g.lastAt ?? g.firstAt ?? null;
      if (end !== null && (had.ended === null || end > had.ended)) had.ended = end;
      had.prompts = Math.max(had.prompts, g.prompts);
      had.project ??= g.cwd ?? null;
      had.gone = `${had.gone}, ${path}`;
      continue;
    }
    goneRows.set(key, {
      id: g.id,
      agent: g.format,
      path,
      project: g.cwd ?? null,
      started: g.firstAt ?? null,
      ended: g.lastAt ?? g.firstAt ?? null,
      prompts: g.prompts,
      toolCalls: 0,
      failedCalls: 0,
      worst: null,
      findings: { error: 0, warning: 0, note: 0 },
      gone: path,
    });
  }
  rows.push(...goneRows.values());
  const kept = rows.filter((r) => keepRow(r, filters)).sort(compareRows);
  return { rows: kept, total: rows.length, notRead, homes, toolErrors: results.flatMap((r) => r.toolErrors) };
}
