/**
 * `pairs` (issue 31.6): every agent's calls with their arguments (on one line, cut with a mark) and their prompt
 * turn, and a status that says how the result ended, as the agent's own reading of its results words it (its
 * `transcriptView`): failed, rejected, cancelled, interrupted, a placeholder the agent wrote itself (the pairing's
 * `synthetic`), never `answered` for a result that failed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PairRow } from '../src/pairing/pairing-result.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const SID = '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c09';

/** A Claude session whose three calls failed, were rejected by the user and were interrupted by the user. */
function claudeEndings(dir: string): string {
  const uuid = (i: number): string =>
    `0001${String(i).padStart(4, '0')}-0000-4000-8000-0001${String(i).padStart(8, '0')}`;
  const rec = (i: number, type: string, message: unknown): string =>
    JSON.stringify({
      parentUuid: i === 1 ? null : uuid(i - 1),
      isSidechain: false,
      userType: 'external',
      cwd: '/home/dev/app',
      sessionId: SID,
      version: '2.1.39',
      gitBranch: 'main',
      type,
      message,
      uuid: uuid(i),
      timestamp: `2026-03-10T14:00:0${i}.000Z`,
    });
  const result = (id: string, content: string) => ({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, is_error: true, content }],
  });
  const lines = [
    rec(1, 'user', { role: 'user', content: 'Run the tests, read the config, fix the parser.' }),
    rec(2, 'assistant', {
      model: 'claude-sonnet-4-5-20250929',
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'toolu_fail',
          name: 'Bash',
          input: { command: 'cargo test', description: 'Run the tests' },
        },
        { type: 'tool_use', id: 'toolu_reject', name: 'Read', input: { file_path: '/home/dev/app/config.toml' } },
        {
          type: 'tool_use',
          id: 'toolu_cancel',
          name: 'Edit',
          input: { file_path: '/home/dev/app/src/parser.rs', old_string: 'a', new_string: 'b' },
        },
      ],
      stop_reason: 'tool_use',
    }),
    rec(3, 'user', result('toolu_fail', 'Exit code 101\nerror: test failed')),
    rec(
      4,
      'user',
      result(
        'toolu_reject',
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, " +
          'the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you ' +
          'how to proceed.',
      ),
    ),
    rec(5, 'user', result('toolu_cancel', '[Request interrupted by user for tool use]')),
    rec(6, 'assistant', {
      model: 'claude-sonnet-4-5-20250929',
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'Stopped.' }],
      stop_reason: 'end_turn',
    }),
  ];
  const project = join(dir, 'projects', '-home-dev-app');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, `${SID}.jsonl`), `${lines.join('\n')}\n`);
  return project;
}

async function rows(path: string): Promise<PairRow[]> {
  const r = await cli(['pairs', path, '--format', 'json']);
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { sessions: Array<{ rows: PairRow[] }> }).sessions.flatMap((s) => s.rows);
}

describe('pairs: how each call ended, its arguments and its turn', () => {
  let tmp = '';
  let claude = '';
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-pairs-status-'));
    claude = claudeEndings(tmp);
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test('failed, rejected and cancelled results say so (not answered), in the table and the JSON', async () => {
    const byId = new Map((await rows(claude)).map((r) => [r.id, r]));
    expect(byId.get('toolu_fail')!.ended).toBe('failed');
    expect(byId.get('toolu_reject')!.ended).toBe('rejected');
    expect(byId.get('toolu_cancel')!.ended).toBe('cancelled');
    const table = (await cli(['pairs', claude], { columns: 160 })).stdout;
    const line = (id: string): string => table.split('\n').find((l) => l.startsWith(id)) ?? '';
    expect(line('toolu_fail')).toMatch(/\sfailed\s/);
    expect(line('toolu_reject')).toMatch(/\srejected\s/);
    expect(line('toolu_cancel')).toMatch(/\scancelled\s/);
    for (const id of ['toolu_fail', 'toolu_reject', 'toolu_cancel']) expect(line(id)).not.toMatch(/\sanswered\s/);
    // The arguments, on one line and cut with a mark; the turn.
    expect(table).toContain('arguments');
    expect(line('toolu_fail')).toContain('{"command":"cargo test","description":"…');
    expect(line('toolu_fail')).toMatch(/Bash \*\s+0\s/);
  });

  test('a placeholder the agent wrote itself reads so (not synthetic); an interrupted call, interrupted', async () => {
    const codex = join(CORPORA, 'codex', 'tool-aborted');
    const table = (await cli(['pairs', codex], { columns: 160 })).stdout;
    expect(table).toMatch(/call_slow_tests .*\splaceholder\s/);
    expect(table).not.toContain('synthetic');
    const grok = (await cli(['pairs', join(CORPORA, 'grok', 'tool-interrupted-call')], { columns: 200 })).stdout;
    expect(grok).toMatch(/call_p4_migrate .*\sinterrupted\s/);
  });

  test('every agent: a turn for each call, arguments for each call that has them (the tool log too)', async () => {
    for (const agent of ['grok', 'claude', 'codex', 'pi']) {
      const list = await rows(join(CORPORA, agent, 'clean'));
      const calls = list.filter((r) => r.status !== 'orphan result');
      expect(calls.length, agent).toBeGreaterThan(0);
      for (const r of calls) expect(r.promptIndex, `${agent} ${r.id}`).toBeTypeOf('number');
      for (const r of calls) expect(r.args, `${agent} ${r.id}`).toBeTruthy();
    }
  });

  test('at 80 columns the arguments and the turn are still there', async () => {
    const table = (await cli(['pairs', claude], { columns: 80 })).stdout;
    expect(table).toContain('{"command":"cargo test"…');
    expect(table).toContain('turn 0 called :2');
    expect(table).toMatch(/toolu_fail .*\sfailed\s/);
  });
});
