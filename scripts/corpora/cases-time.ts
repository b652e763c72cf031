/** Damaged corpora for the timeline codes (TIME_*), with expected timelines built from the builder's own record. */
import { CWD, GROUP, IDS, finishMainSession, mainSessionUntilFork } from './clean-root.js';
import { caseTree, joinLines, lines, mutate, place, text, type Case } from './case-kit.js';
import { GrokSession, oracleTimeline } from './grok-builder.js';

type Meta = { timestamp: number; params: { _meta?: { eventId?: string; agentTimestampMs?: number } } };

export function timeCases(): Case[] {
  const cases: Case[] = [];
  {
    // A turn whose text chunk is written after a hook line emitted later; then a crash mid-tool and a resume.
    const s = mainSessionUntilFork();
    finishMainSession(s);
    s.prompt('Run clippy and fix what it finds.')
      .tools('', [
        {
          id: 'call_p4_clippy',
          name: 'run_command',
          title: 'cargo clippy',
          kind: 'execute',
          args: { command: 'cargo clippy' },
          output: 'warning: this could be `a.saturating_add(b)`',
        },
      ])
      .sayBuffered('Clippy has one suggestion; applying it now.', {
        sessionUpdate: 'hook_execution',
        event_name: 'pre_tool_use',
        tool_name: 'search_replace',
        runs: [{ name: 'fmt-check', status: { status: 'success', elapsed_ms: 12 } }],
      })
      .toolsInFlight('', [
        {
          id: 'call_p4_fix',
          name: 'search_replace',
          title: 'Edit src/lib.rs',
          kind: 'edit',
          args: { path: 'src/lib.rs', old_string: 'a + b', new_string: 'a.saturating_add(b)' },
          output: '',
        },
      ]);
    s.abandonTurn().resume(2 * 3_600_000);
    s.chat.push({
      type: 'tool_result',
      tool_call_id: 'call_p4_fix',
      content: 'Tool execution was cancelled by the user (tool `search_replace` was not executed).',
    });
    s.prompt('Check whether the clippy fix landed before the crash.')
      .say('src/lib.rs already uses saturating_add: the edit landed.')
      .endTurn('end_turn');
    const f = s.render();
    cases.push({
      name: 'timeline-resume',
      description:
        "A text chunk written after a hook line emitted later (Grok's persistence buffer), then a crash while an " +
        "edit ran and a resume two hours later (a new process: counter re-seeded, commands announced, Grok's " +
        'repair answered the dangling call).',
      must: ['TIME_RESUME_BOUNDARY'],
      allow: ['TOOL_SYNTHETIC_RESULT'],
      maxSeverity: 'note',
      files: caseTree(f),
      timeline: { session: `sessions/${GROUP}/${IDS.main}`, args: [], events: oracleTimeline(s) },
    });
  }

  {
    // Grok compacts mid-turn when the context fills between tool calls: the call's last update is still in the
    // writer's buffer, so it lands on disk after the checkpoint although it was emitted before (and is compacted).
    const s = mainSessionUntilFork();
    finishMainSession(s);
    s.prompt('Run clippy and summarise what it finds.').tools('', [
      {
        id: 'call_p4_clippy',
        name: 'run_command',
        title: 'cargo clippy',
        kind: 'execute',
        args: { command: 'cargo clippy' },
        output: 'warning: this could be `a.saturating_add(b)`',
      },
    ]);
    s.compact(
      '7e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
      'Earlier: add() fixed, overflow test added, suite run. Now: clippy suggests saturating_add in src/lib.rs.',
    );
    s.say('Clippy suggests one change: use saturating_add in src/lib.rs.').endTurn('end_turn');
    const f = s.render();
    cases.push({
      name: 'time-compaction-mid-turn',
      description:
        "A compaction between a tool call and the model's next response: the call's completed update, still in " +
        "Grok's persistence buffer, is written after the checkpoint line. It was emitted before the checkpoint, so " +
        'the timeline marks it compacted, and pairing does not expect the call in the compacted history.',
      must: [],
      maxSeverity: 'note',
      files: caseTree(f),
      timeline: { session: `sessions/${GROUP}/${IDS.main}`, args: [], events: oracleTimeline(s) },
    });
  }

  cases.push(turnEndCase());

  const counterOf = (l: string): number => Number((JSON.parse(l) as Meta).params._meta?.eventId?.split('-').pop());
  const shift = (l: string, fn: (v: Meta) => void): string => {
    const v = JSON.parse(l) as Meta;
    fn(v);
    return JSON.stringify(v);
  };

  cases.push(
    mutate(
      'time-backwards',
      'The system clock was set back two hours after the first turn: every later line carries an earlier time.',
      ['TIME_BACKWARDS'],
      (f) => {
        const orig = lines(text(f.get('updates.jsonl')));
        // After a model turn's turn_completed (its turn task flushed the pending line first), file and emission
        // order agree.
        const k = orig.findIndex((l) => l.includes('"turn_completed"')) + 1;
        const ls = orig.map((l, i) =>
          i >= k
            ? shift(l, (v) => {
                v.timestamp -= 7200;
                if (v.params._meta?.agentTimestampMs !== undefined) v.params._meta.agentTimestampMs -= 7_200_000;
              })
            : l,
        );
        f.set('updates.jsonl', joinLines(ls));
        // Reported at the first shifted line in emission order (the lowest event-id counter).
        const first = ls.reduce((best, l, i) => (i >= k && counterOf(l) < counterOf(ls[best]!) ? i : best), k);
        return [{ code: 'TIME_BACKWARDS', file: 'updates.jsonl', line: first + 1 }];
      },
      { allow: ['XREF_TIME_ORDER'] },
    ),
  );

  cases.push(
    mutate(
      'time-event-id-duplicate',
      'Two different lines carry the same eventId (a line spliced in from a replay).',
      ['TIME_EVENT_ID_DUPLICATE'],
      (f) => {
        const ls = lines(text(f.get('updates.jsonl')));
        // Two consecutive ACP lines of prompt 1 (in emission order too): the second gets the first's id.
        const acp = (l: string | undefined): boolean => l?.includes('"method":"session/update"') === true;
        const i = ls.findIndex(
          (l, k) => k > 20 && acp(l) && acp(ls[k + 1]) && counterOf(ls[k + 1]!) === counterOf(l) + 1,
        );
        const id = (JSON.parse(ls[i]!) as Meta).params._meta!.eventId!;
        ls[i + 1] = shift(ls[i + 1]!, (v) => {
          v.params._meta!.eventId = id;
        });
        f.set('updates.jsonl', joinLines(ls));
        return [{ code: 'TIME_EVENT_ID_DUPLICATE', file: 'updates.jsonl', line: i + 2 }];
      },
      { allow: ['TIME_EVENT_ID_REGRESSION'] },
    ),
  );

  {
    const s = mainSessionUntilFork();
    finishMainSession(s);
    s.resume(40 * 60_000, { reseed: false });
    s.prompt('Summarize what changed today.')
      .say('add() now saturates; tests cover negatives and overflow.')
      .endTurn('end_turn');
    const f = s.render();
    const at = lines(text(f.get('updates.jsonl'))).findIndex((l) => l.includes('available_commands_update')) + 1;
    cases.push({
      name: 'time-event-id-regression',
      description:
        'The session was resumed by a binary that does not re-seed the eventId counter: it starts again at 1.',
      must: ['TIME_EVENT_ID_REGRESSION'],
      allow: ['TIME_RESUME_BOUNDARY'],
      at: [{ code: 'TIME_EVENT_ID_REGRESSION', file: 'updates.jsonl', line: at }],
      files: caseTree(f),
    });
  }
  cases.push(
    mutate(
      'time-acp-reordered',
      'Two ACP lines swapped on disk (a tool_call_update before the one emitted before it): Grok writes ACP lines in ' +
        'eventId order among themselves, so this is a real reordering, not the pending-line delay.',
      ['TIME_EVENT_ID_REGRESSION'],
      (f) => {
        const ls = lines(text(f.get('updates.jsonl')));
        const i = ls.findIndex((l, k) => l.includes('"tool_call_update"') && ls[k + 1]?.includes('"tool_call_update"'));
        [ls[i], ls[i + 1]] = [ls[i + 1]!, ls[i]!];
        f.set('updates.jsonl', joinLines(ls));
        return [{ code: 'TIME_EVENT_ID_REGRESSION', file: 'updates.jsonl', line: i + 2 }];
      },
      { allow: ['TIME_RESUME_BOUNDARY'], onlyAt: ['TIME_EVENT_ID_REGRESSION'] },
    ),
  );
  return cases;
}

