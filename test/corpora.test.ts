/** Every corpora case audits to exactly what its expected.json says; the checked-in corpora match the generator. */
import { existsSync, mkdtempSync } from 'node:fs';
import type { InspectReport } from '../src/inspect/report.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { generate, generateBundleCorpora, generateStoreCorpora } from '../scripts/gen-corpora.js';
import { catalog } from '../src/checks/catalog.js';
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
    // audit takes the case directory, or one file of it (`target`); inspect and verify always name theirs.
    const target = c.expected.target === undefined ? dir : join(dir, c.expected.target);
    const command =
      c.expected.command === 'verify-store' ? ['verify', '--store', target] : [c.expected.command ?? 'audit', target];
    const r = await cli([...command, '--format', 'json', '--fail-on', 'never', ...args]);
    // verify repeats its warnings on stderr; nothing else may appear there.
    for (const line of r.stderr.split('\n').filter(Boolean))
      expect(
        c.expected.command?.startsWith('verify') && /^session-audit: warning: (BUNDLE|STORE)_/.test(line),
        line,
      ).toBe(true);
    const parsed = JSON.parse(r.stdout) as AuditReport & InspectReport;
    // inspect exits 4 when a resume is not safe, whatever --fail-on.
    expect(r.code).toBe(inspect && !parsed.safeToResume ? 4 : 0);
    const report = inspect
      ? {
          findings: parsed.findings.list.map((f) => ({
            ...f,
            location: {
              ...f.location,
              file: f.location.file.startsWith(dir) ? f.location.file.slice(dir.length + 1) : f.location.file,
            },
          })),
          toolErrors: [],
        }
      : parsed;
    expect(report.toolErrors).toEqual([]);
    const produced = new Set(report.findings.map((f) => f.code));
    for (const code of c.expected.must) expect(produced, `must produce ${code}`).toContain(code);
    for (const code of c.expected.mustNot) expect(produced, `must not produce ${code}`).not.toContain(code);
    const matches = (f: (typeof report.findings)[number], at: NonNullable<typeof c.expected.at>[number]): boolean =>
      f.code === at.code &&
      f.location.file === at.file &&
      (at.line === undefined || f.location.line === at.line) &&
      (at.severity === undefined || f.severity === at.severity) &&
      (at.session === undefined || f.sessionPath.endsWith(at.session));
    for (const at of c.expected.at ?? []) {
      expect(
        report.findings.find((f) => matches(f, at)),
        `${at.code} at ${at.session ?? ''} ${at.file}:${at.line ?? ''} ${at.severity ?? ''}`,
      ).toBeDefined();
    }
    // Codes that must be reported exactly where expected: once per expected place, nowhere else.
    for (const code of c.expected.onlyAt ?? []) {
      const got = report.findings.filter((f) => f.code === code);
      const want = (c.expected.at ?? []).filter((a) => a.code === code);
      expect(got.length, `${code}: ${got.map((f) => f.sessionPath).join(', ')}`).toBe(want.length);
      for (const f of got)
        expect(
          want.some((a) => matches(f, a)),
          `${code} on ${f.sessionPath}`,
        ).toBe(true);
    }
    if (c.expected.maxSeverity) {
      const allowed = c.expected.maxSeverity === 'note' ? ['note'] : ['note', 'warning'];
      for (const f of report.findings) expect(allowed, `${f.code} is ${f.severity}`).toContain(f.severity);
    }
  });
});

test("the clean corpus is clean: the writer's order (ACP lines after later xAI lines) is no finding", async () => {
  const r = await cli(['audit', join(CORPORA, 'grok', 'clean'), '--format', 'json']);
  const report = JSON.parse(r.stdout) as AuditReport;
  // Written the way Grok's writer writes every log: each session's updates.jsonl has ACP lines after later xAI
  // lines. The timeline flags them (L); a note on every healthy log would say nothing (issue 31.2).
  expect(report.findings).toEqual([]);
  expect(report.summary.sessions).toBe(3);
  expect(r.code).toBe(0);
  const t = await cli([
    'timeline',
    join(CORPORA, 'grok', 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001'),
    '--format',
    'jsonl',
  ]);
  expect(t.stdout.split('\n').filter((l) => l.includes('"displaced":true')).length).toBeGreaterThan(0);
});

/**
 * Codes kept in the catalog for the reports and baselines that name them, which a healthy session no longer
 * produces and nothing unhealthy does either (their help says so).
 */
const RETIRED = new Set(['TIME_FILE_ORDER']);

test('every finding code in the catalog has a corpora case that produces it', () => {
  const covered = new Set(cases.flatMap((c) => c.expected.must));
  const missing = catalog()
    .map((e) => e.code)
    .filter((code) => !covered.has(code) && !RETIRED.has(code));
  expect(missing).toEqual([]);
});

test('the checked-in corpora are exactly what the generator writes', async () => {
  const out = mkdtempSync(join(tmpdir(), 'sa-corpora-'));
  generate(out);
  const fresh = treeState(join(out, 'grok'), { meta: false });
  const shipped = treeState(join(CORPORA, 'grok'), { meta: false });
  expect([...shipped.keys()]).toEqual([...fresh.keys()]);
  for (const [k, v] of fresh) expect(shipped.get(k), k).toBe(v);
  // Bags record the machine that made them (bag-info.txt, so the tag manifests and custody statement too);
  // everything else, payload and payload manifests included, must be identical.
  await generateBundleCorpora(out, join(out, 'grok', 'clean'));
  const tags = [
    'bag-info\\.txt',
    'tagmanifest-sha(256|512)\\.txt',
    'custody\\.(intoto|dsse)\\.json',
    'audit-report\\.json',
  ];
  const machineBound = new RegExp(`(^|/)(${tags.join('|')}|bag\\.(zip|tar\\.gz|tar))$`);
  const keep = (m: Map<string, string>) => new Map([...m].filter(([k]) => !machineBound.test(k)));
  const freshB = keep(treeState(join(out, 'bundles'), { meta: false }));
  const shippedB = keep(treeState(join(CORPORA, 'bundles'), { meta: false }));
  expect([...shippedB.keys()]).toEqual([...freshB.keys()]);
  for (const [k, v] of freshB) expect(shippedB.get(k), k).toBe(v);
  // Stores: the records, the head and the index name the run's paths and times; the objects and cases do not.
  generateStoreCorpora(out, join(CORPORA, 'codex', 'clean'));
  const runBound = /(^|\/)store\/(captures(\/|$)|head\.json$|index\.sqlite$)/;
  const keepS = (m: Map<string, string>) => new Map([...m].filter(([k]) => !runBound.test(k)));
  const freshS = keepS(treeState(join(out, 'stores'), { meta: false }));
  const shippedS = keepS(treeState(join(CORPORA, 'stores'), { meta: false }));
  expect([...shippedS.keys()]).toEqual([...freshS.keys()]);
  for (const [k, v] of freshS) expect(shippedS.get(k), k).toBe(v);
});
