/**
 * Large logs are schema-checked in a second thread: the report must be byte-identical to checking them in the
 * main thread, on every corpora case (damaged ones included). Run on the built CLI with the size threshold at
 * one byte so that every log takes the second thread.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { CORPORA } from './helpers/corpora.js';
import { isBuilt } from './helpers/built.js';

const bin = fileURLToPath(new URL('../bin/session-audit.js', import.meta.url));
const built = isBuilt('src/engine/parallel/schema-worker.js');

const run = (env: Record<string, string>, ...args: string[]): { out: string; code: number | null } => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  return { out: r.stdout, code: r.status };
};

test.skipIf(!built)('every log checked in a second thread gives the same report as in one thread', () => {
  // Damaged and schema cases (a worker per log takes a while to start: not every case).
  const cases = [
    'clean',
    'schema-violation',
    'schema-unknown-type',
    'schema-legacy-record',
    'jsonl-merged-line',
    'jsonl-nul-bytes',
    'jsonl-torn-tail',
    'jsonl-invalid-utf8',
    'jsonl-oversized-line',
  ].map((c) => join(CORPORA, 'grok', c));
  for (const command of ['audit', 'validate']) {
    const args = [command, ...cases, '--format', 'json', '--fail-on', 'never', '--max-line-bytes', '65536'];
    const one = run({ SESSION_AUDIT_NO_OFFLOAD: '1' }, ...args);
    const two = run({ SESSION_AUDIT_OFFLOAD_MIN_BYTES: '1' }, ...args);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.out).findings.some((f: { code: string }) => f.code === 'SCHEMA_VIOLATION')).toBe(true);
    expect(two.out).toBe(one.out);
  }
});
