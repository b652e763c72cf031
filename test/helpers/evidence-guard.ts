/**
 * Global setup: fingerprint every corpora file (content, mode, mtime) before the whole suite and compare after.
 * Evidence is read-only: if any test run changed, created or removed anything under corpora/, the run fails.
 */
import { fileURLToPath } from 'node:url';
import { diffStates, treeState } from './tree-hash.js';

const root = fileURLToPath(new URL('../../corpora', import.meta.url));
let before: Map<string, string>;

export function setup(): void {
  before = treeState(root);
}

export function teardown(): void {
  const changes = diffStates(before, treeState(root));
  if (changes.length === 0) return;
  // An exception thrown here is only logged by vitest; set the exit code so the run fails.
  process.stderr.write(
    `\nFAIL evidence guard: the test suite modified the evidence under corpora/:\n${changes.slice(0, 20).join('\n')}\n`,
  );
  process.exitCode = 1;
}
