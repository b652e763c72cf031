/** Damaged corpora for the timeline codes (TIME_*), with expected timelines built from the builder's own record. */
import { GROUP, IDS, finishMainSession, mainSessionUntilFork } from './clean-root.js';
import { caseTree, joinLines, lines, mutate, text, type Case } from './case-kit.js';
import { oracleTimeline } from './grok-builder.js';

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
      must: ['TIME_FILE_ORDER', 'TIME_RESUME_BOUNDARY'],
      allow: ['TOOL_SYNTHETIC_RESULT'],
      maxSeverity: 'note',
      files: caseTree(f),
      timeline: { session: `sessions/${GROUP}/${IDS.main}`, args: [], events: oracleTimeline(s) },
    });
  }

  const shift = (l: string, fn: (v: Meta) => void): string => {
    const v = JSON.parse(l) as Meta;
    fn(v);
    return JSON.stringify(v);
  };

  cases.push(
    mutate(
      'time-backwards',
      'The system clock was set back two hours in the middle of prompt 1: later lines carry earlier times.',
      ['TIME_BACKWARDS'],
      (f) => {
        const ls = lines(text(f.get('updates.jsonl'))).map((l, i) =>
          i >= 22 && i < 29
            ? shift(l, (v) => {
                v.timestamp -= 7200;
                if (v.params._meta?.agentTimestampMs !== undefined) v.params._meta.agentTimestampMs -= 7_200_000;
              })
            : l,
        );
        f.set('updates.jsonl', joinLines(ls));
        return [{ code: 'TIME_BACKWARDS', file: 'updates.jsonl', line: 23 }];
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
        const id = (JSON.parse(ls[23]!) as Meta).params._meta!.eventId!;
        ls[24] = shift(ls[24]!, (v) => {
          v.params._meta!.eventId = id;
        });
        f.set('updates.jsonl', joinLines(ls));
        return [{ code: 'TIME_EVENT_ID_DUPLICATE', file: 'updates.jsonl', line: 25 }];
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
  return cases;
}
