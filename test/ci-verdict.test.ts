/**
 * CI gives one verdict (issue 31.7): a JUnit file never says failures="0" for a run whose gate failed; SARIF
 * results point at files code scanning can open (never a directory, never a file that is not there); `inspect`
 * exits 4 when a resume is not safe, and says so in its help and the README; the README's CI workflows audit the
 * tree once and write every format from that one report, each with the same verdict (run here as written).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { fails } from '../src/engine/report.js';
import type { Finding } from '../src/model/finding.js';
import type { AuditReport } from '../src/model/report.js';
import { renderJunit } from '../src/report/junit.js';
import { isBuilt } from './helpers/built.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'sa-ci-verdict-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const attr = (xml: string, name: string): number =>
  Number(new RegExp(`<testsuites [^>]*${name}="(\\d+)"`).exec(xml)![1]);

describe('JUnit', () => {
  test('a finding of no session audited still fails its testcase when it gates', () => {
    const f: Finding = {
      code: 'LINEAGE_DUPLICATE_ID',
      severity: 'error',
      message: 'two sessions share an id',
      check: 'lineage',
      session: 'root',
      sessionPath: 'root',
      location: { file: '' },
      fingerprint: 'f',
    };
    const counts = { error: 1, warning: 0, note: 0 };
    const report: AuditReport = {
      tool: { name: 'session-audit', version: '0' },
      reportVersion: 1,
      command: 'audit',
      summary: { sessions: 1, files: 0, bytes: 0, findings: counts, byCode: { LINEAGE_DUPLICATE_ID: 1 } },
      sessions: [{ id: 's', path: 'root/s', format: 'grok', files: [], findings: { error: 0, warning: 0, note: 0 } }],
      findings: [f],
      toolErrors: [],
    };
    expect(fails(report.findings, 'error')).toBe(true);
    const xml = renderJunit(report, 'error', () => ['lineage']);
    expect(attr(xml, 'failures')).toBeGreaterThan(0);
    expect(xml).toContain('LINEAGE_DUPLICATE_ID root');
    // Under the gate it is listed, not a failure.
    expect(
      attr(
        renderJunit(report, 'never', () => ['lineage']),
        'failures',
      ),
    ).toBe(0);
  });

  test('on every grok case: the JUnit failures are 0 exactly when the gate passes', async () => {
    for (const c of ['lineage', 'jsonl-torn-tail', 'tool-interrupted-call', 'clean']) {
      const r = await cli(['audit', join(CORPORA, 'grok', c), '--format', 'junit', '--fail-on', 'warning']);
      expect(attr(r.stdout, 'failures') > 0, c).toBe(r.code === 1);
    }
  });
});

describe('SARIF', () => {
  /** The file each result's artifact location names, resolved against its base. */
  async function places(cases: string[]): Promise<Array<{ rule: string; path: string; text: string }>> {
    const r = await cli(['audit', ...cases, '--format', 'sarif', '--fail-on', 'never']);
    const run = JSON.parse(r.stdout).runs[0] as {
      originalUriBaseIds: Record<string, { uri: string }>;
      results: Array<{
        ruleId: string;
        message: { text: string };
        locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }>;
      }>;
    };
    return run.results.map((x) => {
      const a = x.locations[0]!.physicalLocation.artifactLocation;
      const base = a.uriBaseId ? run.originalUriBaseIds[a.uriBaseId]!.uri : '';
      return { rule: x.ruleId, path: fileURLToPath(new URL(a.uri, base)), text: x.message.text };
    });
  }

  test('every result points at a file that is there: LINEAGE_DUPLICATE_ID, CLAUDE_TRANSCRIPT_MISSING', async () => {
    const list = await places([
      join(CORPORA, 'grok', 'lineage'),
      join(CORPORA, 'claude', 'transcript-missing'),
      join(CORPORA, 'claude', 'tool-results-alone'),
    ]);
    const codes = new Set(list.map((p) => p.rule));
    expect(codes).toContain('LINEAGE_DUPLICATE_ID');
    expect(codes).toContain('CLAUDE_TRANSCRIPT_MISSING');
    for (const p of list) {
      expect(existsSync(p.path), `${p.rule} ${p.path}`).toBe(true);
      expect(statSync(p.path).isDirectory(), `${p.rule} ${p.path}`).toBe(false);
    }
    // Placed elsewhere, the message says what it is about.
    const missing = list.find((p) => p.rule === 'CLAUDE_TRANSCRIPT_MISSING')!;
    expect(missing.text).toMatch(/\(about [^)]+\.jsonl, which is not there\)$/);
    expect(list.find((p) => p.rule === 'LINEAGE_DUPLICATE_ID')!.text).toMatch(/\(about the session .+\)$/);
  });
});

