/**
 * The map in ARCHITECTURE.md, enforced: which room may import which, that only the format registry imports an
 * agent's folder, that there is no import cycle (type-only imports included), and that agent knowledge (file names,
 * agent-folder imports) stays in src/formats/<agent>/. The rules are tested on planted violations too.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { FORMAT_NAMES } from '../src/formats/registry.js';
import { cycles, readImportGraph, violations, type ImportGraph } from './helpers/import-graph.js';

const SRC = join(import.meta.dirname, '..', 'src');
const agents = FORMAT_NAMES;

const graph = (edges: Record<string, string[]>): ImportGraph =>
  new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));

describe('the import graph of src/', () => {
  const g = readImportGraph(SRC);

  test('is read: every module, with its imports', () => {
    expect(g.size).toBeGreaterThan(100);
    expect(g.get('engine/audit-session.ts')).toContain('checks/registry.ts');
    expect(g.get('formats/registry.ts')).toContain('formats/grok/index.ts');
  });

  test('has no forbidden edge and no cycle', () => {
    const found = violations(g, agents).map((v) => `${v.rule}: ${v.from} -> ${v.to}`);
    expect(found).toEqual([]);
  });

  test('every agent is a folder of src/formats/ that only the registry imports', () => {
    for (const a of agents) expect(statSync(join(SRC, 'formats', a)).isDirectory()).toBe(true);
    const importers = [...g].filter(
      ([from, tos]) =>
        [...tos].some((t) => agents.some((a) => t.startsWith(`formats/${a}/`))) &&
        !agents.some((a) => from.startsWith(`formats/${a}/`)),
    );
    expect(importers.map(([from]) => from)).toEqual(['formats/registry.ts']);
  });
});

describe('the rules catch planted violations', () => {
  test('a generic check importing an agent folder', () => {
    const v = violations(graph({ 'checks/x.ts': ['formats/grok/paths.ts'], 'formats/grok/paths.ts': [] }), agents);
    expect(v.map((x) => x.rule)).toEqual(['only formats/registry.ts imports formats/grok/']);
  });

  test('one agent importing another', () => {
    const v = violations(graph({ 'formats/codex/a.ts': ['formats/grok/b.ts'], 'formats/grok/b.ts': [] }), agents);
    expect(v).toHaveLength(1);
  });

  test('the model, checks and renderers importing the I/O layer; the engine importing the CLI', () => {
    const v = violations(
      graph({
        'model/a.ts': ['read/b.ts'],
        'checks/c.ts': ['read/b.ts'],
        'report/d.ts': ['read/b.ts'],
        'engine/e.ts': ['cli/f.ts'],
        'model/g.ts': ['formats/types.ts'],
        'read/b.ts': [],
        'cli/f.ts': [],
        'formats/types.ts': [],
      }),
      agents,
    );
    expect(v.map((x) => x.rule).sort()).toEqual([
      'checks/ may not import read/',
      'engine/ may not import cli/',
      'model/ may not import formats/',
      'model/ may not import read/',
      'report/ may not import read/',
    ]);
  });

  test('a cycle, even of type-only imports, and a module importing itself', () => {
    expect(cycles(graph({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': ['a.ts'], 'd.ts': ['d.ts'] }))).toEqual([
      ['a.ts', 'b.ts', 'c.ts'],
      ['d.ts'],
    ]);
  });
});

/** File names only an agent's own folder may know (its session layout), and how a folder of another is imported. */
const AGENT_FILE_NAMES = [
  'summary.json',
  'updates.jsonl',
  'chat_history.jsonl',
  'rewind_points.jsonl',
  'feedback.jsonl',
  'btw_history.jsonl',
  'events.jsonl',
  'system_prompt.txt',
  'meta.json',
  'plan_mode.json',
  'signals.json',
  'INDEX.md',
  'compaction_checkpoints',
  'relocations/',
  'title_refresh_idx',
  'rollout-',
  '.jsonl.zst',
  'subagents/',
  'tool-results',
  'state.db',
  'sessions.json',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('agent knowledge stays in src/formats/<agent>/', () => {
  const outside = sources(SRC).filter((f) => {
    const rel = relative(SRC, f);
    return !agents.some((a) => rel.startsWith(`formats/${a}/`)) && rel !== 'formats/registry.ts';
  });

  test("no agent file name outside the agents' folders (code and comments alike)", () => {
    const hits: string[] = [];
    for (const f of outside) {
      const text = readFileSync(f, 'utf8');
      for (const name of AGENT_FILE_NAMES) if (text.includes(name)) hits.push(`${relative(SRC, f)}: ${name}`);
    }
    expect(hits).toEqual([]);
  });

  test('no import of an agent folder outside the registry', () => {
    const hits = outside.filter((f) =>
      /from\s+['"][^'"]*formats\/(?:grok|codex|claude|hermes)\//.test(readFileSync(f, 'utf8')),
    );
    expect(hits.map((f) => relative(SRC, f))).toEqual([]);
  });

  test('the count rule itself finds a planted name', () => {
    const planted = "const log = 'updates.jsonl';";
    expect(AGENT_FILE_NAMES.some((n) => planted.includes(n))).toBe(true);
  });
});

describe('code shape', () => {
  test('no line over 120 characters in src/, test/ and scripts/', () => {
    const root = join(SRC, '..');
    const files = ['src', 'test', 'scripts'].flatMap((d) => sources(join(root, d)));
    const long: string[] = [];
    for (const f of files) {
      readFileSync(f, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (line.length > 120) long.push(`${relative(root, f)}:${i + 1} (${line.length})`);
        });
    }
    expect(long).toEqual([]);
  });
});
