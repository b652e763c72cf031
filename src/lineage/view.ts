/** The lineage graph with its findings, shaped for output: trees of sessions, edges marked by what the sandbox did. */
import type { Finding } from '../model/finding.js';
import type { LineageFacts } from './facts.js';
import type { EdgeKind, LineageGraph } from './graph.js';

export type EdgeSandbox = 'same' | 'widened' | 'dropped' | 'changed';

export interface ViewNode {
  id: string;
  path: string;
  kind: string;
  parent?: string;
  edge?: EdgeKind;
  edgeSandbox?: EdgeSandbox;
  cwd?: string;
  created?: string;
  profile?: string;
  resumes: number;
  flags: string[];
  children: ViewNode[];
}

export interface LineageView {
  root: string;
  trees: ViewNode[];
  edges: Array<{ from: string; to: string; kind: EdgeKind; sandbox: EdgeSandbox }>;
}

/** The codes a lineage view shows as a session's flags (and colours its edge by). */
export const FLAG_CODES = [
  'SANDBOX_WIDENED',
  'SANDBOX_DROPPED',
  'SANDBOX_CHANGED',
  'SANDBOX_PROFILE_UNKNOWN',
  'SANDBOX_PROFILE_MISSING',
  'LINEAGE_PARENT_MISSING',
  'LINEAGE_CYCLE',
  'LINEAGE_DUPLICATE_ID',
];

/** A root as the user's paths name it: as one of its audited sessions shows it (else the root itself). */
export function shownRoot(root: string, g: LineageGraph, audited: ReadonlySet<string>): string {
  return g.nodes.find((n) => audited.has(n.path) && n.rootShown !== undefined)?.rootShown ?? root;
}

export function lineageView(root: string, g: LineageGraph, findings: readonly Finding[]): LineageView {
  const byPath = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byPath.get(f.sessionPath);
    if (list) list.push(f);
    else byPath.set(f.sessionPath, [f]);
  }
  const edgeOf = new Map<LineageFacts, (typeof g.edges)[number]>();
  for (const e of g.edges) if (!edgeOf.has(e.child)) edgeOf.set(e.child, e);
  const nodes = new Map<LineageFacts, ViewNode>();
  for (const n of g.nodes) {
    const fs = byPath.get(n.path) ?? [];
    const codes = new Set(fs.map((f) => f.code));
    const e = edgeOf.get(n);
    const v: ViewNode = {
      id: n.id,
      path: n.path,
      kind: n.sessionKind ?? (e?.kind === 'subagent' ? 'subagent' : e?.kind === 'restored' ? 'restored' : 'session'),
      resumes: n.resumes.length,
      flags: FLAG_CODES.filter((c) => codes.has(c)).map((c) =>
        c
          .replace(/^(SANDBOX|LINEAGE)_/, '')
          .toLowerCase()
          .replace(/_/g, '-'),
      ),
      children: [],
    };
    if (e) {
      v.parent = e.parentId;
      v.edge = e.kind;
      v.edgeSandbox = codes.has('SANDBOX_WIDENED')
        ? 'widened'
        : codes.has('SANDBOX_DROPPED')
          ? 'dropped'
          : codes.has('SANDBOX_CHANGED')
            ? 'changed'
            : 'same';
    }
    if (n.cwd !== undefined) v.cwd = n.cwd;
    if (n.createdAt !== undefined) v.created = n.createdAt;
    if (n.sandboxProfile !== undefined) v.profile = n.sandboxProfile;
    if (g.relocations.has(n.id)) v.flags.push('relocated');
    nodes.set(n, v);
  }
  const trees: ViewNode[] = [];
  for (const [n, v] of nodes) {
    const e = edgeOf.get(n);
    const parent = e?.parent ? nodes.get(e.parent) : undefined;
    // A cycle has no top: attach its members as trees of their own rather than lose them.
    if (parent && parent !== v && !v.flags.includes('cycle')) parent.children.push(v);
    else trees.push(v);
  }
  const order = (a: ViewNode, b: ViewNode): number =>
    (a.created ?? '').localeCompare(b.created ?? '') || a.path.localeCompare(b.path);
  const sortRec = (list: ViewNode[]): void => {
    list.sort(order);
    for (const x of list) sortRec(x.children);
  };
  sortRec(trees);
  const edges = g.edges.map((e) => ({
    from: e.parentId,
    to: e.child.id,
    kind: e.kind,
    sandbox: nodes.get(e.child)?.edgeSandbox ?? ('same' as EdgeSandbox),
  }));
  return { root, trees, edges };
}
