/**
 * Tables in a real terminal (a pseudo-terminal from `script`, at 80, 100 and 200 columns) and in a pipe with
 * COLUMNS: every line fits, except a session's or a root's full path on a line of its own (printed whole so it can
 * be copied); no code, call id, location or path is broken across lines; the width is used (the timeline fills it);
 * a pipe with COLUMNS=N gives what the terminal of N columns shows.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { AuditReport } from '../src/model/report.js';
import { displayWidth } from '../src/report/width.js';
import { BIN, BUILT } from './helpers/cli-child.js';
import { CORPORA } from './helpers/corpora.js';

const GROK = join(CORPORA, 'grok');
const MAIN = join(GROK, 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001');
const INTERRUPTED = join(GROK, 'tool-interrupted-call');
const CLAUDE = join(CORPORA, '..', '..', 'shared', 'external', 'claude', 'tool_heavy.jsonl');
const HAS_SCRIPT = spawnSync('script', ['--version']).status === 0;

const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/** The CLI in a pseudo-terminal of `cols` columns; what the terminal received, without carriage returns. */
function inTerminal(args: readonly string[], cols: number): string {
  const cmd = `stty cols ${cols} rows 50; exec ${q(process.execPath)} ${q(BIN)} ${args.map(q).join(' ')}`;
  const r = spawnSync('script', ['-qfec', cmd, '/dev/null'], {
    encoding: 'utf8',
    env: { ...process.env, CI: '1', COLUMNS: '' },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  return r.stdout.replaceAll('\r', '');
}

/** The CLI in a pipe with COLUMNS set. */
function inPipe(args: readonly string[], cols: number): string {
  return spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CI: '1', COLUMNS: String(cols) },
    maxBuffer: 64 * 1024 * 1024,
  }).stdout;
}

const json = (args: string[]): AuditReport =>
  JSON.parse(inPipe([...args, '--format', 'json', '--fail-on', 'never'], 120)) as AuditReport;

interface Case {
  name: string;
  args: string[];
  /** Lines that may be wider than the terminal: whole paths on lines of their own. */
  paths: () => string[];
  /** Values that must appear whole on some line. */
  tokens: () => string[];
}

/**
 * The paths of the sessions with errors or warnings (each is the title of its table, on a line of its own; notes
 * alone are summed up in one line).
 */
const sessionPaths = (args: string[]) => () =>
  json(args)
    .sessions.filter((s) => s.findings.error + s.findings.warning > 0)
    .map((s) => s.path);

const CASES: Case[] = [
  {
    name: 'audit',
    args: ['audit', join(GROK, 'jsonl-merged-line'), join(GROK, 'session-symlink'), INTERRUPTED, '--no-color'],
    paths: sessionPaths(['audit', join(GROK, 'jsonl-merged-line'), join(GROK, 'session-symlink'), INTERRUPTED]),
    tokens: () => {
      const r = json(['audit', join(GROK, 'jsonl-merged-line'), join(GROK, 'session-symlink'), INTERRUPTED]);
      return [
        ...r.findings.map((f) => f.code),
        // Notes are summed up by code: only the other findings' places are rows.
        ...r.findings
          .filter((f) => f.location.line !== undefined && f.severity !== 'note')
          .map((f) => `${f.location.file}:${f.location.line}`),
      ];
    },
  },
  {
    name: 'timeline',
    args: ['timeline', MAIN, '--include-subagents', '--no-color'],
    paths: () => [],
    tokens: () => ['user_prompt', 'tool_update', 'subagent_spawned', 'turn_completed'],
  },
  {
    name: 'pairs',
    args: ['pairs', INTERRUPTED, '--no-color'],
    paths: () => json(['audit', INTERRUPTED]).sessions.map((s) => s.path),
    tokens: () => ['call_p0_read', 'call_p4_migrate', 'chat_history.jsonl:14', 'updates.jsonl:53', 'interrupted'],
  },
  {
    name: 'pairs (long call ids)',
    args: ['pairs', CLAUDE, '--no-color'],
    paths: () => [CLAUDE],
    tokens: () => ['toolu_018GZVh9ymkrdx1TnR8reg5Y', 'toolu_01FZ9TWbiy1LPzHm1AAyUazo', 'WebSearch'],
  },
  {
    name: 'lineage',
    args: ['lineage', join(GROK, 'lineage'), '--sandbox-config', join(GROK, 'lineage', 'sandbox.toml'), '--no-color'],
    paths: () => [join(GROK, 'lineage', 'home', 'sessions')],
    tokens: () => ['019b1000…c002', '019b1000…c009', 'subagent_resume', '▲WIDENED', '▼DROPPED'],
  },
  { name: 'checks', args: ['checks', '--no-color'], paths: () => [], tokens: () => ['CLAUDE_SUMMARY_LEAF_UNRESOLVED'] },
];

describe.skipIf(!BUILT || !HAS_SCRIPT)('tables in a terminal', () => {
  for (const c of CASES) {
    if (c.name.includes('long call ids') && !existsSync(CLAUDE)) continue;
    describe(c.name, () => {
      test.each([80, 100, 200])(
        '%i columns: fits, nothing broken, the same as COLUMNS in a pipe',
        (cols) => {
          const out = inTerminal(c.args, cols);
          expect(out.length).toBeGreaterThan(50);
          const paths = new Set(c.paths());
          const lines = out.split('\n');
          for (const line of lines)
            if (!paths.has(line)) expect(displayWidth(line), `${cols}: ${line}`).toBeLessThanOrEqual(cols);
          for (const p of paths) expect(lines, p).toContain(p);
          for (const t of c.tokens()) expect(out, t).toContain(t);
          expect(inPipe(c.args, cols)).toBe(out);
        },
        120_000,
      );
    });
  }

  test('the timeline uses the width it has', () => {
    for (const cols of [80, 100, 200]) {
      const rule = inTerminal(['timeline', MAIN, '--no-color'], cols)
        .split('\n')
        .find((l) => l.startsWith('────'))!;
      expect(displayWidth(rule)).toBe(cols);
    }
    // At 200 columns a summary is not cut where a narrower terminal cuts it.
    const wide = inTerminal(['timeline', MAIN, '--no-color'], 200);
    expect(wide).toContain('add() subtracts; change `a - b` to `a + b` and re-run the test.');
    expect(inTerminal(['timeline', MAIN, '--no-color'], 80)).not.toContain('add() subtracts; change `a - b`');
  });

  test('audit at 200 columns puts each finding on one line', () => {
    const out = inTerminal(['audit', INTERRUPTED, '--no-color'], 200);
    expect(out).toMatch(
      /^warning +TOOL_INTERRUPTED_CALL +chat_history\.jsonl:14 @1967 +call call_p4_read .*completed\)\.$/m,
    );
  });
});
