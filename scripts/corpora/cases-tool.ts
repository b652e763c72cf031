/** Damaged corpora for tool call ↔ result pairing (TOOL_*), including the interrupted sessions `inspect` is for. */
import { GROUP, IDS, finishMainSession, mainSessionUntilFork } from './clean-root.js';
import { caseTree, dropUpdates, editChat, lineOf, mutate, text, type Case, type Files } from './case-kit.js';
import type { GrokSession } from './grok-builder.js';

const chatLine = (f: Files, re: RegExp): number => lineOf(text(f.get('chat_history.jsonl')), re);

/** The main session, then a final turn in which the process dies while a migration command runs. */
export function interruptedSession(): GrokSession {
  const s = mainSessionUntilFork();
  finishMainSession(s);
  s.prompt('Apply the database migration and restart the service.')
    .thought('Run the migration first, then restart.', 'rs_p4_1')
    .toolsInFlight('Running the migration.', [
      {
        id: 'call_p4_migrate',
        name: 'run_command',
        title: 'psql -f migrations/0042_saturate.sql',
        kind: 'execute',
        args: { command: 'psql -f migrations/0042_saturate.sql' },
        output: '',
      },
      {
        id: 'call_p4_read',
        name: 'read_file',
        title: 'Read deploy/service.toml',
        kind: 'read',
        args: { path: 'deploy/service.toml' },
        output: '',
      },
    ]);
  return s;
}

