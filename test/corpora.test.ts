/** Every corpora case audits to exactly what its expected.json says; the checked-in corpora match the generator. */
import { existsSync, mkdtempSync } from 'node:fs';
import type { InspectReport } from '../src/inspect/report.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { generate } from '../scripts/gen-corpora.js';
import { catalog } from '../src/checks/registry.js';
import type { AuditReport } from '../src/model/report.js';
import { cli } from './helpers/cli.js';
import { CORPORA, corpusCases, materialise } from './helpers/corpora.js';
import { treeState } from './helpers/tree-hash.js';

const cases = corpusCases();

describe.each(cases)('$format/$name', (c) => {
  test('produces the codes it must, none it must not, at the expected locations', async () => {
    const dir = materialise(c);
    // Arguments that name files of the case are relative to the case directory.
    const args = (c.expected.args ?? []).map((a) => (existsSync(join(dir, a)) ? join(dir, a) : a));
    const inspect = c.expected.command === 'inspect';
    const r = await cli(inspect ? ['inspect', join(dir, c.expected.target!), '--format', 'json', '--fail-on', 'never', ...args] : ['audit', dir, '--format', 'json', '--fail-on', 'never', ...args]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout) as AuditReport & InspectReport;
    const report = inspect ? { findings: parsed.findings.list.map((f) => ({ ...f, location: { ...f.location, file: f.location.file.startsWith(dir) ? f.location.file.slice(dir.length + 1) : f.location.file } })), toolErrors: [] } : parsed;
    expect(report.toolErrors).toEqual([]);
    const produced = new Set(report.findings.map((f) => f.code));
    for (const code of c.expected.must) expect(produced, `must produce ${code}`).toContain(code);
    for (const code of c.expected.mustNot) expect(produced, `must not produce ${code}`).not.toContain(code);
    const matches = (f: (typeof report.findings)[number], at: NonNullable<typeof c.expected.at>[number]): boolean =>
      f.code === at.code && f.location.file === at.file && (at.line === undefined || f.location.line === at.line) && (at.severity === undefined || f.severity === at.severity) && (at.session === undefined || f.sessionPath.endsWith(at.session));
    for (const at of c.expected.at ?? []) {
      expect(report.findings.find((f) => matches(f, at)), `${at.code} at ${at.session ?? ''} ${at.file}:${at.line ?? ''} ${at.severity ?? ''}`).toBeDefined();
    }
    // Codes that must be reported exactly where expected: once per expected place, nowhere else.
    for (const code of c.expected.onlyAt ?? []) {
      const got = report.findings.filter((f) => f.code === code);
      const want = (c.expected.at ?? []).filter((a) => a.code === code);
      expect(got.length, `${code}: ${got.map((f) => f.sessionPath).join(', ')}`).toBe(want.length);
      for (const f of got) expect(want.some((a) => matches(f, a)), `${code} on ${f.sessionPath}`).toBe(true);
    }
    if (c.expected.maxSeverity) {
      const allowed = c.expected.maxSeverity === 'note' ? ['note'] : ['note', 'warning'];
      for (const f of report.findings) expect(allowed, `${f.code} is ${f.severity}`).toContain(f.severity);
    }
  });
});

test('the clean corpus is entirely clean', async () => {
  const r = await cli(['audit', join(CORPORA, 'grok', 'clean'), '--format', 'json']);
  const report = JSON.parse(r.stdout) as AuditReport;
  expect(report.findings).toEqual([]);
  expect(report.summary.sessions).toBe(3);
  expect(r.code).toBe(0);
});

test('every finding code in the catalog has a corpora case that produces it', () => {
  const covered = new Set(cases.flatMap((c) => c.expected.must));
  const missing = catalog().map((e) => e.code).filter((code) => !covered.has(code));
  expect(missing).toEqual([]);
});

test('the checked-in corpora are exactly what the generator writes', () => {
  const out = mkdtempSync(join(tmpdir(), 'sa-corpora-'));
  generate(out);
  const fresh = treeState(join(out, 'grok'), { meta: false });
  const shipped = treeState(join(CORPORA, 'grok'), { meta: false });
  expect([...shipped.keys()]).toEqual([...fresh.keys()]);
  for (const [k, v] of fresh) expect(shipped.get(k), k).toBe(v);
});
