/**
 * A config file never comes from the evidence: a `.session-audit.json` inside an input tree (a reviewer may `cd`
 * into it) is not read unless named with --config, and saying so is part of the run. Whatever config is read,
 * every report records the effective configuration, and the human outputs say what it hid.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../src/model/report.js';
import { BUILT, runBuilt } from './helpers/cli-child.js';
import { CORPORA } from './helpers/corpora.js';

const HOSTILE = {
  failOn: 'never',
  ignore: ['TOOL_INTERRUPTED_CALL', 'JSONL_TORN_TAIL', 'SESSION_UNEXPECTED_FILE', 'TIME_FILE_ORDER'],
};

describe.skipIf(!BUILT)('a hostile .session-audit.json inside the evidence', () => {
  let tmp = '';
  let evidence = '';
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-config-'));
    evidence = join(tmp, 'evidence');
    cpSync(join(CORPORA, 'grok', 'tool-interrupted-call'), join(evidence, 'a'), { recursive: true });
    cpSync(join(CORPORA, 'grok', 'jsonl-torn-tail'), join(evidence, 'b'), { recursive: true });
    writeFileSync(join(evidence, '.session-audit.json'), JSON.stringify(HOSTILE));
    writeFileSync(join(evidence, 'b', '.session-audit.json'), JSON.stringify(HOSTILE));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test.each([
    ['the working directory is the input', '.', ''],
    ['the working directory is below the input', '..', 'b'],
  ])('%s: not read; the run says so; the gate holds', (_n, input, sub) => {
    const cwd = join(evidence, sub);
    const r = runBuilt(['audit', input, '--format', 'json'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^session-audit: \.\/\.session-audit\.json not read: it lies inside the input /);
    expect(r.stderr).toMatch(/ \(evidence never configures its own audit; name it with --config to use it\)\n$/);
    expect(r.stderr.split('\n')).toHaveLength(2);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.configuration).toMatchObject({
      file: null,
      skipped: './.session-audit.json',
      failOn: 'error',
      failOnFrom: 'default',
      ignore: [],
    });
    expect(report.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['JSONL_TORN_TAIL']));
    const table = runBuilt(['audit', input, '--no-color'], { cwd });
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^\.\/\.session-audit\.json was not read: it lies inside an input/m);
  });

  test('named with --config it is read, and every output says what it hid and changed', () => {
    const cfg = join(evidence, '.session-audit.json');
    const json = runBuilt(['audit', evidence, '--config', cfg, '--format', 'json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as AuditReport;
    const c = report.configuration!;
    expect(c.file).toBe(cfg);
    expect(c.failOn).toBe('never');
    expect(c.failOnFrom).toBe('config');
    const hidden = Object.fromEntries(c.ignore.map((i) => [i.code, i]));
    expect(hidden.JSONL_TORN_TAIL).toEqual({ code: 'JSONL_TORN_TAIL', from: 'config', hidden: 1 });
    expect(hidden.TOOL_INTERRUPTED_CALL!.hidden).toBeGreaterThan(0);
    const total = c.ignore.reduce((n, i) => n + i.hidden, 0);
    expect(report.findings.some((f) => HOSTILE.ignore.includes(f.code))).toBe(false);

    const table = runBuilt(['audit', evidence, '--config', cfg, '--no-color']).stdout;
    expect(table).toContain(`${total} findings hidden by config ${cfg} (ignore `);
    expect(table).toContain(`--fail-on never set by config ${cfg}.`);
    expect(table).toMatch(/sessions? with no findings left to show \(\d+ findings? hidden: see below\)/);
    const md = runBuilt(['audit', evidence, '--config', cfg, '--format', 'markdown']).stdout;
    expect(md).toMatch(/findings hidden by config/);
    expect(md.split('\n')[0]).not.toMatch(/✅/);
    const sarif = runBuilt(['audit', evidence, '--config', cfg, '--format', 'sarif']).stdout;
    expect(sarif).toMatch(/findings hidden by config/);
    const html = runBuilt(['audit', evidence, '--config', cfg, '--format', 'html']).stdout;
    expect(html).toMatch(/<li>\d+ findings hidden by config/);
  });

  test('a config outside the inputs, in the working directory, is still read', () => {
    const cwd = mkdtempSync(join(tmp, 'ci-'));
    writeFileSync(join(cwd, '.session-audit.json'), JSON.stringify({ ignore: ['JSONL_TORN_TAIL'] }));
    const r = runBuilt(['audit', evidence, '--format', 'json', '--fail-on', 'never'], { cwd });
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.configuration!.file).toBe('./.session-audit.json');
    expect(report.configuration!.ignore).toEqual([{ code: 'JSONL_TORN_TAIL', from: 'config', hidden: 1 }]);
    expect(r.stderr).toBe('');
  });
});
