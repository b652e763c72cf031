/**
 * Large logs are checked in part in a second thread (the secret scan in an audit, the schema check in `validate`):
 * the report must be byte-identical to doing it all in the main thread, on every corpora case (damaged ones
 * included). Run on the built CLI with the size threshold at one byte so that every log takes the second thread.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { CORPORA } from './helpers/corpora.js';
import { isBuilt } from './helpers/built.js';

const bin = fileURLToPath(new URL('../bin/session-audit.js', import.meta.url));
const built = isBuilt('src/engine/parallel/record-worker.js');

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

test.skipIf(!built)('secrets found in the second thread are the findings of the main thread, past the cap too', () => {
  // The secret cases, and a copy of one whose log holds a key on 250 more lines (more than the 200 listed).
  const dir = mkdtempSync(join(tmpdir(), 'sa-offload-secrets-'));
  try {
    const copy = join(dir, 'secret-many');
    cpSync(join(CORPORA, 'grok', 'secret-in-session'), copy, { recursive: true });
    const log = join(
      copy,
      'sessions',
      '%2Fhome%2Fdev%2Fvault',
      '019a4000-5ec0-7000-8000-00000000c001',
      'updates.jsonl',
    );
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const chunk = lines.find((l) => l.includes('agent_message_chunk'))!;
    const more = Array.from({ length: 250 }, (_, i) =>
      chunk.replace(/"text":"[^"]*"/, `"text":"key xai-${String(i).padStart(4, '0')}AbCdEfGhIjKlMnOpQrSt"`),
    );
    writeFileSync(log, `${[...lines, ...more].join('\n')}\n`);
    const cases = [copy, join(CORPORA, 'grok', 'secret-in-session'), join(CORPORA, 'claude', 'secret-in-session')];
    const args = ['audit', ...cases, '--format', 'json', '--fail-on', 'never'];
    const one = run({ SESSION_AUDIT_NO_OFFLOAD: '1' }, ...args);
    const two = run({ SESSION_AUDIT_OFFLOAD_MIN_BYTES: '1' }, ...args);
    // Without the native addon the second thread parses every line: the same findings.
    const js = run({ SESSION_AUDIT_OFFLOAD_MIN_BYTES: '1', SESSION_AUDIT_NO_RE2: '1' }, ...args);
    expect(js.out).toBe(one.out);
    expect(one.code).toBe(0);
    const findings = JSON.parse(one.out).findings as Array<{ code: string; message: string }>;
    expect(findings.filter((f) => f.code === 'SECRET_IN_SESSION').length).toBeGreaterThan(200);
    expect(findings.some((f) => f.code === 'SECRET_IN_SESSION' && f.message.includes('more SECRET_IN_SESSION'))).toBe(
      true,
    );
    expect(two.out).toBe(one.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