export function toolCases(): Case[] {
  const cases: Case[] = [];

  cases.push(
    mutate(
      'tool-orphan-result',
      'A torn line took the assistant item that declared a call (healed as a bad line); its tool_result is left ' +
        'without a call.',
      ['TOOL_ORPHAN_RESULT'],
      (f) => {
        let at = 0;
        editChat(f, (ls) => {
          const k = ls.findIndex((l) => l.includes('"call_p2_test"') && l.includes('"assistant"'));
          ls[k] = ls[k]!.slice(0, 60);
          at = k + 2;
          return ls;
        });
        return [{ code: 'TOOL_ORPHAN_RESULT', file: 'chat_history.jsonl', line: at }];
      },
      { allow: ['JSONL_BAD_LINE', 'XREF_CHAT_VS_UPDATES'] },
    ),
  );

  cases.push(
    mutate(
      'tool-duplicate-result',
      "A call answered twice: first the harness's cancellation, then the real result arrived too.",
      ['TOOL_DUPLICATE_RESULT'],
      (f) => {
        let at = 0;
        editChat(f, (ls) => {
          const k = ls.findIndex((l) => l.includes('"tool_result"') && l.includes('"call_p2_test"'));
          ls.splice(
            k,
            0,
            JSON.stringify({
              type: 'tool_result',
              tool_call_id: 'call_p2_test',
              content: 'Tool execution was cancelled by the user (tool `run_command` was not executed).',
            }),
          );
          at = k + 2;
          return ls;
        });
        return [{ code: 'TOOL_DUPLICATE_RESULT', file: 'chat_history.jsonl', line: at }];
      },
      { allow: ['TOOL_SYNTHETIC_RESULT'] },
    ),
  );

  cases.push(
    mutate(
      'tool-result-before-call',
      'A tool_result sits before the assistant item that declares its call (the history was reordered).',
      ['TOOL_RESULT_BEFORE_CALL'],
      (f) => {
        let at = 0;
        editChat(f, (ls) => {
          const k = ls.findIndex((l) => l.includes('"call_p2_test"') && l.includes('"assistant"'));
          const [a, r] = [ls[k]!, ls[k + 1]!];
          ls[k] = r;
          ls[k + 1] = a;
          at = k + 1;
          return ls;
        });
        return [{ code: 'TOOL_RESULT_BEFORE_CALL', file: 'chat_history.jsonl', line: at }];
      },
    ),
  );

  cases.push(
    mutate(
      'tool-unanswered-call',
      'A call whose tool_result is missing from the chat although its turn completed; updates.jsonl shows the tool ' +
        'ran.',
      ['TOOL_UNANSWERED_CALL'],
      (f) => {
        const at = chatLine(f, /"assistant".*"call_p2_test"/);
        editChat(f, (ls) => ls.filter((l) => !(l.includes('"tool_result"') && l.includes('"call_p2_test"'))));
        return [{ code: 'TOOL_UNANSWERED_CALL', file: 'chat_history.jsonl', line: at }];
      },
    ),
  );

  {
    const s = interruptedSession();
    const f = s.render();
    const at = lineOf(text(f.get('chat_history.jsonl')), /"call_p4_migrate"/);
    const tree = caseTree(f);
    cases.push({
      name: 'tool-interrupted-call',
      description:
        'The process died in the final turn while `psql -f migrations/0042_saturate.sql` (a mutating command) and ' +
        'a file read were running: no result, no terminal status, no turn_completed. The session `inspect` is ' +
        'for.',
      must: ['TOOL_INTERRUPTED_CALL'],
      at: [{ code: 'TOOL_INTERRUPTED_CALL', file: 'chat_history.jsonl', line: at }],
      maxSeverity: 'warning',
      files: tree,
    });
  }

  {
    // The same interrupted run, with what CI captured: the streaming-json output (cut off) and exit code 130.
    const s = interruptedSession();
    const tree = caseTree(s.render());
    const ev = (v: unknown): string => `${JSON.stringify(v)}\n`;
    tree.set(
      'ci/grok-run.jsonl',
      [
        ev({ type: 'thought', data: 'Run the migration first, then restart.' }),
        ev({ type: 'text', data: 'Running the migration.' }),
        ev({
          type: 'tool_call',
          toolCallId: 'call_p4_migrate',
          title: 'psql -f migrations/0042_saturate.sql',
          kind: 'execute',
          status: 'pending',
          toolName: 'run_command',
          rawInput: { command: 'psql -f migrations/0042_saturate.sql' },
          content: [],
          locations: [],
        }),
        ev({
          type: 'tool_call_update',
          toolCallId: 'call_p4_migrate',
          status: 'in_progress',
          content: [],
          locations: [],
        }),
        ev({
          type: 'tool_call',
          toolCallId: 'call_p4_read',
          title: 'Read deploy/service.toml',
          kind: 'read',
          status: 'pending',
          toolName: 'read_file',
          rawInput: { path: 'deploy/service.toml' },
          content: [],
          locations: [],
        }),
        ev({ type: 'tool_call_update', toolCallId: 'call_p4_read', status: 'in_progress', content: [], locations: [] }),
      ].join(''),
    );
    // Another run's output, filed with this session by mistake.
    tree.set(
      'ci/other-run.jsonl',
      [
        ev({ type: 'text', data: 'Done.' }),
        ev({
          type: 'tool_call',
          toolCallId: 'call_q1_list',
          title: 'List src',
          kind: 'read',
          status: 'completed',
          toolName: 'list_dir',
          rawInput: { path: 'src' },
        }),
        ev({
          type: 'end',
          stopReason: 'end_turn',
          sessionId: '019b0000-0000-7000-8000-0000000000e1',
          requestId: 'req-9',
        }),
      ].join(''),
    );
    const target = `sessions/${GROUP}/${IDS.main}`;
    cases.push({
      name: 'headless-interrupted',
      description:
        'inspect with what CI captured around the interrupted run: the streaming-json output, cut off before `end` ' +
        '(its tool events match the session tail) and exit code 130 (SIGINT), which agrees with a last turn that ' +
        'never completed. Only a note: the stream names no session.',
      command: 'inspect',
      target,
      args: ['--headless-log', 'ci/grok-run.jsonl', '--exit-code', '130'],
      must: ['XREF_HEADLESS_SESSION_ID', 'TOOL_INTERRUPTED_CALL'],
      at: [{ code: 'XREF_HEADLESS_SESSION_ID', file: 'ci/grok-run.jsonl', severity: 'note' }],
      maxSeverity: 'warning',
      files: tree,
    });
    const other = caseTree(s.render());
    for (const [p, c] of tree) if (p.startsWith('ci/')) other.set(p, c);
    cases.push({
      name: 'headless-mismatch',
      description:
        "inspect given another run's output and exit code 0: the `end` event names another session, its tool call " +
        'is not in this session, and exit 0 contradicts a last turn that never completed.',
      command: 'inspect',
      target,
      args: ['--headless-log', 'ci/other-run.jsonl', '--exit-code', '0'],
      must: ['XREF_HEADLESS_SESSION_ID', 'XREF_HEADLESS_TAIL', 'XREF_HEADLESS_EXIT'],
      allow: ['TOOL_INTERRUPTED_CALL'],
      at: [
        { code: 'XREF_HEADLESS_SESSION_ID', file: 'ci/other-run.jsonl', severity: 'error' },
        { code: 'XREF_HEADLESS_EXIT', file: 'ci/other-run.jsonl' },
      ],
      files: other,
    });
  }

  cases.push(
    mutate(
      'tool-displaced-result',
      'A tool_result moved after the assistant message that followed it: not in the run right after its call.',
      ['TOOL_DISPLACED_RESULT'],
      (f) => {
        let at = 0;
        editChat(f, (ls) => {
          const k = ls.findIndex((l) => l.includes('"tool_result"') && l.includes('"call_p2_test"'));
          const [r] = ls.splice(k, 1);
          ls.splice(k + 1, 0, r!);
          at = k + 2;
          return ls;
        });
        return [{ code: 'TOOL_DISPLACED_RESULT', file: 'chat_history.jsonl', line: at }];
      },
      { allow: ['TOOL_UNANSWERED_CALL'] },
    ),
  );

  {
    // Crash mid-tool, then a resume: the new process re-seeds its event counter, Grok's repair answers the dangling
    // call.
    const s = mainSessionUntilFork();
    finishMainSession(s);
    s.prompt('Run the benchmarks and commit the results.').toolsInFlight('', [
      {
        id: 'call_p4_bench',
        name: 'run_command',
        title: 'cargo bench',
        kind: 'execute',
        args: { command: 'cargo bench' },
        output: '',
      },
    ]);
    s.abandonTurn().resume(3_600_000);
    s.chat.push({
      type: 'tool_result',
      tool_call_id: 'call_p4_bench',
      content: 'Tool execution was cancelled by the user (tool `run_command` was not executed).',
    });
    s.prompt('The benchmark run was interrupted; just summarize the last results instead.');
    (s.chat.at(-1) as { prior_turn_interrupt?: string }).prior_turn_interrupt = 'mid_turn_abort';
    s.say('The last recorded benchmark shows add() at 1.2 ns/iter.').endTurn('end_turn');
    const f = s.render();
    const at = lineOf(text(f.get('chat_history.jsonl')), /"tool_result","tool_call_id":"call_p4_bench"/);
    cases.push({
      name: 'tool-synthetic-result',
      description:
        "A crash while `cargo bench` ran, then a resume an hour later: Grok's repair answered the dangling call " +
        'with its synthetic cancellation text. The log shows the call never finished.',
      must: ['TOOL_SYNTHETIC_RESULT'],
      allow: ['TOOL_INTERRUPTED_CALL', 'TIME_RESUME_BOUNDARY'],
      at: [{ code: 'TOOL_SYNTHETIC_RESULT', file: 'chat_history.jsonl', line: at }],
      files: caseTree(f),
    });
  }

  cases.push(
    mutate(
      'tool-update-without-call',
      'updates.jsonl lost the tool_call line of a call; its updates remain.',
      ['TOOL_UPDATE_WITHOUT_CALL'],
      (f) => {
        const u = text(f.get('updates.jsonl'));
        const k = lineOf(u, /"sessionUpdate":"tool_call","toolCallId":"call_p2_test"/);
        dropUpdates(f, k);
        return [{ code: 'TOOL_UPDATE_WITHOUT_CALL', file: 'updates.jsonl', line: k }];
      },
      { allow: ['XREF_CHAT_VS_UPDATES'] },
    ),
  );

  cases.push(
    mutate(
      'tool-no-terminal-status',
      'updates.jsonl lost the completed update of a call whose turn ended normally; the chat has its result.',
      ['TOOL_NO_TERMINAL_STATUS'],
      (f) => {
        const u = text(f.get('updates.jsonl'));
        const call = lineOf(u, /"sessionUpdate":"tool_call","toolCallId":"call_p2_test"/);
        const done = lineOf(u, /"toolCallId":"call_p2_test","status":"completed"/);
        dropUpdates(f, done);
        return [{ code: 'TOOL_NO_TERMINAL_STATUS', file: 'updates.jsonl', line: call }];
      },
    ),
  );

  return cases;
}
