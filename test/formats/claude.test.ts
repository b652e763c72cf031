/**
 * Claude Code transcripts: every real transcript in ../shared/external/claude audits to exactly the findings that
 * are really in it, its timeline has one event per record, and pairing matches a count made here from the raw
 * lines; plus the synthetic corpora (checked-in = generated), the uuid DAG and discovery details.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { generateAgentCorpora } from '../../scripts/gen-corpora.js';
import { CLAUDE_IDS, PROJECT, claudeCases, claudeCleanTree } from '../../scripts/corpora/cases-claude.js';
import { claudeCaptureCases } from '../../scripts/corpora/cases-captures.js';
import { claudeConfigCases } from '../../scripts/corpora/cases-claude-config.js';
import { claudeHomeCases } from '../../scripts/corpora/cases-claude-home.js';
import { catalog } from '../../src/checks/catalog.js';
import { validator } from '../../src/formats/schema-runtime.js';
import { TranscriptLine } from '../../src/formats/claude/models.js';
import { CLAUDE_SCHEMAS } from '../../src/formats/claude/schemas.js';
import type { AuditReport } from '../../src/model/report.js';
import type { TimelineEvent } from '../../src/timeline/model.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { expectModelAndSchemaAgree, expectShippedCorpora } from '../helpers/agent-corpora.js';

const EXTERNAL = fileURLToPath(new URL('../../../shared/external/claude', import.meta.url));
const present = existsSync(EXTERNAL);
if (!present)
  console.warn(
    `skipping the real Claude Code transcripts: ${EXTERNAL} is absent (it is third-party data outside the repository)`,
  );

const scratch = mkdtempSync(join(tmpdir(), 'sa-claude-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const ORPHAN = '258c7280-ae70-4798-800f-63464d01a85d';
/** Each session of the external directory (what `audit` is given) and the transcript files it holds. */
const SESSIONS: Array<{ arg: string; files: string[] }> = [
  {
    arg: ORPHAN,
    files: [`${ORPHAN}/subagents/agent-a881341.jsonl`, `${ORPHAN}/subagents/agent-acompact-fffbd0.jsonl`],
  },
  { arg: 'session-9eda1058.jsonl', files: ['session-9eda1058.jsonl'] },
  { arg: 'short.jsonl', files: ['short.jsonl'] },
  { arg: 'tool_heavy.jsonl', files: ['tool_heavy.jsonl'] },
];

type Block = { type?: string; id?: string; tool_use_id?: string };
type Rec = { type?: string; uuid?: string; message?: { content?: string | Block[] } };
const records = (rel: string): Rec[] =>
  readFileSync(join(EXTERNAL, rel), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Rec);
const blocks = (r: Rec): Block[] => (Array.isArray(r.message?.content) ? r.message.content : []);

/**
 * Every finding the real transcripts produce, each confirmed against the file:
 * - 258c7280…/ (only subagents/): the session's own transcript 258c7280….jsonl is not in the fixture set
 *   (SOURCES.md:
 *   "the parent transcript is not included"); the compaction agent's first three lines link to uuids of that missing
 *   transcript (c4da3d33…, defa1eda…, 7c642069…). One warning, which counts those 3 links.
 * - session-9eda1058.jsonl: lines 3–6 and 8–19 are `summary` records whose leafUuid is in no line of the file
 *   (checked: none of the 16 resolves) — cross-session summaries Claude Code writes into a transcript, which every
 *   session of a project holds: no finding (the file lost no line a leaf could have been on). Line 21 is the
 *   tool_result Claude Code wrote when the user rejected the Write call ("The user doesn't want to proceed with this
 *   tool use…", is_error): a note.
 * - short.jsonl: lines 11 and 12 are the same rejection text for the Bash and Glob calls of lines 8 and 10: 2 notes.
 * - tool_heavy.jsonl: nothing (six calls, each answered, two of them out of order: lines 32/33 answer 30/29).
 */
const EXPECTED: Record<string, Array<{ code: string; file: string; line?: number; severity: string }>> = {
  [ORPHAN]: [{ code: 'CLAUDE_TRANSCRIPT_MISSING', file: `${ORPHAN}.jsonl`, severity: 'warning' }],
  'session-9eda1058.jsonl': [
    { code: 'TOOL_SYNTHETIC_RESULT', file: 'session-9eda1058.jsonl', line: 21, severity: 'note' },
  ],
  'short.jsonl': [11, 12].map((line) => ({
    code: 'TOOL_SYNTHETIC_RESULT',
    file: 'short.jsonl',
    line,
    severity: 'note',
  })),
  'tool_heavy.jsonl': [],
};

