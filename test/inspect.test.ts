/** `inspect` and `pairs` on the corpora: what a reviewer reads before resuming, and the pairing table. */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { InspectReport } from '../src/inspect/report.js';
import type { PairRow } from '../src/pairing/pairing-result.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const session = (c: string): string =>
  join(CORPORA, 'grok', c, 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001');

describe('inspect', () => {
  test('an interrupted session: the in-flight mutating call, the resume command, the warning', async () => {
    const r = await cli(['inspect', session('tool-interrupted-call'), '--color', 'false']);
    // A mutating call was in flight: not safe to resume.
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/INTERRUPTED: the last turn never completed/);
    expect(r.stdout).toMatch(/MAY MUTATE\s+run_command \(call_p4_migrate, execute\)/);
    expect(r.stdout).toMatch(/read-only\s+read_file \(call_p4_read, read\)/);
    expect(r.stdout).toContain('cd /home/dev/proj && grok -r 019a3f2c-1d00-7a3e-8000-00000000a001');
    expect(r.stdout).toMatch(/Resuming can repeat side effects/);
    expect(r.stdout).toMatch(/saved sandbox profile "workspace" applies/);
  });

  test('json: state, in-flight calls with arguments, replay counts', async () => {
    const r = await cli(['inspect', session('tool-interrupted-call'), '--format', 'json']);
    const rep = JSON.parse(r.stdout) as InspectReport;
    expect(rep.state).toBe('interrupted');
    expect(rep.lastTurn).toMatchObject({
      promptIndex: 4,
      prompt: 'Apply the database migration and restart the service.',
    });
    expect(rep.inFlight.map((p) => [p.id, p.mutating, p.status])).toEqual([
      ['call_p4_migrate', true, 'interrupted'],
      ['call_p4_read', false, 'interrupted'],
    ]);
    expect(rep.inFlight[0]!.args).toContain('psql -f migrations/0042_saturate.sql');
    expect(rep.replay).toMatchObject({ danglingCalls: 2, rewinds: 1, compactions: 1 });
  });

  test('a session that stopped cleanly has nothing in flight', async () => {
    const r = await cli([
      'inspect',
      join(CORPORA, 'grok', 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001'),
      '--format',
      'json',
    ]);
    const rep = JSON.parse(r.stdout) as InspectReport;
    expect(rep.state).toBe('completed');
    expect(rep.inFlight).toEqual([]);
    expect(rep.warnings).toEqual([]);
  });

  test('turns whose last line follows their turn_completed ended there: nothing open, nothing to warn', async () => {
    const at = join(
      CORPORA,
      'grok',
      'time-turn-end-pending',
      'sessions',
      '%2Fhome%2Fdev%2Fproj',
      '019a4a10-2c00-7d55-8000-00000000a004',
    );
    const rep = JSON.parse((await cli(['inspect', at, '--format', 'json'])).stdout) as InspectReport;
    // The last turn was stopped by the user (its turn_completed says so), not cut off by a crash.
    expect(rep.state).toBe('cancelled');
    expect(rep.lastTurn?.end).toMatchObject({ file: 'updates.jsonl', line: 26, stopReason: 'cancelled' });
    expect([rep.inFlight, rep.warnings]).toEqual([[], []]);
    // The lines written after their turn_completed are how Grok writes every log: no finding.
    expect(rep.findings.list).toEqual([]);
    const pairs = JSON.parse((await cli(['pairs', at, '--format', 'json'])).stdout) as {
      sessions: Array<{ rows: PairRow[] }>;
    };
    expect(pairs.sessions[0]!.rows.map((x) => [x.id, x.status])).toEqual([
      ['call_a004_read', 'answered'],
      ['call_a004_edit', 'answered'],
      ['call_a004_test', 'answered'],
    ]);
  });

  test('a prompt on a merged line: the model never saw it, and the evidence must be bundled first', async () => {
    const r = await cli(['inspect', session('jsonl-merged-prompt'), '--format', 'json']);
    const rep = JSON.parse(r.stdout) as InspectReport;
    // Nine records are on disk (one recovered from the merged line); Grok loads the eight whole lines.
    expect(rep.replay).toMatchObject({ chatItems: 9, skippedLines: 1 });
    expect(rep.skipped).toEqual([
      {
        file: 'chat_history.jsonl',
        line: 7,
        item: { type: 'user', text: 'Make add() saturate instead of renaming it.' },
      },
    ]);
    expect(rep.lostPrompt).toMatchObject({ line: 7, text: 'Make add() saturate instead of renaming it.' });
    expect(rep.lastChatPrompt).toMatchObject({ line: 4, text: 'Run the whole test suite.' });
    expect(rep.warnings[0]).toMatch(/^Bundle before resuming: 1 file\(s\) have damaged lines, chat_history\.jsonl/);
    expect(rep.warnings[0]).toContain(`session-audit bundle ${session('jsonl-merged-prompt')} -o `);
    expect(rep.warnings[1]).toMatch(/The model will not see 1 damaged line\(s\).*a user item "Make add\(\) saturate/);

    const text = (await cli(['inspect', session('jsonl-merged-prompt'), '--color', 'false'])).stdout;
    expect(text).toMatch(/a later prompt on a damaged line \(skipped on load, never seen\): chat_history\.jsonl:7/);
    expect(text.indexOf('Before resuming')).toBeLessThan(text.indexOf('\nResume\n'));
  });

  test('an undamaged session gives no bundle-first warning', async () => {
    const rep = JSON.parse((await cli(['inspect', session('tool-interrupted-call'), '--format', 'json'])).stdout);
    expect((rep as InspectReport).warnings.join('\n')).not.toMatch(/Bundle before resuming/);
    expect((rep as InspectReport).replay.skippedLines).toBe(0);
  });

  test('a running subagent left by a crash is listed', async () => {
    const rep = JSON.parse(
      (await cli(['inspect', session('xref-subagent'), '--format', 'json'])).stdout,
    ) as InspectReport;
    expect(rep.subagentsRunning.map((s) => s.id)).toEqual(['019a3f2e-0f10-7c42-8000-00000000a003']);
  });

  test('usage errors: a root with many sessions, a missing headless log, a bad exit code', async () => {
    expect((await cli(['inspect', join(CORPORA, 'grok', 'clean')])).stderr).toMatch(
      /holds 3 sessions; give one session directory/,
    );
    expect(
      (await cli(['inspect', session('tool-interrupted-call'), '--headless-log', '/no/such.jsonl'])).stderr,
    ).toMatch(/--headless-log \/no\/such.jsonl: no such file/);
    const bad = await cli(['inspect', session('tool-interrupted-call'), '--exit-code', '300']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      'session-audit: --exit-code 300: expected a process exit code, 0 to 255\n',
    ]);
  });
});

describe('pairs', () => {
  const rows = async (c: string): Promise<PairRow[]> =>
    (
      JSON.parse((await cli(['pairs', session(c), '--format', 'json'])).stdout) as {
        sessions: Array<{ rows: PairRow[] }>;
      }
    ).sessions[0]!.rows;

  test('every call of the clean session is answered, in place, on both sides', async () => {
    const r = await rows('clean');
    expect(r.length).toBeGreaterThan(5);
    const live = r.filter((x) => x.status !== 'rewound' && x.status !== 'log only');
    expect(
      live.every(
        (x) => x.status === 'answered' && x.call && x.result && x.logCall && x.logTerminal?.status === 'completed',
      ),
    ).toBe(true);
    expect(r.find((x) => x.id === 'call_p3_grep')?.status).toBe('rewound');
  });

  test.each([
    ['tool-interrupted-call', 'call_p4_migrate', 'interrupted'],
    ['tool-unanswered-call', 'call_p2_test', 'unanswered'],
    ['tool-duplicate-result', 'call_p2_test', 'duplicate'],
    ['tool-displaced-result', 'call_p2_test', 'displaced'],
    ['tool-synthetic-result', 'call_p4_bench', 'synthetic'],
    ['tool-orphan-result', 'call_p2_test', 'orphan result'],
  ])('%s: %s is %s', async (c, id, status) => {
    expect((await rows(c)).find((x) => x.id === id)?.status).toBe(status);
  });

  test('the table shows the mutating marker and statuses', async () => {
    const r = await cli(['pairs', session('tool-interrupted-call')]);
    expect(r.stdout).toMatch(/call_p4_migrate.*run_command \*.*interrupted/);
  });
});
