/**
 * Codex CLI rollouts: every real rollout in ../shared/external/codex audits to exactly the findings that are
 * really in it, its timeline has one event per record, and pairing matches a count made here from the raw lines;
 * plus the synthetic corpora (checked-in = generated) and discovery details.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  mkdirSync,
  copyFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { generateAgentCorpora } from '../../scripts/gen-corpora.js';
import { codexCases, codexCleanTree } from '../../scripts/corpora/cases-codex.js';
import { codexCaptureCases } from '../../scripts/corpora/cases-captures.js';
import { codexHomeCases } from '../../scripts/corpora/cases-codex-home.js';
import { catalog } from '../../src/checks/catalog.js';
import { validator } from '../../src/formats/schema-runtime.js';
import { RolloutLine } from '../../src/formats/codex/models.js';
import { CODEX_SCHEMAS } from '../../src/formats/codex/schemas.js';
import type { AuditReport } from '../../src/model/report.js';
import type { TimelineEvent } from '../../src/timeline/model.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { expectModelAndSchemaAgree, expectShippedCorpora } from '../helpers/agent-corpora.js';

const EXTERNAL = fileURLToPath(new URL('../../../shared/external/codex', import.meta.url));
const present = existsSync(EXTERNAL);
if (!present)
  console.warn(
    `skipping the real Codex rollouts: ${EXTERNAL} is absent (it is third-party data outside the repository)`,
  );
const files = present
  ? readdirSync(EXTERNAL)
      .filter((n) => n.endsWith('.jsonl'))
      .sort()
  : [];

const scratch = mkdtempSync(join(tmpdir(), 'sa-codex-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Line = { timestamp?: string; type?: string; payload?: { type?: string; call_id?: string; output?: unknown } };
const records = (name: string): Line[] =>
  readFileSync(join(EXTERNAL, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line);

/**
 * Every finding the real rollouts produce, each confirmed against the file:
 * - 019c8a70 (13-19-38): the file ends right after a `function_call` (exec_command, line 18) and a token_count;
 *   there is no function_call_output and no task_complete: the session stopped with that call in flight. A warning.
 * - 019c8bfe (20-34-25): nothing. Five calls, each answered by its function_call_output; task_complete at the end.
 */
const EXPECTED: Record<string, Array<{ code: string; line?: number; severity: string }>> = {
  'rollout-2026-02-23T13-19-38-019c8a70-dda7-7f33-98ea-f30553347322.jsonl': [
    { code: 'TOOL_INTERRUPTED_CALL', line: 18, severity: 'warning' },
  ],
  'rollout-2026-02-23T20-34-25-019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl': [],
};

