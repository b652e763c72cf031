/**
 * The CI-facing outputs: SARIF validates against the official 2.1.0 schema for every corpora case, JUnit is
 * well-formed XML with unique names, Markdown stays inert and bounded; baselines, the config file, --jobs and
 * the progress bar behave.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../src/cli/main.js';
import type { Finding } from '../src/model/finding.js';
import type { AuditReport } from '../src/model/report.js';
import { renderSarif, SARIF_MAX_RESULTS, pathUri } from '../src/report/sarif.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { renderJunit } from '../src/report/junit.js';
import { loadConfig } from '../src/config/load.js';
import { cli } from './helpers/cli.js';
import { CORPORA, corpusCases, materialise } from './helpers/corpora.js';
import { isBuilt } from './helpers/built.js';

const require = createRequire(import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'sa-ci-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SARIF_SCHEMA = fileURLToPath(new URL('../../shared/external/sarif/sarif-schema-2.1.0.json', import.meta.url));
const built = isBuilt('src/engine/parallel/worker.js');

function sarifValidator(): ((v: unknown) => boolean) & { errors?: unknown } {
  const Ajv4 = require('ajv-draft-04') as new (
    o: object,
  ) => { compile: (s: unknown) => ((v: unknown) => boolean) & { errors?: unknown } };
  const addFormats = require('ajv-formats') as (a: unknown) => void;
  const ajv = new Ajv4({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA, 'utf8')));
}

const auditCases = corpusCases().filter((c) => c.format === 'grok' && c.expected.command === undefined);

function fakeReport(findings: Finding[]): AuditReport {
  const counts = { error: 0, warning: 0, note: 0 };
  for (const f of findings) counts[f.severity]++;
  return {
    tool: { name: 'session-audit', version: '0' },
    reportVersion: 1,
    command: 'audit',
    summary: { sessions: 1, files: 0, bytes: 0, findings: counts, byCode: {} },
    sessions: [{ id: 's', path: 'root/s', format: 'grok', files: [], findings: counts }],
    findings,
    toolErrors: [],
  };
}
const finding = (i: number, severity: Finding['severity'], message = `m${i}`): Finding => ({
  code: 'JSONL_BAD_LINE',
  severity,
  message,
  check: 'jsonl-integrity',
  session: 's',
  sessionPath: 'root/s',
  location: { file: 'updates.jsonl', line: i + 1, byteOffset: i * 10 },
  fingerprint: `fp${i}`,
});

describe('SARIF 2.1.0', () => {
  const validate = existsSync(SARIF_SCHEMA) ? sarifValidator() : undefined;
  test.skipIf(!validate).each(auditCases.map((c) => [c.name, c] as const))(
    '%s validates against the official schema',
    async (_n, c) => {
      const dir = materialise(c);
      const args = (c.expected.args ?? []).map((a) => (existsSync(join(dir, a)) ? join(dir, a) : a));
      const r = await cli(['audit', dir, '--format', 'sarif', '--fail-on', 'never', ...args]);
      const sarif = JSON.parse(r.stdout) as {
        runs: Array<{
          results: Array<{
            ruleId: string;
            ruleIndex: number;
            partialFingerprints: Record<string, string>;
            locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }>;
          }>;
          tool: { driver: { rules: Array<{ id: string }>; informationUri?: string } };
          artifacts: Array<{ hashes?: Record<string, string> }>;
          originalUriBaseIds: Record<string, { uri: string }>;
        }>;
      };
      const ok = validate!(sarif);
      expect(ok, JSON.stringify(validate!.errors, null, 1)?.slice(0, 2000)).toBe(true);
      const json = JSON.parse(
        (await cli(['audit', dir, '--format', 'json', '--fail-on', 'never', ...args])).stdout,
      ) as AuditReport;
      const run = sarif.runs[0]!;
      expect(run.results.length).toBe(json.findings.length);
      const ids = run.tool.driver.rules.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const [i, res] of run.results.entries()) {
        expect(ids[res.ruleIndex]).toBe(res.ruleId);
        expect(res.partialFingerprints['sessionAudit/v2']).toBe(json.findings[i]!.fingerprint);
        // The case is materialised outside the working directory: relative URIs under the input's base id.
        const loc = res.locations[0]!.physicalLocation.artifactLocation;
        expect(loc.uri).not.toMatch(/^(\/|file:)/);
        expect(run.originalUriBaseIds[loc.uriBaseId!]!.uri).toMatch(/^file:\/\/\/.*\/$/);
      }
      expect(run.tool.driver.informationUri).toBeUndefined();
      expect(run.artifacts.every((a) => /^[0-9a-f]{64}$/.test(a.hashes?.['sha-256'] ?? ''))).toBe(true);
    },
  );
  test('URIs are relative, stable and percent-encoded', () => {
    expect(pathUri('corpora/grok/x/sessions/%2Fhome%2Fdev/0199/updates.jsonl')).toBe(
      'corpora/grok/x/sessions/%252Fhome%252Fdev/0199/updates.jsonl',
    );
    expect(pathUri('a b/#c')).toBe('a%20b/%23c');
  });
  test(`past ${SARIF_MAX_RESULTS} results the most severe are kept and a notification says so`, () => {
    const findings: Finding[] = [];
    for (let i = 0; i < SARIF_MAX_RESULTS + 10; i++) findings.push(finding(i, i % 1000 === 0 ? 'error' : 'note'));
    const sarif = JSON.parse(renderSarif(fakeReport(findings))) as {
      runs: Array<{
        results: Array<{ level: string }>;
        invocations: Array<{ toolExecutionNotifications: Array<{ message: { text: string } }> }>;
      }>;
    };
    const run = sarif.runs[0]!;
    expect(run.results.length).toBe(SARIF_MAX_RESULTS);
    expect(run.results.filter((r) => r.level === 'error').length).toBe(26);
    expect(run.invocations[0]!.toolExecutionNotifications[0]!.message.text).toMatch(/10 less severe ones are left out/);
    if (validate) expect(validate(sarif)).toBe(true);
  });
});

describe('JUnit XML', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
  test.each(auditCases.map((c) => [c.name, c] as const))('%s is well-formed with unique test names', async (_n, c) => {
    const dir = materialise(c);
    const args = (c.expected.args ?? []).map((a) => (existsSync(join(dir, a)) ? join(dir, a) : a));
    const r = await cli(['audit', dir, '--format', 'junit', ...args]);
    expect(XMLValidator.validate(r.stdout)).toBe(true);
    const doc = parser.parse(r.stdout) as { testsuites: { testsuite: unknown } };
    const suites = ([] as Array<{ name: string; testcase: unknown; failures: string }>).concat(
      doc.testsuites.testsuite as never,
    );
    const names = new Set<string>();
    let failing = 0;
    for (const s of suites) {
      for (const tc of ([] as Array<{ classname: string; name: string; failure?: unknown }>).concat(
        s.testcase as never,
      )) {
        const key = `${tc.classname}\u0000${tc.name}`;
        expect(names.has(key), key).toBe(false);
        names.add(key);
        if (tc.failure) failing++;
      }
    }
    const json = JSON.parse(
      (await cli(['audit', dir, '--format', 'json', '--fail-on', 'never', ...args])).stdout,
    ) as AuditReport;
    const failingChecks = new Set(
      json.findings.filter((f) => f.severity === 'error').map((f) => `${f.sessionPath}\u0000${f.check}`),
    );
    expect(failing).toBe(failingChecks.size);
    expect(r.code).toBe(failingChecks.size ? 1 : 0);
  });
  test('hostile text stays well-formed XML', () => {
    const xml = renderJunit(
      fakeReport([finding(0, 'error', 'a <b> & "c" ]]> \u0000\u001b[31m \ud800 end')]),
      'error',
      () => ['jsonl-integrity'],
    );
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('\\e[31m');
  });
});

describe('Markdown', () => {
  test('session content cannot become markup, links or mentions; the size is bounded', () => {
    const hostile =
      '<script>alert(1)</script> | [x](javascript:alert(1)) ![i](http://e/x.png) @everyone `code` **b**\n# h';
    const findings = Array.from({ length: 10_000 }, (_, i) =>
      finding(i, i % 3 === 0 ? 'error' : 'warning', hostile.repeat(3)),
    );
    const md = renderMarkdown(fakeReport(findings), 'error');
    expect(md.length).toBeLessThan(65_536);
    expect(md).not.toContain('<script');
    expect(md).not.toMatch(/\]\(javascript/);
    expect(md).not.toMatch(/(^|[^\\])@everyone/);
    expect(md).toMatch(/The 50 most severe of 10000 findings/);
    for (const line of md.split('\n').filter((l) => l.startsWith('| 🔴')))
      expect(line.split(/(?<!\\)\|/).length).toBe(7);
  });
  test('a clean run says so', async () => {
    const r = await cli(['audit', join(CORPORA, 'codex', 'clean'), '--format', 'markdown']);
    expect(r.stdout).toMatch(/^## session-audit audit: ✅ no findings\n\n\*\*Gate: passed\*\*/);
    expect(r.code).toBe(0);
  });
  test('a run with notes only counts them and never says "no findings"', async () => {
    // Two permission-mode changes that widen nothing, and a v1 Pi file: notes only.
    const dirs = ['claude/permission-mode-changed', 'pi/version-old'].map((c) => join(CORPORA, c));
    const r = await cli(['audit', ...dirs, '--format', 'markdown']);
    expect(r.stdout).toMatch(/^## session-audit audit: 🔵 0 errors, 0 warnings, 3 notes\n\n\*\*Gate: passed\*\*/);
    expect(r.stdout).not.toMatch(/✅/);
    expect(r.code).toBe(0);
  });
});

