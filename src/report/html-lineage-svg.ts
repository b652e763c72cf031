/**
 * The lineage graph as inline SVG: a deterministic layered tree layout, left to right (depth = column, leaves
 * take one row each, a parent sits midway between its first and last child). Nodes show the shortened session
 * id, its kind and its sandbox profile; edges are labelled with their kind, and widened / dropped edges are red
 * and dashed, changed ones orange and dashed. Styling is by class only (the page CSS), no style attributes.
 */
import type { LineageView, ViewNode } from '../lineage/view.js';
import { clip, h, shortId } from './html-escape.js';

const NODE_W = 210;
const NODE_H = 58;
const COL_GAP = 130;
const ROW_GAP = 14;
const MARGIN = 16;
const ROOT_LABEL_H = 28;
const VIEW_GAP = 24;
const CHARS = 27;

interface Box {
  lines: [string, string, string];
  /** Tooltip lines (raw; escaped one by one when drawn). */
  title: string[];
  cls: string;
  /** The edge from the parent box: its label and class. */
  edge?: { kind: string; sandbox: string; cls: string };
  children: Box[];
  x: number;
  y: number;
}

const BAD = new Set(['widened', 'dropped']);

function boxOf(n: ViewNode): Box {
  const kind = n.edge && n.edge !== n.kind ? `${n.kind} (${n.edge})` : n.kind;
  const flags = [...n.flags, ...(n.resumes ? [`resumed ×${n.resumes}`] : [])];
  const title = [
    `session ${n.id}`,
    `path ${n.path}`,
    `kind ${kind}`,
    `profile ${n.profile ?? '(none)'}`,
    ...(n.cwd !== undefined ? [`cwd ${n.cwd}`] : []),
    ...(n.created !== undefined ? [`created ${n.created}`] : []),
    ...(n.parent !== undefined ? [`parent ${n.parent}`] : []),
    ...(n.edgeSandbox && n.edgeSandbox !== 'same' ? [`sandbox ${n.edgeSandbox} along the ${n.edge ?? ''} edge`] : []),
    ...(flags.length ? [`flags ${flags.join(', ')}`] : []),
  ];
  const sandbox = n.edgeSandbox ?? 'same';
  const cls = ['node', BAD.has(sandbox) ? sandbox : '', sandbox === 'changed' || n.flags.length ? 'flagged' : '']
    .filter(Boolean)
    .join(' ');
  const mark = sandbox === 'widened' ? ' ▲' : sandbox === 'dropped' ? ' ▼' : '';
  const profile = `${n.profile ?? '(no profile)'}${mark}`;
  const box: Box = { lines: [shortId(n.id), kind, profile], title, cls, children: n.children.map(boxOf), x: 0, y: 0 };
  if (n.edge !== undefined) box.edge = { kind: n.edge, sandbox, cls: sandbox };
  return box;
}

/**
 * A tree root whose parent is recorded but not in this tree (missing, or cut off by a cycle) gets a dashed stand-in.
 */
function withStandIn(n: ViewNode, known: ReadonlySet<string>): Box {
  const box = boxOf(n);
  if (n.parent === undefined) return box;
  const where = known.has(n.parent) ? 'elsewhere in the tree' : 'not found';
  return {
    lines: [shortId(n.parent), 'parent', where],
    title: [`parent ${n.parent} (${where})`],
    cls: 'node phantom',
    children: [box],
    x: 0,
    y: 0,
  };
}

function collectIds(list: readonly ViewNode[], into: Set<string>): void {
  for (const n of list) {
    into.add(n.id);
    collectIds(n.children, into);
  }
}

/** Assigns x/y; returns the next free row y. Iterative over depth would be no simpler; trees are shallow. */
function place(b: Box, depth: number, y: number): number {
  b.x = MARGIN + depth * (NODE_W + COL_GAP);
  if (b.children.length === 0) {
    b.y = y;
    return y + NODE_H + ROW_GAP;
  }
  let next = y;
  for (const c of b.children) next = place(c, depth + 1, next);
  b.y = Math.round((b.children[0]!.y + b.children[b.children.length - 1]!.y) / 2);
  return next;
}

