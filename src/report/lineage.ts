/**
 * Lineage renderers: an indented tree table (fitted to the terminal), JSON, Graphviz dot, Mermaid. Widened and
 * dropped edges stand out. Every string from the sessions is escaped in every format but JSON, dot and Mermaid
 * labels included: no control, bidi or line-separator character reaches a terminal or a diagram raw.
 */
import type { LineageView, ViewNode } from '../lineage/view.js';
import type { HomeView } from '../model/home-view.js';
import { colors } from './ansi.js';
import { escapeText } from './escape.js';
import { homeViewLines } from './home-view-text.js';
import { type Cell, type Column, droppedNote, renderGrid } from './layout.js';
import type { LineageFormat } from './lineage-formats.js';
import { paints } from './table.js';
import { wrapText } from './wrap.js';

export { LINEAGE_FORMATS, type LineageFormat } from './lineage-formats.js';

const short = (id: string): string => (id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

function walk(trees: readonly ViewNode[], fn: (n: ViewNode, prefix: string) => void, prefix = '', top = true): void {
  trees.forEach((n, i) => {
    const last = i === trees.length - 1;
    fn(n, top ? '' : `${prefix}${last ? '└─ ' : '├─ '}`);
    walk(n.children, fn, top ? '' : `${prefix}${last ? '   ' : '│  '}`, false);
  });
}

const COLUMNS: Column[] = [
  { head: 'session', kind: 'token' },
  { head: 'kind', kind: 'token' },
  { head: 'cwd', kind: 'token', drop: 2, min: 16 },
  { head: 'created', kind: 'token', drop: 1 },
  { head: 'profile', kind: 'tokens' },
  { head: 'flags', kind: 'tokens' },
];

export interface LineageTableOptions {
  width?: number;
  color?: boolean;
  /** What the agents' homes keep outside every session (the table and JSON show it; the diagrams do not). */
  outside?: readonly HomeView[];
}

export function renderLineageTable(views: readonly LineageView[], o: LineageTableOptions = {}): string {
  const c = colors(o.color ?? false);
  const width = Math.max(40, o.width ?? 200);
  const out: string[] = [];
  for (const v of views) {
    out.push(c.bold(escapeText(v.root)));
    const rows: Cell[][] = [];
    walk(v.trees, (n, prefix) => {
      const edge = n.edgeSandbox === 'widened' ? ' ▲WIDENED' : n.edgeSandbox === 'dropped' ? ' ▼DROPPED' : '';
      rows.push([
        `${prefix}${escapeText(short(n.id))}`,
        escapeText(n.edge && n.edge !== n.kind ? `${n.kind} (${n.edge})` : n.kind),
        escapeText(n.cwd ?? ''),
        escapeText((n.created ?? '').slice(0, 16).replace('T', ' ')),
        edge ? { text: escapeText(n.profile ?? '(none)') + edge, paint: c.redBold } : escapeText(n.profile ?? '(none)'),
        escapeText(
          [
            ...n.flags.filter((f) => f !== 'widened' && f !== 'dropped'),
            ...(n.resumes ? [`resumed ×${n.resumes}`] : []),
          ].join(', '),
        ),
      ]);
    });
    const { text, layout } = renderGrid(COLUMNS, rows, width, paints(c));
    out.push(text + droppedNote(layout, width, '--format json'));
  }
  for (const h of o.outside ?? [])
    out.push(
      c.bold(wrapText(`Outside every session log, in ${escapeText(h.home)}:`, width)),
      ...homeViewLines(h, width),
      '',
    );
  out.push(
    wrapText(
      '▲WIDENED: runs with more access than its origin; ▼DROPPED: the origin recorded a profile, this session none.',
      width,
    ),
  );
  return `${out.join('\n')}\n`;
}

export const renderLineageJson = (views: readonly LineageView[], outside: readonly HomeView[] = []): string =>
  `${JSON.stringify({ roots: views, ...(outside.length ? { outsideSessions: outside } : {}) }, null, 2)}\n`;

/** A dot string: each line escaped for a terminal (no raw control, bidi or separator character), then quoted. */
const dotStr = (...lines: string[]): string => JSON.stringify(lines.map(escapeText).join('\n'));
const dotId = (id: string): string => dotStr(id);
const dotLabel = (n: ViewNode): string => dotStr(short(n.id), n.kind, n.profile ?? '(no profile)');

function allNodes(v: LineageView): ViewNode[] {
  const out: ViewNode[] = [];
  walk(v.trees, (n) => out.push(n));
  return out;
}

export function renderLineageDot(views: readonly LineageView[]): string {
  const lines = ['digraph lineage {', '  rankdir=LR;', '  node [shape=box, fontname="monospace"];'];
  views.forEach((v, i) => {
    lines.push(`  subgraph cluster_${i} {`, `    label=${dotStr(v.root)};`);
    const known = new Set<string>();
    for (const n of allNodes(v)) {
      known.add(n.id);
      const color =
        n.edgeSandbox === 'widened' || n.edgeSandbox === 'dropped'
          ? ', color=red, penwidth=2'
          : n.flags.length
            ? ', color=orange'
            : '';
      lines.push(`    ${dotId(n.id)} [label=${dotLabel(n)}${color}];`);
    }
    for (const e of v.edges) {
      if (!known.has(e.from))
        lines.push(`    ${dotId(e.from)} [label=${dotStr(short(e.from), '(not found)')}, style=dashed];`);
      const style =
        e.sandbox === 'widened' || e.sandbox === 'dropped'
          ? `, color=red, penwidth=2, label=${dotStr(`${e.kind}: ${e.sandbox.toUpperCase()}`)}`
          : e.sandbox === 'changed'
            ? `, color=orange, label=${dotStr(`${e.kind}: changed`)}`
            : `, label=${dotStr(e.kind)}`;
      lines.push(`    ${dotId(e.from)} -> ${dotId(e.to)} [${style.slice(2)}];`);
    }
    lines.push('  }');
  });
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

export function renderLineageMermaid(views: readonly LineageView[]): string {
  const lines = ['flowchart LR'];
  const ids = new Map<string, string>();
  const mid = (id: string): string => {
    let m = ids.get(id);
    if (!m) ids.set(id, (m = `s${ids.size}`));
    return m;
  };
  // Mermaid labels: no quotes, markup, pipes or brackets that end a label; control characters made visible.
  const esc = (s: string): string => escapeText(s).replace(/["<>|[\]{}()#;`]/g, '');
  let link = 0;
  const red: number[] = [];
  for (const v of views) {
    lines.push(`  subgraph ${mid(`root:${v.root}`)}["${esc(v.root)}"]`);
    for (const n of allNodes(v))
      lines.push(`    ${mid(n.id)}["${esc(short(n.id))}<br/>${esc(n.kind)}<br/>${esc(n.profile ?? '(no profile)')}"]`);
    for (const e of v.edges) {
      const label = e.sandbox === 'same' ? e.kind : `${e.kind}: ${e.sandbox}`;
      lines.push(`    ${mid(e.from)} -->|${esc(label)}| ${mid(e.to)}`);
      if (e.sandbox === 'widened' || e.sandbox === 'dropped') red.push(link);
      link++;
    }
    lines.push('  end');
  }
  for (const i of red) lines.push(`  linkStyle ${i} stroke:#d00,stroke-width:3px`);
  return `${lines.join('\n')}\n`;
}

/** The lineage renderers: one signature each. */
export const LINEAGE_RENDERERS = {
  table: renderLineageTable,
  json: (views, o) => renderLineageJson(views, o.outside),
  dot: (views) => renderLineageDot(views),
  mermaid: (views) => renderLineageMermaid(views),
} satisfies Record<LineageFormat, (views: readonly LineageView[], o: LineageTableOptions) => string>;
