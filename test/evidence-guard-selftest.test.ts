import { mkdtempSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { diffStates, treeState } from './helpers/tree-hash.js';

test('the evidence guard sees content, mtime and new files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sa-guard-'));
  writeFileSync(join(dir, 'a.jsonl'), '{}\n');
  const before = treeState(dir);
  expect(diffStates(before, treeState(dir))).toEqual([]);
  utimesSync(join(dir, 'a.jsonl'), new Date(0), new Date(0));
  writeFileSync(join(dir, 'b'), 'x');
  expect(diffStates(before, treeState(dir))).toEqual(['changed: a.jsonl', 'created: b']);
});