function draw(b: Box, out: string[], maxX: { v: number }): void {
  maxX.v = Math.max(maxX.v, b.x + NODE_W);
  out.push(
    `<g class="${b.cls}"><title>${b.title.map(h).join('\n')}</title><rect x="${b.x}" y="${b.y}" width="${NODE_W}" ` +
      `height="${NODE_H}" rx="6"/>`,
  );
  b.lines.forEach((line, i) => {
    out.push(`<text x="${b.x + 10}" y="${b.y + 18 + i * 16}"${i ? ' class="sub"' : ''}>${h(clip(line, CHARS))}</text>`);
  });
  out.push('</g>');
  const x1 = b.x + NODE_W;
  const y1 = b.y + NODE_H / 2;
  for (const c of b.children) {
    const x2 = c.x;
    const y2 = c.y + NODE_H / 2;
    const mx = x1 + COL_GAP / 2;
    const e = c.edge;
    const cls = e ? e.cls : 'phantom';
    const bad = e && BAD.has(e.sandbox);
    out.push(
      `<path class="edge ${cls}" d="M${x1} ${y1} C${mx} ${y1} ${mx} ${y2} ${x2 - 6} ${y2}" ` +
        `marker-end="url(#${bad ? 'arrow-bad' : 'arrow'})"/>`,
    );
    if (e) {
      out.push(
        `<text class="elabel ${cls}" x="${x2 - 10}" y="${y2 - 6}" text-anchor="end">${h(clip(e.kind, 17))}</text>`,
      );
      if (e.sandbox !== 'same')
        out.push(
          `<text class="elabel ${cls}" x="${x2 - 10}" y="${y2 + 15}" ` +
            `text-anchor="end">${h(bad ? e.sandbox.toUpperCase() : e.sandbox)}</text>`,
        );
    }
    draw(c, out, maxX);
  }
}

/** A tree worth drawing: it has an edge (a child, or a recorded parent drawn as a stand-in). */
const hasEdge = (t: ViewNode): boolean => t.children.length > 0 || t.parent !== undefined;

/** Sessions of the views that have no edge at all (not drawn). */
export function sessionsWithoutEdges(views: readonly LineageView[]): number {
  return views.reduce((n, v) => n + v.trees.filter((t) => !hasEdge(t)).length, 0);
}

/** Bytes of SVG the page gives the lineage at most; past it, trees are left out and counted. */
export const LINEAGE_BYTES = 350_000;

/** What the drawing left out to keep to its budget: trees (with an edge) and the sessions in them. */
export interface LineageLeft {
  trees: number;
  sessions: number;
}

const sessionsIn = (t: ViewNode): number => 1 + t.children.reduce((n, c) => n + sessionsIn(c), 0);

/**
 * The lineage views as one inline `<svg id="lineage">`, or '' when there is nothing to draw. Only sessions with an
 * edge are drawn: a root of unrelated sessions is not a graph (the caller says how many were left out).
 */
export function renderLineageSvg(views: readonly LineageView[]): string {
  return lineageSvg(views, Number.POSITIVE_INFINITY).svg;
}

/** The drawing in at most about `maxBytes`: trees in order while they fit, the rest counted in `left`. */
export function lineageSvg(views: readonly LineageView[], maxBytes: number): { svg: string; left: LineageLeft } {
  const body: string[] = [];
  const maxX = { v: 0 };
  const left: LineageLeft = { trees: 0, sessions: 0 };
  let y = MARGIN;
  let drawn = 0;
  let bytes = 0;
  for (const v of views) {
    const trees = v.trees.filter(hasEdge);
    if (trees.length === 0) continue;
    if (bytes >= maxBytes) {
      left.trees += trees.length;
      left.sessions += trees.reduce((n, t) => n + sessionsIn(t), 0);
      continue;
    }
    const known = new Set<string>();
    collectIds(v.trees, known);
    const label = `<text class="root" x="${MARGIN}" y="${y + 16}">${h(clip(v.root, 160))}</text>`;
    const before = { parts: body.length, y, drawn };
    body.push(label);
    bytes += label.length;
    y += ROOT_LABEL_H;
    for (const t of trees) {
      if (bytes >= maxBytes) {
        left.trees++;
        left.sessions += sessionsIn(t);
        continue;
      }
      const b = withStandIn(t, known);
      const next = place(b, 0, y);
      const part: string[] = [];
      const x = { v: maxX.v };
      draw(b, part, x);
      const size = part.reduce((n, s) => n + s.length, 0);
      if (bytes + size > maxBytes && drawn > 0) {
        bytes = maxBytes;
        left.trees++;
        left.sessions += sessionsIn(t);
        continue;
      }
      body.push(...part);
      bytes += size;
      maxX.v = x.v;
      y = next;
      drawn++;
    }
    if (drawn === before.drawn) {
      // Not one of its trees fitted: no label alone.
      body.length = before.parts;
      y = before.y;
      continue;
    }
    y += VIEW_GAP;
  }
  if (drawn === 0) return { svg: '', left };
  const width = Math.max(maxX.v + MARGIN, 400);
  const height = y - VIEW_GAP + MARGIN;
  const defs =
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="1" refY="5" markerWidth="7" markerHeight="7" ' +
    'orient="auto"><path class="arrow" d="M0 0L10 5L0 10z"/></marker>' +
    '<marker id="arrow-bad" viewBox="0 0 10 10" refX="1" refY="5" markerWidth="7" markerHeight="7" ' +
    'orient="auto"><path class="arrow bad" d="M0 0L10 5L0 10z"/></marker></defs>';
  const svg =
    `<svg id="lineage" class="lineage" aria-labelledby="lineage-title" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}"><title id="lineage-title">Session lineage: forks, subagents and other ` +
    `derived sessions, with sandbox profiles</title>${defs}${body.join('')}</svg>`;
  return { svg, left };
}