describe('baselines', () => {
  test('known findings are suppressed, counted, and vanished entries listed', async () => {
    const dir = join(CORPORA, 'grok', 'tool-interrupted-call');
    const first = (await cli(['audit', dir, '--format', 'json', '--fail-on', 'never'])).stdout;
    const report = JSON.parse(first) as AuditReport;
    expect(report.findings.length).toBeGreaterThan(1);
    const base = join(scratch, 'baseline.json');
    writeFileSync(base, first);
    const again = await cli(['audit', dir, '--format', 'json', '--baseline', base]);
    const r2 = JSON.parse(again.stdout) as AuditReport;
    expect(r2.findings).toEqual([]);
    expect(r2.baseline).toEqual({
      path: base,
      suppressed: report.findings.length,
      absent: [],
      matchedBy: 'fingerprint',
    });
    expect(again.code).toBe(0);
    // One known finding dropped from the baseline, one stale entry added.
    const edited = {
      ...report,
      findings: [...report.findings.slice(1), { ...report.findings[0]!, fingerprint: 'gone' }],
    };
    writeFileSync(base, JSON.stringify(edited));
    const r3 = JSON.parse(
      (await cli(['audit', dir, '--format', 'json', '--fail-on', 'never', '--baseline', base])).stdout,
    ) as AuditReport;
    expect(r3.findings.map((f) => f.fingerprint)).toEqual([report.findings[0]!.fingerprint]);
    expect(r3.baseline!.absent.map((a) => a.fingerprint)).toEqual(['gone']);
    expect(r3.summary.findings.error + r3.summary.findings.warning + r3.summary.findings.note).toBe(1);
    const table = await cli(['audit', dir, '--baseline', base, '--fail-on', 'never']);
    expect(table.stdout).toMatch(/1 known finding.*suppressed|suppressed/);
  });
  test('a baseline that is not a report is one clear error', async () => {
    const bad = join(scratch, 'bad-baseline.json');
    writeFileSync(bad, '{"findings":[{"code":1}]}');
    const r = await cli(['audit', join(CORPORA, 'grok', 'clean'), '--baseline', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--baseline .*not a session-audit JSON report: at \/findings\/0/);
  });
});

describe('config file', () => {
  test('defaults come from the file; flags override it; paths are relative to it', async () => {
    const dir = mkdtempSync(join(scratch, 'cfg-'));
    writeFileSync(
      join(dir, '.session-audit.json'),
      JSON.stringify({
        failOn: 'warning',
        format: 'json',
        ignore: ['TOOL_INTERRUPTED_CALL'],
        severity: { TOOL_UNANSWERED_CALL: 'note' },
      }),
    );
    expect(loadConfig(undefined, [], dir).config.failOn).toBe('warning');
    expect(loadConfig(undefined, [], scratch).config).toEqual({});
    const cfg = join(dir, '.session-audit.json');
    const target = join(CORPORA, 'grok', 'tool-interrupted-call');
    const r = await cli(['audit', target, '--config', cfg]);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.findings.some((f) => f.code === 'TOOL_INTERRUPTED_CALL')).toBe(false);
    expect(report.findings.filter((f) => f.code === 'TOOL_UNANSWERED_CALL').every((f) => f.severity === 'note')).toBe(
      true,
    );
    const table = await cli(['audit', target, '--config', cfg, '--format', 'table', '--fail-on', 'never']);
    expect(table.stdout).toMatch(/Audited/);
    expect(table.code).toBe(0);
  });
  test.each([
    ['{"failOn":"sometimes"}', /at \/failOn: /],
    ['{"ignore":["NOT_A_CODE"]}', /unknown finding code "NOT_A_CODE"/],
    ['{"colour":true}', /at \(top level\): Unrecognized key/],
    ['{not json', /not valid JSON/],
  ])('invalid config %s: one line, exit 2', async (text, msg) => {
    const f = join(mkdtempSync(join(scratch, 'bad-')), '.session-audit.json');
    writeFileSync(f, text);
    const r = await cli(['audit', join(CORPORA, 'grok', 'clean'), '--config', f]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(msg);
  });
});

describe('many sessions', () => {
  test.skipIf(!built)('--jobs 2 produces byte-identical JSON to --jobs 1', async () => {
    const root = join(CORPORA, 'grok');
    const one = await cli(['audit', root, '--format', 'json', '--fail-on', 'never', '--jobs', '1']);
    const two = await cli(['audit', root, '--format', 'json', '--fail-on', 'never', '--jobs', '2']);
    expect(JSON.parse(one.stdout).summary.sessions).toBeGreaterThan(50);
    expect(two.stdout).toBe(one.stdout);
    expect(two.code).toBe(one.code);
  });
  test.skipIf(!built)('--jobs 3 (this thread and two workers) over every agent gives the --jobs 1 report', async () => {
    const one = await cli(['audit', CORPORA, '--format', 'json', '--fail-on', 'never', '--jobs', '1']);
    const three = await cli(['audit', CORPORA, '--format', 'json', '--fail-on', 'never', '--jobs', '3']);
    expect(new Set(JSON.parse(one.stdout).sessions.map((s: { format: string }) => s.format)).size).toBeGreaterThan(4);
    expect(three.stdout).toBe(one.stdout);
    expect(three.code).toBe(one.code);
  });
  test('a progress bar only on a terminal, on stderr', async () => {
    const run = async (progress: boolean): Promise<{ out: string; err: string }> => {
      let out = '';
      let err = '';
      await main(['audit', join(CORPORA, 'grok', 'clean'), '--fail-on', 'never'], {
        stdout: (s) => (out += s),
        stderr: (s) => (err += s),
        setExitCode: () => {},
        isTTY: false,
        progress,
        columns: 100,
      });
      return { out, err };
    };
    const tty = await run(true);
    expect(tty.err).toMatch(/\r\u001b\[2Kauditing \[#+\] 3\/3 sessions/);
    expect(tty.out).not.toContain('\r');
    expect((await run(false)).err).toBe('');
  });
  test('--jobs must be a sensible number', async () => {
    const r = await cli(['audit', join(CORPORA, 'grok', 'clean'), '--jobs', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jobs 0: expected a whole number/);
  });
});
