/**
 * JSON nested 100,000 levels deep in every reader of every agent (issue 27.8): a log line, a JSON sidecar, a JSON
 * cell of Hermes's state.db. Each is a finding (JSONL_TOO_DEEP, SESSION_FILE_UNPARSEABLE or
 * SESSION_SUMMARY_UNPARSEABLE, HERMES_DB_JSON_UNPARSEABLE) and no command overflows the stack: audit, validate,
 * timeline, pairs, inspect and bundle end without a tool error. The deep values sit where the recursive walkers
 * look (a message's content, the whole document), so that a reader which let them through would crash.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/model/records.js';
import type { AuditReport } from '../src/model/report.js';
import { tooDeep, tooDeepText } from '../src/read/json-depth.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';
import { codes, scan } from './helpers/scan.js';

const D = 100_000;
const scratch = mkdtempSync(join(tmpdir(), 'sa-deep-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `inner` wrapped in `depth` objects: {"x":{"x":…inner…}}. */
const deep = (inner: string, depth = D): string => `${'{"x":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

function filesUnder(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel)).sort()) {
    const r = rel ? `${rel}/${name}` : name;
    if (statSync(join(dir, r)).isDirectory()) out.push(...filesUnder(dir, r));
    else out.push(r);
  }
  return out;
}

/** The first `content` value of a record, replaced by a marker; returns the value it held. */
function takeContent(v: unknown): { found: boolean; value?: unknown } {
  if (typeof v !== 'object' || v === null) return { found: false };
  const o = v as Record<string, unknown>;
  if (!Array.isArray(v) && 'content' in o) {
    const value = o.content;
    o.content = '@@DEEP@@';
    return { found: true, value };
  }
  for (const x of Object.values(o)) {
    const r = takeContent(x);
    if (r.found) return r;
  }
  return { found: false };
}

interface Built {
  root: string;
  /** The logs (relative to the root) whose first line with a content holds the deep value, and that line. */
  lines: Map<string, number>;
  /** The JSON sidecars made deep. */
  docs: string[];
}

/**
 * A copy of the agent's clean corpus, each log's first content nested D deep, each JSON sidecar D deep (of Grok's
 * three sessions, the main one alone: that keeps the test fast).
 */
function build(agent: string, depth = D): Built {
  const root = join(scratch, `${agent}-${depth}`);
  cpSync(join(CORPORA, agent, 'clean'), root, { recursive: true });
  rmSync(join(root, 'expected.json'), { force: true });
  rmSync(join(root, 'expected-timeline.json'), { force: true });
  const lines = new Map<string, number>();
  const docs: string[] = [];
  for (const rel of filesUnder(root)) {
    if (agent === 'grok' && !rel.includes('-00000000a001/')) continue;
    const path = join(root, rel);
    if (rel.endsWith('.jsonl')) {
      const ls = readFileSync(path, 'utf8').split('\n');
      const k = ls.findIndex((l) => l.includes('"content":'));
      if (k < 0) continue;
      const record = JSON.parse(ls[k]!) as unknown;
      const { value } = takeContent(record);
      ls[k] = JSON.stringify(record).replace('"@@DEEP@@"', deep(JSON.stringify(value ?? null), depth));
      writeFileSync(path, ls.join('\n'));
      lines.set(rel, k + 1);
    } else if (rel.endsWith('.json')) {
      writeFileSync(path, deep(readFileSync(path, 'utf8'), depth));
      docs.push(rel);
    }
  }
  return { root, lines, docs };
}

/** Hermes's state.db: the first assistant row's tool_calls and the first session's model_config nested D deep. */
function deepenDatabase(root: string): { message: number; session: string } {
  const db = new Database(join(root, 'state.db'));
  try {
    const m = db
      .prepare('SELECT id, tool_calls FROM messages WHERE tool_calls IS NOT NULL ORDER BY id LIMIT 1')
      .get() as { id: number; tool_calls: string };
    db.prepare('UPDATE messages SET tool_calls = ? WHERE id = ?').run(`[${deep(m.tool_calls)}]`, m.id);
    const s = db.prepare('SELECT id, model_config FROM sessions ORDER BY id LIMIT 1').get() as {
      id: string;
      model_config: string;
    };
    db.prepare('UPDATE sessions SET model_config = ? WHERE id = ?').run(deep(s.model_config), s.id);
    return { message: m.id, session: s.id };
  } finally {
    db.close();
  }
}

/** The one session each agent's one-session commands take (a directory or a log). */
const TARGET: Record<string, (b: Built) => string> = {
  grok: (b) => join(b.root, [...b.lines.keys()].find((p) => p.endsWith('/updates.jsonl'))!, '..'),
  codex: (b) => join(b.root, [...b.lines.keys()].find((p) => p.startsWith('sessions/'))!),
  claude: (b) => join(b.root, [...b.lines.keys()].find((p) => !p.includes('/subagents/'))!),
  pi: (b) => join(b.root, [...b.lines.keys()].find((p) => p.startsWith('sessions/'))!),
  hermes: (b) => b.root,
};

const AGENTS = ['grok', 'codex', 'claude', 'pi', 'hermes'] as const;

describe.each(AGENTS)('%s: JSON nested 100,000 levels deep', (agent) => {
  let b: Built;
  let db: { message: number; session: string } | undefined;
  beforeAll(() => {
    b = build(agent);
    if (agent === 'hermes') db = deepenDatabase(b.root);
  });

  test('audit: every deep line, document and cell is a finding; no tool error', async () => {
    expect(b.lines.size).toBeGreaterThan(0);
    const r = await cli(['audit', b.root, '--format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.toolErrors).toEqual([]);
    const where = (code: string) =>
      report.findings.filter((f) => f.code === code).map((f) => `${f.location.file}:${f.location.line ?? ''}`);
    const deepLines = report.findings.filter((f) => f.code === 'JSONL_TOO_DEEP');
    expect(deepLines).toHaveLength(b.lines.size);
    for (const [rel, line] of b.lines) {
      const name = rel.slice(rel.lastIndexOf('/') + 1);
      expect(
        deepLines.some((f) => f.location.file.endsWith(name) && f.location.line === line),
        `${rel}:${line} in ${where('JSONL_TOO_DEEP').join(', ')}`,
      ).toBe(true);
    }
    expect(deepLines[0]!.message).toContain(`nested more than ${MAX_JSON_DEPTH} levels deep`);
    const docFindings = report.findings.filter(
      (f) =>
        (f.code === 'SESSION_FILE_UNPARSEABLE' || f.code === 'SESSION_SUMMARY_UNPARSEABLE') &&
        f.message.includes(`nested more than ${MAX_JSON_DEPTH} levels deep`),
    );
    for (const rel of b.docs) {
      const name = rel.slice(rel.lastIndexOf('/') + 1);
      expect(
        docFindings.some((f) => f.location.file.endsWith(name)),
        rel,
      ).toBe(true);
    }
    if (db) {
      const cells = report.findings
        .filter((f) => f.code === 'HERMES_DB_JSON_UNPARSEABLE')
        .map((f) => f.location.pointer);
      expect(cells.sort()).toEqual([`/messages/${db.message}/tool_calls`, `/sessions/${db.session}/model_config`]);
    }
  });

  test('validate, timeline, pairs, inspect, bundle: no tool error', async () => {
    const target = TARGET[agent]!(b);
    for (const args of [
      ['validate', b.root, '--format', 'json'],
      ['timeline', target],
      ['pairs', target],
      ['inspect', target],
      ['bundle', b.root, '--redact', '-o', join(scratch, `${agent}-deep.bag`)],
    ]) {
      const r = await cli(args);
      const what = `${args.slice(0, 2).join(' ')}: ${r.stderr.split('\n')[0]}`;
      expect(r.stderr, what).toBe('');
      // inspect exits 4 when a resume is not safe (damaged lines dropped).
      expect(args[0] === 'inspect' ? [0, 1, 4] : [0, 1], what).toContain(r.code);
    }
  });
});

// Just under the limit, the values reach every walker: the limit itself must leave them stack enough. Pi's and
// Hermes's were the walkers that overflowed first (JSON.stringify in PiTree.add and in contentText).
describe.each(['pi', 'hermes'])('%s: JSON nested just under the limit is read and walked', (agent) => {
  test('audit, timeline, inspect, bundle --redact: no JSONL_TOO_DEEP, no tool error', async () => {
    const b = build(agent, MAX_JSON_DEPTH - 8);
    const r = await cli(['audit', b.root, '--format', 'json']);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.toolErrors).toEqual([]);
    expect(report.findings.filter((f) => f.code === 'JSONL_TOO_DEEP' || f.code.endsWith('_UNPARSEABLE'))).toEqual([]);
    const target = TARGET[agent]!(b);
    for (const args of [
      ['timeline', target],
      ['inspect', target],
      ['bundle', b.root, '--redact', '-o', join(scratch, `${agent}-under.bag`)],
    ]) {
      const x = await cli(args);
      expect(x.stderr, args[0]).toBe('');
      expect(args[0] === 'inspect' ? [0, 1, 4] : [0, 1], args[0]).toContain(x.code);
    }
  });
});

describe('the depth pre-scan', () => {
  test('brackets inside strings do not count; the limit itself is accepted', () => {
    const at = (s: string) => tooDeep(Buffer.from(s), 3)?.at;
    expect(at('[[[1]]]')).toBeUndefined();
    expect(at('[[[[1]]]]')).toBe(3);
    expect(at('{"a":"[[[[[[","b":[["\\"[[[["]]}')).toBeUndefined();
    expect(at('{"a":"\\\\",[[[[')).toBe(12);
    expect(at('[]'.repeat(100))).toBeUndefined();
    expect(tooDeepText(`x${'['.repeat(MAX_JSON_DEPTH)}`)).toBeUndefined();
    expect(tooDeepText(`é${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}`)?.at).toBe(2 + 5 * MAX_JSON_DEPTH);
  });
});

describe('the JSONL reader', () => {
  const nest = (n: number): string => `{"a":${'['.repeat(n - 1)}1${']'.repeat(n - 1)}}`;
  test(`${MAX_JSON_DEPTH} levels are a record, one more is JSONL_TOO_DEEP (not parsed, the next line is read)`, () => {
    const ok = nest(MAX_JSON_DEPTH);
    const r = scan(`${ok}\n${nest(MAX_JSON_DEPTH + 1)}\n{"n":3}\n`);
    expect(codes(r)).toEqual(['JSONL_TOO_DEEP']);
    expect(r.damage[0]).toMatchObject({ line: 2, byteOffset: ok.length + 1 });
    expect(r.damage[0]!.detail).toContain(`the bracket at byte ${5 + MAX_JSON_DEPTH - 1} of the line opens level`);
    expect(r.records.map((x) => x.line)).toEqual([1, 3]);
  });

  test('a deep last line without its newline says the file ends inside it; a deep fragment by NULs is lost', () => {
    const tail = scan(`{"n":1}\n${'['.repeat(D)}`);
    expect(codes(tail)).toEqual(['JSONL_TOO_DEEP']);
    expect(tail.damage[0]!.detail).toContain('(the file ends inside it)');
    const nul = scan(`{"n":1}\u0000${nest(MAX_JSON_DEPTH + 1)}\n`);
    expect(codes(nul)).toEqual(['JSONL_NUL_BYTES']);
    expect(nul.records).toHaveLength(1);
  });
});