export const TURN_END_ID = '019a4a10-2c00-7d55-8000-00000000a004';

/**
 * A clean session whose every turn ends with its last ACP line still pending when turn_completed is written, so on
 * disk that line comes after the turn_completed: built-in slash commands (host turns) and turns the user stopped
 * (grok-builder.ts `hostCommand`, `cancelTurn`). Each late line is written when the next turn's first ACP line
 * arrives; the last one at the session's end.
 */
function turnEndCase(): Case {
  const s = new GrokSession({
    id: TURN_END_ID,
    cwd: CWD,
    startMs: Date.UTC(2026, 7, 21, 14, 5, 0),
    sandboxProfile: 'workspace',
    promptHook: true,
  });
  s.summary = { generated_title: 'Fix the failing assertion in tests/math.rs', git_root_dir: CWD };
  s.hostCommand(
    '/hooks list',
    'Loaded hooks (1):\n  prompt-guard  command: .grok/hooks/prompt-guard.sh  timeout: 10s',
    'host-a004-0',
  );
  s.prompt('Why does `cargo test` fail on main?')
    .thought('Read the failing test before guessing.', 'rs_a004_1')
    .tools('Let me read the test.', [
      {
        id: 'call_a004_read',
        name: 'read_file',
        title: 'Read tests/math.rs',
        kind: 'read',
        args: { path: 'tests/math.rs' },
        output: '#[test]\nfn adds() { assert_eq!(add(2, 2), 5); }\n',
      },
    ])
    .sayCut('The assertion expects add(2, 2) to be 5; the test is wrong, not add(). I will')
    .cancelTurn('esc');
  s.hostCommand('/hooks trust', 'Trusted: /home/dev/proj.', 'host-a004-1');
  s.prompt('Only fix the assertion in tests/math.rs, nothing else.')
    .tools('', [
      {
        id: 'call_a004_edit',
        name: 'search_replace',
        title: 'Edit tests/math.rs',
        kind: 'edit',
        args: { path: 'tests/math.rs', old_string: 'add(2, 2), 5', new_string: 'add(2, 2), 4' },
        output: 'Applied 1 edit to tests/math.rs',
      },
      {
        id: 'call_a004_test',
        name: 'run_command',
        title: 'cargo test',
        kind: 'execute',
        args: { command: 'cargo test' },
        output: 'test adds ... ok\n\ntest result: ok. 1 passed; 0 failed',
      },
    ])
    .sayCut('Fixed: the assertion now expects 4 and `cargo test` passes. While I was there I')
    .cancelTurn('ctrl_c');
  const f = s.render();
  return {
    name: 'time-turn-end-pending',
    description:
      "Every turn ends with its last ACP line still in Grok's persistence buffer when turn_completed is written " +
      '(an xAI line, written at once): two built-in slash commands (their output chunk) and two turns the user ' +
      'stopped while the answer streamed (its last text chunk). Each is written after its turn_completed, when the ' +
      "next turn's first ACP line arrives, the last one at the session's end: one place late, not a regression, " +
      'not a resume.',
    must: [],
    maxSeverity: 'note',
    files: place(f, `sessions/${GROUP}/${TURN_END_ID}`),
    timeline: { session: `sessions/${GROUP}/${TURN_END_ID}`, args: [], events: oracleTimeline(s) },
  };
}
