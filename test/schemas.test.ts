/** schemas/ is generated from the zod models (drift test), and zod and ajv agree on every corpora record. */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ALL_SCHEMAS } from '../src/engine/schemas.js';
import { schemaText } from '../src/formats/json-schema.js';
import { packageRoot, validator } from '../src/formats/schema-runtime.js';
import { GROK_SCHEMAS } from '../src/formats/grok/schemas.js';
import { classifyPath } from '../src/formats/grok/artifacts.js';
import { walkTree } from '../src/read/walk.js';
import { CORPORA } from './helpers/corpora.js';

test.each(ALL_SCHEMAS)('schemas/$file is up to date with its zod model (npm run schemas)', ({ file, schema }) => {
  const shipped = readFileSync(join(packageRoot(), 'schemas', file), 'utf8');
  expect(shipped).toBe(schemaText(schema, file));
});

test.each(ALL_SCHEMAS)('schemas/$file compiles under ajv strict mode', ({ file }) => {
  expect(() => validator(file)).not.toThrow();
});

interface Sample {
  where: string;
  kind: string;
  value: unknown;
}

/** Every parseable record and document in the Grok corpora, by artifact kind. */
function corpusSamples(): Sample[] {
  const out: Sample[] = [];
  const root = join(CORPORA, 'grok');
  for (const e of walkTree(root, 32)) {
    if (e.type !== 'file') continue;
    const name = e.path.split('/').at(-1)!;
    const a = classifyPath(
      e.path.replace(/^.*?\/sessions\/[^/]+\/[^/]+\//, '').replace(/^.*?\/elsewhere\/[^/]+\//, ''),
      'file',
    );
    if (!GROK_SCHEMAS[a.kind] || name === 'expected.json') continue;
    const text = readFileSync(join(root, e.path), 'utf8');
    const where = relative(CORPORA, join(root, e.path));
    if (a.role === 'jsonl') {
      text.split('\n').forEach((line, i) => {
        try {
          out.push({ where: `${where}:${i + 1}`, kind: a.kind, value: JSON.parse(line) });
        } catch {
          /* damaged lines are the reader's business */
        }
      });
    } else {
      try {
        out.push({ where, kind: a.kind, value: JSON.parse(text) });
      } catch {
        /* unparseable documents are reported elsewhere */
      }
    }
  }
  return out;
}

/** The sample and damaged variants of it: each top-level key removed, or its value replaced. */
function variants(v: unknown): unknown[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return [v];
  const out: unknown[] = [v];
  for (const k of Object.keys(v)) {
    const { [k]: _dropped, ...rest } = v as Record<string, unknown>;
    out.push(rest);
    for (const bad of [42, null, 'x', [], {}]) out.push({ ...(v as object), [k]: bad });
  }
  return out;
}

describe('zod and ajv agree', () => {
  const samples = corpusSamples();
  test('the corpora hold records of most kinds', () => {
    const kinds = new Set(samples.map((s) => s.kind));
    for (const k of ['summary', 'updates', 'chat', 'rewind', 'plan', 'checkpoint', 'subagent-meta', 'subagent-output'])
      expect(kinds).toContain(k);
    expect(samples.length).toBeGreaterThan(300);
  });
  test('on every corpora record and on damaged variants of it', () => {
    let compared = 0;
    for (const s of samples) {
      const entry = GROK_SCHEMAS[s.kind]!;
      const ajv = validator(entry.file);
      for (const v of variants(s.value)) {
        const z = entry.schema.safeParse(v).success;
        const a = ajv(v) as boolean;
        if (z !== a) throw new Error(`${s.where}: zod says ${z}, ajv says ${a} for ${JSON.stringify(v).slice(0, 300)}`);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(3000);
  });
});