describe.skipIf(!present)('real Codex rollouts (../shared/external/codex)', () => {
  test('the directory is found as Codex sessions, one per rollout', async () => {
    const r = await cli(['audit', EXTERNAL, '--format', 'json', '--fail-on', 'never']);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.sessions.map((s) => [s.format, s.path.split('/').pop()])).toEqual(files.map((f) => ['codex', f]));
    // Each session's inventory is its own file, never its neighbours.
    for (const s of report.sessions) expect(s.files.map((f) => f.path)).toEqual([s.path.split('/').pop()]);
    expect(report.toolErrors).toEqual([]);
  });

  test.each(files)('%s audits to exactly the findings that are in it', async (name) => {
    const r = await cli(['audit', join(EXTERNAL, name), '--format', 'json', '--fail-on', 'never']);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.toolErrors).toEqual([]);
    expect(report.findings.map((f) => ({ code: f.code, line: f.location.line, severity: f.severity }))).toEqual(
      EXPECTED[name],
    );
    expect(report.findings.every((f) => f.location.file === name)).toBe(true);
  });

  test.each(files)('%s: the timeline has one event per record, in file order, with its line time', async (name) => {
    const r = await cli(['timeline', join(EXTERNAL, name), '--format', 'jsonl']);
    expect(r.code).toBe(0);
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as TimelineEvent);
    const recs = records(name);
    expect(events.length).toBe(recs.length);
    expect(events.map((e) => e.line)).toEqual(recs.map((_, i) => i + 1));
    expect(events.map((e) => e.time)).toEqual(recs.map((x) => x.timestamp));
    expect(events.every((e) => e.rail === 'codex' && e.timeSource === 'line')).toBe(true);
  });

  test.each(files)('%s: pairing matches call_id counts made from the raw lines', async (name) => {
    const recs = records(name).filter((x) => x.type === 'response_item');
    const calls = recs
      .filter((x) =>
        ['function_call', 'custom_tool_call', 'local_shell_call', 'tool_search_call'].includes(x.payload?.type ?? ''),
      )
      .map((x) => x.payload!.call_id!);
    const outputs = new Set(recs.filter((x) => /_output$/.test(x.payload?.type ?? '')).map((x) => x.payload!.call_id!));
    const r = await cli(['pairs', join(EXTERNAL, name), '--format', 'json']);
    const rows = (JSON.parse(r.stdout) as { sessions: Array<{ rows: Array<{ id: string; status: string }> }> })
      .sessions[0]!.rows;
    expect(rows.map((x) => x.id).sort()).toEqual([...calls].sort());
    expect(rows.filter((x) => x.status === 'answered').length).toBe(calls.filter((c) => outputs.has(c)).length);
    expect(rows.filter((x) => x.status === 'interrupted').length).toBe(calls.filter((c) => !outputs.has(c)).length);
  });

  test.each(files)('%s: every line satisfies the zod model and the generated JSON Schema alike', (name) => {
    const v = validator(CODEX_SCHEMAS.rollout!.file);
    for (const x of records(name)) {
      expect(RolloutLine.safeParse(x).success).toBe(true);
      expect(v(x)).toBe(true);
    }
  });

  test('inspect: the interrupted rollout names the call in flight and the codex resume command', async () => {
    const name = files.find((f) => f.includes('019c8a70'))!;
    const r = await cli(['inspect', join(EXTERNAL, name), '--format', 'json']);
    const report = JSON.parse(r.stdout) as {
      state: string;
      inFlight: Array<{ id: string }>;
      resume: { command: string };
    };
    expect(report.state).toBe('interrupted');
    expect(report.inFlight.map((x) => x.id)).toEqual(['call_UtYwHmwWekzvq83m8Rb9K8jJ']);
    expect(report.resume.command).toBe(
      'cd /redacted/path/da0ba47443 && codex resume 019c8a70-dda7-7f33-98ea-f30553347322',
    );
  });

  test('a bag of a rollout holds the file, the audit and its timeline', async () => {
    const out = join(scratch, 'bag');
    const name = files[1]!;
    const r = await cli(['bundle', join(EXTERNAL, name), '-o', out, '--bagging-date', '2026-02-24']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const dataFiles = readdirSync(join(out, 'data'), { recursive: true })
      .map(String)
      .filter((p) => p.endsWith('.jsonl'));
    expect(dataFiles).toEqual([join('codex', '019c8bfe-ec25-79e0-97d7-bda6a9c575ff', name)]);
    expect(readdirSync(join(out, 'timelines', 'codex'))).toEqual(['019c8bfe-ec25-79e0-97d7-bda6a9c575ff.jsonl']);
    expect((await cli(['verify', out])).code).toBe(0);
  });

  test('without --bagging-date the bag is dated the day it is made (UTC), not by the latest event', async () => {
    const out = join(scratch, 'bag-dated');
    const before = new Date().toISOString().slice(0, 10);
    const r = await cli(['bundle', join(CORPORA, 'codex', 'clean', 'sessions'), '-o', out]);
    const after = new Date().toISOString().slice(0, 10);
    expect(r.code).toBe(0);
    const date = /^Bagging-Date: (.*)$/m.exec(readFileSync(join(out, 'bag-info.txt'), 'utf8'))![1]!;
    expect([before, after]).toContain(date);
    // The rollouts' events are of March 2026: the bag is not dated by them.
    expect(date.startsWith('2026-03')).toBe(false);
  });
});

