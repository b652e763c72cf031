/** The command line: exit codes, one-line usage errors, the JSON report's schema, terminal safety, options. */
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { validator } from '../src/formats/schema-runtime.js';
import type { AuditReport } from '../src/model/report.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const clean = join(CORPORA, 'grok', 'clean');
const torn = join(CORPORA, 'grok', 'jsonl-torn-tail');
/** The torn line, as the case's expected.json places it. */
const tornAt = (JSON.parse(readFileSync(join(torn, 'expected.json'), 'utf8')) as { at: Array<{ line: number }> }).at[0]!
  .line;
const crlf = join(CORPORA, 'grok', 'jsonl-crlf');

describe('exit codes', () => {
  test('0 when nothing reaches --fail-on', async () => {
    expect((await cli(['audit', clean])).code).toBe(0);
    expect((await cli(['audit', crlf])).code).toBe(0); // a note is below the default threshold
  });
  test('1 when a finding is at or above --fail-on', async () => {
    expect((await cli(['audit', torn])).code).toBe(1);
    expect((await cli(['audit', crlf, '--fail-on', 'note'])).code).toBe(1);
    expect((await cli(['audit', torn, '--fail-on', 'never'])).code).toBe(0);
  });
  test('--ignore and --severity change what gates', async () => {
    expect((await cli(['audit', torn, '--ignore', 'JSONL_TORN_TAIL'])).code).toBe(0);
    expect((await cli(['audit', torn, '--severity', 'JSONL_TORN_TAIL=note'])).code).toBe(0);
    const r = await cli(['audit', crlf, '--severity', 'JSONL_CRLF=error', '--format', 'json']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as AuditReport).findings[0]!.severity).toBe('error');
  });
});

describe('usage errors: one line on stderr, exit 2', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['missing path', ['audit', '/no/such/dir'], /no such file or directory/],
    ['a file, not a directory', ['audit', join(clean, 'expected.json')], /not a directory/],
    ['no session below', ['audit', `${tmpdir()}/sa-empty-${process.pid}`], /no such file|no session found/],
    ['bad --format', ['audit', clean, '--format', 'xml'], /--format "xml"/],
    ['bad --fail-on', ['audit', clean, '--fail-on', 'sometimes'], /--fail-on "sometimes"/],
    ['unknown code in --ignore', ['audit', clean, '--ignore', 'NOPE'], /unknown finding code/],
    ['bad --severity', ['audit', clean, '--severity', 'JSONL_CRLF=fatal'], /CODE=error\|warning\|note/],
    ['bad --max-line-bytes', ['audit', clean, '--max-line-bytes', '-5'], /positive whole number/],
    ['unknown option', ['audit', clean, '--frobnicate'], /unknown option --frobnicate for audit/],
    ['an option the command does not use', ['validate', clean, '--shard', '1/2'], /unknown option --shard/],
    ['no command', [], /give a command/],
    ['unknown code for checks', ['checks', 'NOPE'], /unknown finding code/],
  ];
  test.each(cases)('%s', async (_name, args, re) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(re);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('an empty directory has no session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sa-empty-'));
    const r = await cli(['audit', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no session found/);
  });

  test('a relative path with no session is described, not called unlistable', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sa-rel-'));
    writeFileSync(join(dir, 'notes.txt'), 'x');
    const r = await cli(['audit', relative(process.cwd(), dir)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no session found .*it holds 1 file \(notes\.txt\)/);
    expect(r.stderr).not.toMatch(/ERACE/);
  });

  test('--output inside the evidence is refused, and nothing is written', async () => {
    const target = join(clean, 'report.json');
    const r = await cli(['audit', clean, '--format', 'json', '--output', target]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to write inside the input directory/);
    expect(existsSync(target)).toBe(false);
  });
});

describe('the JSON report', () => {
  test('validates against schemas/report.schema.json', async () => {
    const r = await cli(['audit', join(CORPORA, 'grok'), '--format', 'json', '--fail-on', 'never']);
    const report = JSON.parse(r.stdout) as unknown;
    const v = validator('report.schema.json');
    expect(v(report), JSON.stringify(v.errors)).toBe(true);
  });

  test('has findings with code, severity, message and a location relative to the session dir', async () => {
    const r = await cli(['audit', torn, '--format', 'json']);
    const report = JSON.parse(r.stdout) as AuditReport;
    const findings = report.findings;
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      code: 'JSONL_TORN_TAIL',
      severity: 'error',
      location: { file: 'updates.jsonl', line: tornAt },
    });
    expect(report.sessions[0]!.files.find((f) => f.path === 'updates.jsonl')!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  test('is byte-identical across runs and independent of argument order', async () => {
    const a = await cli(['audit', torn, crlf, '--format', 'json']);
    const b = await cli(['audit', crlf, torn, '--format', 'json']);
    expect(a.stdout).toBe(b.stdout);
  });

  test('--output writes the file', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'sa-out-')), 'r.json');
    const r = await cli(['audit', torn, '--format', 'json', '--output', out]);
    expect(r.stdout).toBe('');
    const report = JSON.parse(readFileSync(out, 'utf8')) as AuditReport;
    expect(report.findings.filter((f) => f.code === 'JSONL_TORN_TAIL')).toHaveLength(1);
  });
});

describe('terminal safety', () => {
  test('control characters and bidi overrides from session content never reach the terminal raw', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sa-esc-'));
    const dir = join(root, '%2Ftmp', 'evil\u001b[31m\u202e');
    mkdirSync(dir, { recursive: true });
    const tag = '\u001b]0;pwned\u0007\u202e';
    writeFileSync(
      join(dir, 'updates.jsonl'),
      JSON.stringify({
        timestamp: 1,
        method: '_x.ai/session/update',
        params: { sessionId: 's', update: { sessionUpdate: tag } },
      }) + '\n',
    );
    writeFileSync(
      join(dir, 'chat_history.jsonl'),
      `{"type":"user","content":[{"type":"text","text":"raw \u001b[2J in a torn line`,
    );
    writeFileSync(join(dir, 'notes\u001b[2J.txt'), 'x');
    const r = await cli(['audit', root, '--fail-on', 'never', '--color', 'false']);
    expect(r.stdout).toMatch(/SCHEMA_UNKNOWN_TYPE/);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(r.stdout).toContain('\\e');
  });
});

test('validate runs the schema-level checks only', async () => {
  const r = await cli(['validate', torn, '--format', 'json']);
  const report = JSON.parse(r.stdout) as AuditReport;
  expect(report.command).toBe('validate');
  expect(report.findings.map((f) => f.code)).toEqual(['JSONL_TORN_TAIL']);
});

test('checks lists the catalog and explains a code', async () => {
  const list = await cli(['checks']);
  expect(list.stdout).toMatch(/JSONL_TORN_TAIL/);
  const one = await cli(['checks', 'jsonl_merged_line']);
  expect(one.stdout).toMatch(/^JSONL_MERGED_LINE \(error, check jsonl-integrity\)/);
  const json = JSON.parse((await cli(['checks', '--format', 'json'])).stdout) as Array<{ code: string }>;
  expect(json.map((e) => e.code)).toContain('SESSION_SUMMARY_MISSING');
});