describe('inspect: exit 4, not safe to resume', () => {
  const session = (c: string): string => {
    const group = join(CORPORA, 'grok', c, 'sessions', '%2Fhome%2Fdev%2Fproj');
    return join(group, '019a3f2c-1d00-7a3e-8000-00000000a001');
  };

  test('a mutating call in flight, or conversation lines the loader drops: 4; a clean session: 0', async () => {
    const inFlight = await cli(['inspect', session('tool-interrupted-call'), '--fail-on', 'never', '--format', 'json']);
    expect(inFlight.code).toBe(4);
    const v = JSON.parse(inFlight.stdout) as { safeToResume: boolean; notSafe: string[] };
    expect(v.safeToResume).toBe(false);
    expect(v.notSafe.join(' ')).toContain('call_p4_migrate');
    // It wins over the findings' 1.
    expect((await cli(['inspect', session('tool-interrupted-call'), '--fail-on', 'note'])).code).toBe(4);
    const dropped = await cli(['inspect', session('jsonl-merged-prompt'), '--fail-on', 'never']);
    expect(dropped.code).toBe(4);
    expect(dropped.stdout).toContain("Not safe to resume (exit 4): the agent's loader drops 1 damaged line(s)");
    const clean = await cli(['inspect', session('clean'), '--fail-on', 'never']);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('Safe to resume as far as the files tell');
  });

  test('documented: in its help and in the README', async () => {
    const help = (await cli(['inspect', '--help'])).stdout;
    expect(help).toMatch(/\n\s+4\s+not safe to resume/);
    expect(README).toContain('`4` not safe to resume');
  });
});

/** The shell lines of the README's fenced block that starts after `marker`. */
function block(marker: string): string {
  const at = README.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  const open = README.indexOf('```yaml\n', at) + '```yaml\n'.length;
  return README.slice(open, README.indexOf('```', open));
}

describe.skipIf(!isBuilt('src/cli/main.js'))('the README CI workflows, run as written', () => {
  /** A checkout: the tool where the workflow expects it, two shipped cases as the artifacts. */
  function checkout(name: string): string {
    const dir = join(scratch, name);
    mkdirSync(join(dir, 'tools'), { recursive: true });
    symlinkSync(ROOT, join(dir, 'tools', 'session-audit'));
    for (const c of ['tool-interrupted-call', 'jsonl-torn-tail'])
      cpSync(join(CORPORA, 'grok', c), join(dir, 'artifacts', 'grok-sessions', c), { recursive: true });
    return dir;
  }
  const bash = (dir: string, script: string, env: Record<string, string> = {}) =>
    spawnSync('bash', ['-e', '-c', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });

  test('GitHub Actions: one audit; SARIF, the summary and the gate from its report, one verdict', () => {
    const yaml = block('GitHub Actions (upload SARIF');
    const run = /- name: Audit the session artifacts\n\s+run: \|\n((?:\s{8}.*\n)+)/
      .exec(yaml)![1]!
      .replace(/^ {8}/gm, '');
    expect(run.match(/\$SA audit /g)).toHaveLength(1);
    const dir = checkout('github');
    const summary = join(dir, 'summary.md');
    const r = bash(dir, run, { GITHUB_STEP_SUMMARY: summary });
    // The gate is the last line: the step fails there and only there, on the error of jsonl-torn-tail.
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('JSONL_TORN_TAIL');
    expect(readFileSync(summary, 'utf8')).toContain('**Gate: failed**: 1 finding at or above `error` (exit 1).');
    const sarif = JSON.parse(readFileSync(join(dir, 'session-audit.sarif'), 'utf8'));
    expect(sarif.runs[0].results.some((x: { level: string }) => x.level === 'error')).toBe(true);
  });

  test('GitLab CI: one audit; the HTML page and the JUnit gate from its report, one verdict', () => {
    const yaml = block('GitLab CI (JUnit');
    const lines = [...yaml.matchAll(/^ {4}- (.*)$/gm)].map((m) => m[1]!).filter((l) => !l.includes('npm ci'));
    expect(lines.join('\n').match(/\$SA audit /g)).toHaveLength(1);
    const dir = checkout('gitlab');
    const r = bash(dir, lines.join('\n'));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const xml = readFileSync(join(dir, 'session-audit.xml'), 'utf8');
    expect(attr(xml, 'failures')).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'session-audit.html'), 'utf8')).toContain('<b>Gate: failed</b>');
  });
});
