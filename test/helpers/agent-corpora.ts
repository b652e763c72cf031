/** Checks shared by the Codex and Claude Code corpora tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { z } from 'zod';
import { walkTree } from '../../src/read/walk.js';
import { CORPORA } from './corpora.js';
import { treeState } from './tree-hash.js';

/** corpora/<name> is byte for byte what the generator just wrote under `out`. */
export function expectShippedCorpora(out: string, name: string): void {
  const fresh = treeState(join(out, name), { meta: false });
  const shipped = treeState(join(CORPORA, name), { meta: false });
  expect([...shipped.keys()]).toEqual([...fresh.keys()]);
  for (const [k, v] of fresh) expect(shipped.get(k), k).toBe(v);
}

/**
 * The zod model and its generated JSON Schema accept and reject the same records, over every JSONL line of
 * corpora/<name>.
 */
export function expectModelAndSchemaAgree(name: string, model: z.ZodType, schema: ValidateFunction): void {
  let n = 0;
  for (const e of walkTree(join(CORPORA, name), 32)) {
    if (e.type !== 'file' || !e.path.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(CORPORA, name, e.path), 'utf8').split('\n')) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      n++;
      expect(model.safeParse(value).success, `${e.path}: ${line.slice(0, 80)}`).toBe(schema(value) as boolean);
    }
  }
  expect(n).toBeGreaterThan(100);
}