describe.skipIf(!present)('real Claude Code transcripts (../shared/external/claude)', () => {
  test(
    'the directory holds four sessions: three transcripts and a session ' + 'folder whose transcript is missing',
    async () => {
      const r = await cli(['audit', EXTERNAL, '--format', 'json', '--fail-on', 'never']);
      const report = JSON.parse(r.stdout) as AuditReport;
      expect(report.sessions.map((s) => [s.format, s.path.split('/').pop()])).toEqual(
        SESSIONS.map((s) => ['claude', s.arg]),
      );
      expect(report.toolErrors).toEqual([]);
      expect(report.summary.findings.error).toBe(0);
      // Each inventory holds its own members only (SOURCES.md and the neighbours are not in it).
      for (const s of report.sessions)
        for (const f of s.files)
          expect(f.path === s.path.split('/').pop() || f.path.startsWith(`${ORPHAN}`)).toBe(true);
    },
  );

  test.each(SESSIONS)('$arg audits to exactly the findings that are in it', async ({ arg }) => {
    const r = await cli(['audit', join(EXTERNAL, arg), '--format', 'json', '--fail-on', 'never']);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.toolErrors).toEqual([]);
    expect(
      report.findings.map((f) => ({
        code: f.code,
        file: f.location.file,
        ...(f.location.line !== undefined ? { line: f.location.line } : {}),
        severity: f.severity,
      })),
    ).toEqual(EXPECTED[arg]);
  });

  test.each(SESSIONS)(
    '$arg: the timeline has one event per record of each transcript, none off the live branch',
    async ({ arg, files }) => {
      const r = await cli(['timeline', join(EXTERNAL, arg), '--format', 'jsonl']);
      expect(r.code).toBe(0);
      const events = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TimelineEvent);
      expect(events.map((e) => `${e.file}:${e.line}`)).toEqual(
        files.flatMap((f) => records(f).map((_, i) => `${f}:${i + 1}`)),
      );
      expect(events.every((e) => e.rail === 'claude' && !e.rewound && !e.compacted)).toBe(true);
    },
  );

  test.each(SESSIONS)(
    '$arg: pairing matches tool_use / tool_result ids counted from the raw lines',
    async ({ arg, files }) => {
      const recs = files.flatMap(records);
      const uses = recs.flatMap((r) =>
        r.type === 'assistant'
          ? blocks(r)
              .filter((b) => b.type === 'tool_use')
              .map((b) => b.id!)
          : [],
      );
      const results = new Set(
        recs.flatMap((r) =>
          r.type === 'user'
            ? blocks(r)
                .filter((b) => b.type === 'tool_result')
                .map((b) => b.tool_use_id!)
            : [],
        ),
      );
      const r = await cli(['pairs', join(EXTERNAL, arg), '--format', 'json']);
      const rows = (JSON.parse(r.stdout) as { sessions: Array<{ rows: Array<{ id: string; status: string }> }> })
        .sessions[0]!.rows;
      expect(rows.map((x) => x.id).sort()).toEqual([...uses].sort());
      const answered = rows.filter((x) => x.status === 'answered' || x.status === 'synthetic');
      expect(answered.length).toBe(uses.filter((u) => results.has(u)).length);
      expect(rows.filter((x) => x.status === 'orphan result')).toEqual([]);
    },
  );

  test.each(SESSIONS)('$arg: every line satisfies the zod model and the generated JSON Schema alike', ({ files }) => {
    const v = validator(CLAUDE_SCHEMAS.transcript!.file);
    for (const f of files) {
      for (const x of records(f)) {
        expect(TranscriptLine.safeParse(x).success, `${f} ${x.type}`).toBe(true);
        expect(v(x), `${f} ${x.type}`).toBe(true);
      }
    }
  });

  test('a single sub-agent file can be audited on its own', async () => {
    const r = await cli([
      'audit',
      join(EXTERNAL, ORPHAN, 'subagents', 'agent-a881341.jsonl'),
      '--format',
      'json',
      '--fail-on',
      'never',
    ]);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.sessions.map((s) => [s.id, s.format])).toEqual([['agent-a881341', 'claude']]);
    // Its links all resolve within the file; that its session's transcript is not beside it is a note.
    expect(report.findings.map((f) => [f.code, f.severity])).toEqual([['CLAUDE_TRANSCRIPT_MISSING', 'note']]);
  });

  test("a compaction sub-agent's file alone: one finding for the missing transcript, not one per line", async () => {
    const file = join(EXTERNAL, ORPHAN, 'subagents', 'agent-acompact-fffbd0.jsonl');
    const report = JSON.parse((await cli(['audit', file, '--format', 'json', '--fail-on', 'never'])).stdout);
    const findings = (report as AuditReport).findings;
    expect(findings.map((f) => [f.code, f.severity])).toEqual([['CLAUDE_TRANSCRIPT_MISSING', 'warning']]);
    expect(findings[0]!.message).toMatch(/3 parentUuid link\(s\) into it cannot be resolved/);
  });
});

