/**
 * The import graph of src/: every relative import (static, type-only, re-export and dynamic) of every module,
 * resolved to a path under src/, and the architecture's rules over it (ARCHITECTURE.md, "The rooms").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Module path (relative to src/, e.g. "checks/time.ts") → the modules it imports. */
export type ImportGraph = Map<string, Set<string>>;

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Strip comments, so an import named in a comment is not an edge. */
const code = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

export function readImportGraph(srcDir: string): ImportGraph {
  const g: ImportGraph = new Map();
  for (const file of walk(srcDir)) {
    const from = relative(srcDir, file);
    const edges = new Set<string>();
    for (const m of code(readFileSync(file, 'utf8')).matchAll(IMPORT)) {
      const target = resolve(dirname(file), m[2]!).replace(/\.js$/, '.ts');
      edges.add(relative(srcDir, target));
    }
    g.set(from, edges);
  }
  return g;
}

/** The room of a module: its first folder under src/ (or the file itself at the top), formats/<agent> for agents. */
export function roomOf(path: string, agents: readonly string[]): string {
  const parts = path.split('/');
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, '');
  if (parts[0] === 'formats' && agents.includes(parts[1]!)) return `formats/${parts[1]}`;
  return parts[0]!;
}

/** Rooms each room may import (besides itself). Everything not listed is forbidden. */
export const ALLOWED: Record<string, readonly string[]> = {
  errors: [],
  version: [],
  model: [],
  secrets: ['errors'],
  read: ['model', 'errors'],
  pairing: ['model'],
  timeline: ['model'],
  lineage: ['model'],
  inspect: ['model', 'pairing', 'formats'],
  checks: ['model', 'formats', 'pairing', 'timeline', 'lineage', 'secrets', 'errors'],
  formats: ['model', 'read', 'checks', 'pairing', 'timeline', 'lineage', 'errors', 'version'],
  report: ['model', 'checks', 'pairing', 'timeline', 'lineage', 'inspect', 'version'],
  bundle: ['model', 'read', 'formats', 'checks', 'timeline', 'secrets', 'errors', 'version'],
  store: ['model', 'read', 'formats', 'checks', 'bundle', 'errors', 'version'],
  config: ['model', 'read', 'report', 'checks', 'errors'],
  engine: [
    'model',
    'read',
    'formats',
    'checks',
    'pairing',
    'timeline',
    'lineage',
    'inspect',
    'report',
    'bundle',
    'store',
    'config',
    'secrets',
    'errors',
    'version',
  ],
  cli: [
    'model',
    'engine',
    'report',
    'config',
    'formats',
    'checks',
    'timeline',
    'pairing',
    'lineage',
    'inspect',
    'bundle',
    'errors',
    'version',
  ],
};

export interface Violation {
  from: string;
  to: string;
  rule: string;
}

/**
 * Edges the architecture forbids: a room importing a room it may not; anything but the registry importing an
 * agent's folder (and an agent importing another's); and every import cycle (type-only imports included).
 */
export function violations(g: ImportGraph, agents: readonly string[]): Violation[] {
  const out: Violation[] = [];
  for (const [from, tos] of g) {
    const a = roomOf(from, agents);
    for (const to of tos) {
      const b = roomOf(to, agents);
      if (a === b) continue;
      if (b.startsWith('formats/')) {
        if (from !== 'formats/registry.ts') out.push({ from, to, rule: `only formats/registry.ts imports ${b}/` });
        continue;
      }
      const base = a.startsWith('formats/') ? 'formats' : a;
      if (base === b) continue;
      if (!(ALLOWED[base] ?? []).includes(b)) out.push({ from, to, rule: `${base}/ may not import ${b}/` });
    }
  }
  for (const cycle of cycles(g)) {
    const rule = `import cycle: ${cycle.join(' → ')} → ${cycle[0]}`;
    out.push({ from: cycle[0]!, to: cycle[1] ?? cycle[0]!, rule });
  }
  return out;
}

/** Every strongly connected component with more than one module (or a module importing itself), as a cycle path. */
export function cycles(g: ImportGraph): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || g.get(v)?.has(v)) out.push(comp.reverse());
    }
  };
  for (const v of [...g.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}