describe('discovery of Codex sessions', () => {
  test('a file that is not a session is refused in one line, and --format-hint reads it as a rollout', async () => {
    const dir = join(scratch, 'hint');
    mkdirSync(dir, { recursive: true });
    const f = join(dir, 'notes.jsonl');
    writeFileSync(f, '{"hello":"world"}\n');
    const refused = await cli(['audit', f]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not a session file.*--format-hint/);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    const forced = await cli(['audit', f, '--format-hint', 'codex', '--format', 'json', '--fail-on', 'never']);
    const report = JSON.parse(forced.stdout) as AuditReport;
    expect(report.sessions.map((s) => s.format)).toEqual(['codex']);
    expect([...new Set(report.findings.map((x) => x.code))].sort()).toEqual([
      'CODEX_FIRST_LINE_NOT_META',
      'SCHEMA_VIOLATION',
    ]);
    expect((await cli(['audit', f, '--format-hint', 'no-such-agent'])).stderr).toMatch(
      /--format-hint "no-such-agent": expected one of grok, codex, claude/,
    );
    // The HTML report looks the sessions up again for their timelines: with the same hint.
    const html = await cli(['audit', f, '--format-hint', 'codex', '--format', 'html', '--fail-on', 'never']);
    expect(html.stderr).toBe('');
    expect(html.code).toBe(0);
    expect(html.stdout).toMatch(/^<!DOCTYPE html>/i);
    // The session's files are in the data its section is drawn from when opened.
    expect(html.stdout).toMatch(/<script type="application\/json" id="sd-s1">\{"f":\[\["notes\.jsonl","file",/);
  });

  test(
    'a rollout whose first line is torn is still found by its name, and a ' + 'hint restricts the formats looked for',
    async () => {
      const dir = join(scratch, 'torn', 'sessions', '2026', '03', '02');
      mkdirSync(dir, { recursive: true });
      const src = join(CORPORA, 'codex', 'clean', 'sessions', '2026', '03', '02');
      for (const n of readdirSync(src)) copyFileSync(join(src, n), join(dir, n));
      const name = readdirSync(dir).sort()[0]!;
      writeFileSync(
        join(dir, name),
        `{"timestamp":"2026-03\n${readFileSync(join(dir, name), 'utf8').split('\n').slice(1).join('\n')}`,
      );
      const r = await cli(['audit', join(scratch, 'torn'), '--format', 'json', '--fail-on', 'never']);
      const report = JSON.parse(r.stdout) as AuditReport;
      expect(report.sessions).toHaveLength(2);
      expect(
        report.findings
          .filter((x) => x.location.file === name)
          .map((x) => x.code)
          .sort(),
      ).toEqual(['CODEX_FIRST_LINE_NOT_META', 'JSONL_BAD_LINE']);
      const claudeOnly = await cli(['audit', join(scratch, 'torn'), '--format-hint', 'claude']);
      expect(claudeOnly.code).toBe(2);
      expect(claudeOnly.stderr).toMatch(/no session found/);
    },
  );
});

test('the checked-in Codex corpora are exactly what the generator writes', () => {
  const out = mkdtempSync(join(scratch, 'gen-'));
  generateAgentCorpora(
    out,
    'codex',
    'Codex CLI',
    'a `~/.codex` tree (`sessions/YYYY/MM/DD/rollout-*.jsonl`, `archived_sessions/`)',
    codexCleanTree(),
    [...codexCases(), ...codexCaptureCases(), ...codexHomeCases()],
    catalog().map((e) => e.code),
  );
  expectShippedCorpora(out, 'codex');
});

test('zod and the generated JSON Schema agree on every record of the codex corpora', () => {
  expectModelAndSchemaAgree('codex', RolloutLine, validator(CODEX_SCHEMAS.rollout!.file));
});
