/**
 * The lineage graph of a sessions root: forks, subagents (fresh, fork, resume), worktree and restored sessions,
 * relocations, from the facts each session recorded about itself and its children.
 */
import type { LineageFacts } from './facts.js';

export type EdgeKind = 'fork' | 'subagent' | 'subagent_fork' | 'subagent_resume' | 'worktree' | 'restored';

export interface LineageEdge {
  kind: EdgeKind;
  parentId: string;
  child: LineageFacts;
  /** The parent's facts when the parent is in the audited tree. */
  parent?: LineageFacts;
  /** Where the link is recorded. */
  evidence: string;
}

export interface Relocation {
  sessionId: string;
  phase: string;
  sourceCwd: string;
  targetCwd: string;
  /** The journal file (path as found). */
  file: string;
}

export interface LineageGraph {
  nodes: LineageFacts[];
  byId: Map<string, LineageFacts[]>;
  edges: LineageEdge[];
  relocations: Map<string, Relocation>;
}

const KIND_EDGE: Record<string, EdgeKind> = {
  fork: 'fork',
  subagent_fork: 'subagent_fork',
  subagent_resume: 'subagent_resume',
  worktree: 'worktree',
};

/** The copy a session id resolves to: unique, or the journal-authoritative one, else the first by path. */
export function primary(g: LineageGraph, id: string): LineageFacts | undefined {
  const list = g.byId.get(id);
  if (!list?.length) return undefined;
  if (list.length === 1) return list[0];
  const r = g.relocations.get(id);
  if (r) {
    const target = r.phase === 'ready' || r.phase === 'committed' ? r.targetCwd : r.sourceCwd;
    const hit = list.find((n) => n.cwd === target);
    if (hit) return hit;
  }
  return list[0];
}

export function buildGraph(
  facts: readonly LineageFacts[],
  relocations: Map<string, Relocation> = new Map(),
): LineageGraph {
  const nodes = [...facts].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const byId = new Map<string, LineageFacts[]>();
  for (const n of nodes) byId.set(n.id, [...(byId.get(n.id) ?? []), n]);
  const g: LineageGraph = { nodes, byId, edges: [], relocations };
  /** Which session's sub-agent records (or spawn lines) claim each child id. */
  const claimedBy = new Map<string, { parent: LineageFacts; file: string; line?: number }>();
  for (const n of nodes)
    for (const s of n.subagents)
      if (!claimedBy.has(s.id))
        claimedBy.set(s.id, { parent: n, file: s.file, ...(s.line !== undefined ? { line: s.line } : {}) });

  const add = (kind: EdgeKind, parentId: string, child: LineageFacts, evidence: string): void => {
    const e: LineageEdge = { kind, parentId, child, evidence };
    const p = primary(g, parentId);
    if (p) e.parent = p;
    g.edges.push(e);
  };
  for (const n of nodes) {
    const kind = n.sessionKind;
    const recorded = (what: string): string => n.linkEvidence ?? what;
    if (kind !== undefined && KIND_EDGE[kind] && n.parentSessionId !== undefined) {
      add(
        KIND_EDGE[kind]!,
        n.parentSessionId,
        n,
        recorded(`the session records parent ${n.parentSessionId} (kind ${kind})`),
      );
      continue;
    }
    const claim = claimedBy.get(n.id);
    if (kind === 'subagent' || (claim && kind === undefined)) {
      if (claim)
        add('subagent', claim.parent.id, n, `${claim.file}${claim.line ? `:${claim.line}` : ''} in the parent`);
      // A sub-agent that names its parent itself: nothing in the parent lists it.
      else if (n.selfLinked && n.parentSessionId !== undefined)
        add('subagent', n.parentSessionId, n, recorded('the sub-agent names its parent'));
      else add('subagent', '', n, 'no session under the root lists it among its sub-agents');
      continue;
    }
    if (kind === undefined && n.parentSessionId !== undefined) {
      add(
        'restored',
        n.parentSessionId,
        n,
        recorded('a parent without a session kind (a session restored from a remote one)'),
      );
    } else if (kind !== undefined && n.parentSessionId !== undefined && !KIND_EDGE[kind]) {
      add('fork', n.parentSessionId, n, recorded(`the session records parent ${n.parentSessionId} (kind ${kind})`));
    }
  }
  return g;
}

/** Parent chains that come back to themselves: each cycle once, as the ids along it. */
export function findCycles(g: LineageGraph): string[][] {
  const parentOf = new Map<string, string>();
  for (const e of g.edges) if (e.parent && !parentOf.has(e.child.id)) parentOf.set(e.child.id, e.parentId);
  const cycles: string[][] = [];
  const done = new Set<string>();
  for (const start of [...parentOf.keys()].sort()) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let cur: string | undefined = start;
    while (cur !== undefined && !done.has(cur)) {
      if (onPath.has(cur)) {
        const cyc = path.slice(path.indexOf(cur));
        const min = [...cyc].sort()[0]!;
        const rot = [...cyc.slice(cyc.indexOf(min)), ...cyc.slice(0, cyc.indexOf(min))];
        if (!cycles.some((c) => c.join() === rot.join())) cycles.push(rot);
        break;
      }
      onPath.add(cur);
      path.push(cur);
      cur = parentOf.get(cur);
    }
    for (const p of path) done.add(p);
  }
  return cycles;
}