describe('the synthetic corpus', () => {
  const session = join(CORPORA, 'claude', 'clean', PROJECT, `${CLAUDE_IDS.main}.jsonl`);

  test('a session is its transcript and its folder: sub-agent transcript and metadata in its inventory', async () => {
    const r = await cli(['audit', join(CORPORA, 'claude', 'clean'), '--format', 'json']);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.findings).toEqual([]);
    expect(report.sessions[0]!.files.map((f) => f.path)).toEqual([
      CLAUDE_IDS.main,
      `${CLAUDE_IDS.main}.jsonl`,
      `${CLAUDE_IDS.main}/subagents`,
      `${CLAUDE_IDS.main}/subagents/agent-${CLAUDE_IDS.agent}.jsonl`,
      `${CLAUDE_IDS.main}/subagents/agent-${CLAUDE_IDS.agent}.meta.json`,
    ]);
  });

  test(
    'the timeline marks the rewound branch and what precedes the compact ' + 'boundary, and carries the sub-agent',
    async () => {
      const r = await cli(['timeline', session, '--format', 'jsonl']);
      const events = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as TimelineEvent);
      const main = events.filter((e) => e.file === `${CLAUDE_IDS.main}.jsonl`);
      expect(main.filter((e) => e.rewound).map((e) => e.summary)).toEqual([
        'Rename parse to parse_strict everywhere.',
        'Renaming parse to parse_strict.',
      ]);
      const boundary = main.findIndex((e) => e.tag === 'system/compact_boundary');
      expect(main.slice(0, boundary).every((e) => e.compacted)).toBe(true);
      expect(main.slice(boundary).some((e) => e.compacted)).toBe(false);
      expect(
        events
          .filter((e) => e.file.endsWith(`agent-${CLAUDE_IDS.agent}.jsonl`))
          .every((e) => e.subagentId === CLAUDE_IDS.agent),
      ).toBe(true);
    },
  );

  test('pairs: parallel calls answered out of order are answered, in place', async () => {
    const r = await cli(['pairs', session, '--format', 'json']);
    const rows = (JSON.parse(r.stdout) as { sessions: Array<{ rows: Array<{ id: string; status: string }> }> })
      .sessions[0]!.rows;
    expect(rows.length).toBe(8); // 7 in the transcript, 1 in the sub-agent's
    expect(rows.every((x) => x.status === 'answered')).toBe(true);
  });

  test('a hint reads a UUID-named transcript with a damaged head as Claude Code', async () => {
    const dir = join(scratch, 'damaged', 'projects', 'p');
    mkdirSync(dir, { recursive: true });
    const text = readFileSync(session, 'utf8').split('\n');
    writeFileSync(join(dir, `${CLAUDE_IDS.main}.jsonl`), ['\u0000'.repeat(40_000), ...text.slice(8)].join('\n'));
    expect((await cli(['audit', join(scratch, 'damaged')])).stderr).toMatch(/no session found/);
    const r = await cli([
      'audit',
      join(scratch, 'damaged'),
      '--format-hint',
      'claude',
      '--format',
      'json',
      '--fail-on',
      'never',
    ]);
    const report = JSON.parse(r.stdout) as AuditReport;
    expect(report.sessions.map((s) => s.format)).toEqual(['claude']);
    expect(report.findings.map((f) => f.code)).toContain('JSONL_NUL_BYTES');
  });
});

test('the checked-in Claude Code corpora are exactly what the generator writes', () => {
  const out = mkdtempSync(join(scratch, 'gen-'));
  generateAgentCorpora(
    out,
    'claude',
    'Claude Code',
    'a `~/.claude` tree (`projects/<encoded-cwd>/<session>.jsonl` and its `<session>/subagents/` folder)',
    claudeCleanTree().files,
    [...claudeCases(), ...claudeCaptureCases(), ...claudeHomeCases(), ...claudeConfigCases()],
    catalog().map((e) => e.code),
  );
  expectShippedCorpora(out, 'claude');
});

test('zod and the generated JSON Schema agree on every record of the claude corpora', () => {
  expectModelAndSchemaAgree('claude', TranscriptLine, validator(CLAUDE_SCHEMAS.transcript!.file));
});
