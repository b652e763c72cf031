/**
 * Damaged corpora for the reader, schema and session-directory codes: the clean main session with one kind of
 * damage applied, in the real layout, with the findings it must produce (and where).
 */
import { GROUP, IDS } from './clean-root.js';
import { GrokSession } from './grok-builder.js';
import {
  caseTree,
  deepenContent,
  lineOf,
  lines,
  mainFiles,
  mutate,
  nestedJson,
  place,
  SESSION_DIR,
  text,
  TOO_DEEP,
  type Case,
} from './case-kit.js';

export function baseCases(): Case[] {
  const cases: Case[] = [];

  cases.push(
    mutate(
      'jsonl-torn-tail',
      'updates.jsonl ends in the middle of a record: the process died mid-append. The append was never committed, ' +
        'so num_messages does not count it: the counters agree (a legitimate cause that must not be an XREF error).',
      ['JSONL_TORN_TAIL'],
      (f) => {
        const c = text(f.get('updates.jsonl'));
        const ls = lines(c);
        const next = ls
          .at(-1)!
          .replace(/"timestamp":(\d+)/, (_m, t: string) => `"timestamp":${Number(t) + 40}`)
          .replace('turn_completed', 'session_summary_generated');
        f.set('updates.jsonl', `${c}${next.slice(0, Math.floor(next.length / 2))}`);
        return [{ code: 'JSONL_TORN_TAIL', file: 'updates.jsonl', line: ls.length + 1 }];
      },
    ),
  );

  cases.push(
    mutate(
      'jsonl-unterminated-tail',
      'updates.jsonl: the last record is complete but its newline was never written.',
      ['JSONL_UNTERMINATED_TAIL'],
      (f) => {
        const c = text(f.get('updates.jsonl'));
        f.set('updates.jsonl', c.slice(0, -1));
        return [{ code: 'JSONL_UNTERMINATED_TAIL', file: 'updates.jsonl', line: lines(c).length }];
      },
    ),
  );

  cases.push(
    mutate(
      'jsonl-bad-line',
      "updates.jsonl: an append torn by a crash was sealed by the next append (Grok's torn-tail healing writes a " +
        'newline first); good lines follow. The torn append was never counted.',
      ['JSONL_BAD_LINE'],
      (f) => {
        const ls = lines(text(f.get('updates.jsonl')));
        const k = 9;
        ls.splice(k - 1, 0, ls[k - 1]!.slice(0, 70));
        f.set('updates.jsonl', `${ls.join('\n')}\n`);
        return [{ code: 'JSONL_BAD_LINE', file: 'updates.jsonl', line: k }];
      },
    ),
  );

  cases.push(
    mutate(
      'jsonl-merged-line',
      'chat_history.jsonl: a partial record with the next record glued onto it (a pre-heal binary or two racing ' +
        'writers).',
      ['JSONL_MERGED_LINE'],
      (f) => {
        const c = text(f.get('chat_history.jsonl'));
        const ls = lines(c);
        const k = lineOf(c, /Make add\(\) saturate/);
        // Torn inside a string value (the `…"ab{"type":…}` shape), then the next record appended straight on.
        ls.splice(k - 1, 2, ls[k - 1]!.slice(0, ls[k - 1]!.indexOf('saturate') + 4) + ls[k]!);
        f.set('chat_history.jsonl', `${ls.join('\n')}\n`);
        return [{ code: 'JSONL_MERGED_LINE', file: 'chat_history.jsonl', line: k }];
      },
    ),
  );

  cases.push(
    mutate(
      'jsonl-merged-prompt',
      "chat_history.jsonl: the model's answer before the third prompt is torn and the prompt glued onto it. We " +
        "recover the prompt; Grok's loader skips the whole line, so the model never saw it (inspect says so, and " +
        'says to bundle before resuming, since the load rewrites the file).',
      ['JSONL_MERGED_LINE'],
      (f) => {
        const c = text(f.get('chat_history.jsonl'));
        const ls = lines(c);
        const k = lineOf(c, /Make add\(\) saturate/);
        // The item before the prompt, torn inside its text, then the prompt appended straight on.
        const before = ls[k - 2]!;
        ls.splice(k - 2, 2, before.slice(0, before.indexOf('"content":"') + 20) + ls[k - 1]!);
        f.set('chat_history.jsonl', `${ls.join('\n')}\n`);
        return [{ code: 'JSONL_MERGED_LINE', file: 'chat_history.jsonl', line: k - 1 }];
      },
      { command: 'inspect', target: SESSION_DIR, onlyAt: ['JSONL_MERGED_LINE'] },
    ),
  );

  cases.push(
    mutate(
      'schema-duplicate-key',
      'chat_history.jsonl: a prompt line with its content written twice, the second hiding the first from a ' +
        "JSON.parse reader. Grok's serde refuses the repeated field and skips the line: an error.",
      ['SCHEMA_DUPLICATE_KEY'],
      (f) => {
        const c = text(f.get('chat_history.jsonl'));
        const ls = lines(c);
        const k = lineOf(c, /Run the whole test suite/);
        ls[k - 1] = ls[k - 1]!.replace(
          '{"type":"user",',
          '{"type":"user","content":[{"type":"text","text":"Delete the tests directory."}],',
        );
        f.set('chat_history.jsonl', `${ls.join('\n')}\n`);
        return [{ code: 'SCHEMA_DUPLICATE_KEY', file: 'chat_history.jsonl', line: k, severity: 'error' }];
      },
      { onlyAt: ['SCHEMA_DUPLICATE_KEY'] },
    ),
  );

  cases.push(
    mutate(
      'jsonl-invalid-utf8',
      'updates.jsonl: one line was rewritten in Latin-1 by another tool (an é as the single byte 0xE9).',
      ['JSONL_INVALID_UTF8'],
      (f) => {
        const c = text(f.get('updates.jsonl'));
        const k = lineOf(c, /agent_message_chunk/);
        const ls: Buffer[] = lines(c).map((l) => Buffer.from(`${l}\n`, 'utf8'));
        const [head, tail] = ls[k - 1]!.toString('utf8').split('Let me look');
        ls[k - 1] = Buffer.concat([
          Buffer.from(`${head}Let me look at the caf`, 'utf8'),
          Buffer.from([0xe9]),
          Buffer.from(tail!, 'utf8'),
        ]);
        f.set('updates.jsonl', Buffer.concat(ls));
        return [{ code: 'JSONL_INVALID_UTF8', file: 'updates.jsonl', line: k }];
      },
      { allow: ['XREF_MESSAGE_COUNT'] },
    ),
  );

  cases.push(
    mutate(
      'jsonl-nul-bytes',
      'updates.jsonl: a zero-filled 4 KiB tail (blocks allocated but never written before a power loss).',
      ['JSONL_NUL_BYTES'],
      (f) => {
        const c = text(f.get('updates.jsonl'));
        f.set('updates.jsonl', Buffer.concat([Buffer.from(c), Buffer.alloc(4096)]));
        return [{ code: 'JSONL_NUL_BYTES', file: 'updates.jsonl', line: lines(c).length + 1 }];
      },
    ),
  );

  cases.push(
    mutate(
      'jsonl-bom',
      'chat_history.jsonl was re-saved by an editor that added a UTF-8 byte-order mark.',
      ['JSONL_BOM'],
      (f) => {
        f.set('chat_history.jsonl', `\ufeff${text(f.get('chat_history.jsonl'))}`);
        return [{ code: 'JSONL_BOM', file: 'chat_history.jsonl', line: 1 }];
      },
    ),
  );

  cases.push(
    mutate(
      'jsonl-crlf',
      'rewind_points.jsonl was checked out on Windows with autocrlf: every line ends with CR LF.',
      ['JSONL_CRLF'],
      (f) => {
        f.set('rewind_points.jsonl', text(f.get('rewind_points.jsonl')).replace(/\n/g, '\r\n'));
        return [{ code: 'JSONL_CRLF', file: 'rewind_points.jsonl', line: 1 }];
      },
    ),
  );

  cases.push(
    mutate('jsonl-blank-line', 'updates.jsonl holds an empty line between two records.', ['JSONL_BLANK_LINE'], (f) => {
      const ls = lines(text(f.get('updates.jsonl')));
      ls.splice(12, 0, '');
      f.set('updates.jsonl', `${ls.join('\n')}\n`);
      return [{ code: 'JSONL_BLANK_LINE', file: 'updates.jsonl', line: 13 }];
    }),
  );

  cases.push(
    mutate(
      'jsonl-duplicate-line',
      'updates.jsonl: one append was written twice (a retried write).',
      ['JSONL_DUPLICATE_LINE'],
      (f) => {
        const ls = lines(text(f.get('updates.jsonl')));
        ls.splice(20, 0, ls[19]!);
        f.set('updates.jsonl', `${ls.join('\n')}\n`);
        return [{ code: 'JSONL_DUPLICATE_LINE', file: 'updates.jsonl', line: 21 }];
      },
      { allow: ['XREF_MESSAGE_COUNT'] },
    ),
  );

  cases.push(
    mutate(
      'jsonl-oversized-line',
      'chat_history.jsonl holds a 100 KB tool result; audited with --max-line-bytes 65536 it is over the cap (the ' +
        'real cap is 64 MiB, too big to ship).',
      ['JSONL_OVERSIZED_LINE'],
      (f) => {
        const c = text(f.get('chat_history.jsonl'));
        const k = lineOf(c, /"tool_result"/);
        const ls = lines(c);
        const item = JSON.parse(ls[k - 1]!) as { content: string };
        item.content = 'test output line\n'.repeat(6000);
        ls[k - 1] = JSON.stringify(item);
        f.set('chat_history.jsonl', `${ls.join('\n')}\n`);
        return [{ code: 'JSONL_OVERSIZED_LINE', file: 'chat_history.jsonl', line: k }];
      },
      { args: ['--max-line-bytes', '65536'], allow: ['TOOL_UNANSWERED_CALL'] },
    ),
  );

  cases.push(
    mutate(
      'jsonl-too-deep',
      `A tool result in chat_history.jsonl whose content is wrapped in ${TOO_DEEP} nested objects, and a plan.json ` +
        'nested as deep: past the 512 levels every reader accepts, neither is parsed (so nothing walks them).',
      ['JSONL_TOO_DEEP', 'SESSION_FILE_UNPARSEABLE'],
      (f) => {
        const c = text(f.get('chat_history.jsonl'));
        const k = lineOf(c, /"tool_result"/);
        const ls = lines(c);
        ls[k - 1] = deepenContent(ls[k - 1]!);
        f.set('chat_history.jsonl', `${ls.join('\n')}\n`);
        f.set('plan.json', nestedJson(text(f.get('plan.json'))));
        return [
          { code: 'JSONL_TOO_DEEP', file: 'chat_history.jsonl', line: k },
          { code: 'SESSION_FILE_UNPARSEABLE', file: 'plan.json' },
        ];
      },
      { allow: ['TOOL_UNANSWERED_CALL'] },
    ),
  );

  cases.push(
    mutate(
      'schema-violation',
      'Valid JSON of the wrong shape: a tool_call whose toolCallId is a number, and a tool_result without content.',
      ['SCHEMA_VIOLATION'],
      (f) => {
        const u = text(f.get('updates.jsonl'));
        const k = lineOf(u, /"sessionUpdate":"tool_call",/);
        f.set('updates.jsonl', u.replace('"toolCallId":"call_p0_read","title"', '"toolCallId":7,"title"'));
        const c = text(f.get('chat_history.jsonl'));
        const j = lineOf(c, /"tool_result"/);
        f.set('chat_history.jsonl', c.replace(/("type":"tool_result","tool_call_id":"[^"]+"),"content":"[^"]*"/, '$1'));
        return [
          { code: 'SCHEMA_VIOLATION', file: 'updates.jsonl', line: k },
          { code: 'SCHEMA_VIOLATION', file: 'chat_history.jsonl', line: j },
        ];
      },
      { allow: ['TOOL_UPDATE_WITHOUT_CALL'] },
    ),
  );

  cases.push(
    mutate(
      'schema-unknown-type',
      'updates.jsonl holds an xAI update with a tag this model does not know (git_branch_update, a removed variant).',
      ['SCHEMA_UNKNOWN_TYPE'],
      (f) => {
        const ls = lines(text(f.get('updates.jsonl')));
        const first = JSON.parse(ls[0]!) as { timestamp: number };
        ls.splice(
          3,
          0,
          JSON.stringify({
            timestamp: first.timestamp + 2,
            method: '_x.ai/session/update',
            params: { sessionId: IDS.main, update: { sessionUpdate: 'git_branch_update', branch: 'main' } },
          }),
        );
        f.set('updates.jsonl', `${ls.join('\n')}\n`);
        const s = JSON.parse(text(f.get('summary.json'))) as { num_messages: number };
        s.num_messages += 1;
        f.set('summary.json', `${JSON.stringify(s, null, 2)}\n`);
        return [{ code: 'SCHEMA_UNKNOWN_TYPE', file: 'updates.jsonl', line: 4 }];
      },
    ),
  );

  cases.push(
    mutate(
      'schema-not-persisted',
      'updates.jsonl holds a subagent_progress update, which Grok documents as transient (never persisted).',
      ['SCHEMA_NOT_PERSISTED'],
      (f) => {
        const c = text(f.get('updates.jsonl'));
        const k = lineOf(c, /"subagent_spawned"/);
        const ls = lines(c);
        const spawned = JSON.parse(ls[k - 1]!) as { timestamp: number };
        ls.splice(
          k,
          0,
          JSON.stringify({
            timestamp: spawned.timestamp + 2,
            method: '_x.ai/session/update',
            params: {
              sessionId: IDS.main,
              update: {
                sessionUpdate: 'subagent_progress',
                subagent_id: IDS.sub,
                parent_session_id: IDS.main,
                child_session_id: IDS.sub,
                duration_ms: 2000,
                turn_count: 1,
                tool_call_count: 1,
                tokens_used: 900,
                context_window_tokens: 200000,
                context_usage_pct: 1,
                tools_used: ['grep'],
                error_count: 0,
              },
            },
          }),
        );
        f.set('updates.jsonl', `${ls.join('\n')}\n`);
        const s = JSON.parse(text(f.get('summary.json'))) as { num_messages: number };
        s.num_messages += 1;
        f.set('summary.json', `${JSON.stringify(s, null, 2)}\n`);
        return [{ code: 'SCHEMA_NOT_PERSISTED', file: 'updates.jsonl', line: k + 1 }];
      },
    ),
  );

  cases.push(legacySession());

  cases.push(
    mutate(
      'session-summary-missing',
      'The session directory has logs but no summary.json (a crash before the first summary write, or TTL cleanup).',
      ['SESSION_SUMMARY_MISSING'],
      (f) => {
        f.delete('summary.json');
        return [{ code: 'SESSION_SUMMARY_MISSING', file: 'summary.json' }];
      },
    ),
  );

  cases.push(
    mutate(
      'session-summary-empty',
      'summary.json is zero bytes (a non-atomic writer truncated it and died).',
      ['SESSION_SUMMARY_EMPTY'],
      (f) => {
        f.set('summary.json', '');
        return [{ code: 'SESSION_SUMMARY_EMPTY', file: 'summary.json' }];
      },
    ),
  );

  cases.push(
    mutate(
      'session-summary-unparseable',
      'summary.json was cut short in the middle of a non-atomic write.',
      ['SESSION_SUMMARY_UNPARSEABLE'],
      (f) => {
        const c = text(f.get('summary.json'));
        f.set('summary.json', c.slice(0, Math.floor(c.length / 2)));
        return [{ code: 'SESSION_SUMMARY_UNPARSEABLE', file: 'summary.json' }];
      },
    ),
  );

  cases.push(
    mutate(
      'session-file-unparseable',
      'plan.json (written in place, not atomically) was cut short, and a subagent meta.json is empty.',
      ['SESSION_FILE_UNPARSEABLE'],
      (f) => {
        const c = text(f.get('plan.json'));
        f.set('plan.json', c.slice(0, 40));
        f.set(`subagents/${IDS.sub}/meta.json`, '');
        return [
          { code: 'SESSION_FILE_UNPARSEABLE', file: 'plan.json' },
          { code: 'SESSION_FILE_UNPARSEABLE', file: `subagents/${IDS.sub}/meta.json` },
        ];
      },
    ),
  );

  cases.push(
    mutate(
      'session-unexpected-file',
      'Files Grok does not write: a notes file, a fork-only provider_binding.json, and a backup directory.',
      ['SESSION_UNEXPECTED_FILE'],
      (f) => {
        f.set('notes.txt', 'reviewer notes: do not resume\n');
        f.set('provider_binding.json', '{"provider":"xai"}\n');
        f.set('backup/updates.jsonl.bak', text(f.get('updates.jsonl')));
        f.set('backup/summary.json.bak', text(f.get('summary.json')));
        return [
          { code: 'SESSION_UNEXPECTED_FILE', file: 'backup' },
          { code: 'SESSION_UNEXPECTED_FILE', file: 'notes.txt' },
          { code: 'SESSION_UNEXPECTED_FILE', file: 'provider_binding.json' },
        ];
      },
    ),
  );

  cases.push(symlinkCase());

  cases.push(
    mutate(
      'session-unreadable',
      'updates.jsonl is a FIFO (named pipe): it is never opened, so the audit cannot hang. Git cannot store a ' +
        'FIFO: the test harness creates it (see setup).',
      ['SESSION_UNREADABLE'],
      (f) => {
        f.delete('updates.jsonl');
        return [{ code: 'SESSION_UNREADABLE', file: 'updates.jsonl' }];
      },
      { setup: [{ mkfifo: `${SESSION_DIR}/updates.jsonl` }] },
    ),
  );

  cases.push(deepCase());

  return cases;
}

/** The main session archived 15 directories down: discovery stops at its deepest level and says where. */
function deepCase(): Case {
  const chain = Array.from({ length: 15 }, (_, i) => `d${i}`);
  const tree = new Map([...mainFiles()].map(([p, c]) => [`${chain.join('/')}/${IDS.main}/${p}`, c]));
  return {
    name: 'session-not-searched',
    description:
      'A session kept 16 directories below the root (an archive of archives): discovery searches 12 levels, so ' +
      'the directory where it stopped is named, never skipped in silence.',
    must: ['SESSION_NOT_SEARCHED'],
    onlyAt: ['SESSION_NOT_SEARCHED'],
    at: [{ code: 'SESSION_NOT_SEARCHED', file: '', session: chain.slice(0, 12).join('/') }],
    files: tree,
  };
}

/** A session written by an old binary: format-0 chat lines and updates lines without the envelope. */
function legacySession(): Case {
  const id = '0190aa00-0000-7000-8000-00000000b001';
  const s = new GrokSession({
    id,
    cwd: '/home/dev/proj',
    startMs: Date.UTC(2025, 10, 2, 14, 0, 0),
    sandboxProfile: 'workspace',
  });
  const files = s.render();
  const when = '2025-11-02T14:00:05.000000Z';
  const chat = [
    { role: 'system', content: 'You are Grok Build, a coding agent.' },
    { role: 'user', content: 'List the files in src.' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'call_legacy_1', type: 'function', function: { name: 'list_dir', arguments: '{"path":"src"}' } },
      ],
      model_id: 'grok-3',
    },
    { role: 'tool', content: 'math.rs\nmain.rs', tool_call_id: 'call_legacy_1' },
    {
      role: 'assistant',
      content: 'src holds math.rs and main.rs.',
      model_id: 'grok-3',
      reasoning_content: 'A plain listing answers it.',
    },
  ];
  const updates = [
    {
      sessionId: id,
      update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'List the files in src.' } },
    },
    {
      sessionId: id,
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: 'call_legacy_1',
        title: 'List src',
        status: 'pending',
        rawInput: { path: 'src' },
      },
    },
    {
      sessionId: id,
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'call_legacy_1',
        status: 'completed',
        rawOutput: { output: 'math.rs\nmain.rs' },
      },
    },
    {
      sessionId: id,
      update: {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'src holds math.rs and main.rs.' },
      },
    },
  ];
  files.set('chat_history.jsonl', chat.map((c) => `${JSON.stringify(c)}\n`).join(''));
  files.set('updates.jsonl', updates.map((u) => `${JSON.stringify(u)}\n`).join(''));
  files.set(
    'summary.json',
    JSON.stringify(
      {
        info: { id, cwd: '/home/dev/proj' },
        session_summary: 'List the files in src.',
        created_at: '2025-11-02T14:00:00.000000Z',
        updated_at: when,
        num_messages: 4,
        num_chat_messages: 5,
        current_model_id: 'grok-3',
      },
      null,
      2,
    ) + '\n',
  );
  files.delete('system_prompt.txt');
  return {
    name: 'schema-legacy-record',
    description:
      'A session written by an old binary: chat_format_version absent (0), OpenAI-style chat lines, updates lines ' +
      'without the envelope (Grok still reads both), and no sandbox_profile (the field did not exist yet).',
    must: ['SCHEMA_LEGACY_RECORD', 'SANDBOX_PROFILE_MISSING'],
    at: [
      { code: 'SCHEMA_LEGACY_RECORD', file: 'chat_history.jsonl', line: 1 },
      { code: 'SCHEMA_LEGACY_RECORD', file: 'updates.jsonl', line: 1 },
    ],
    files: place(files, `sessions/${GROUP}/${id}`),
  };
}

/**
 * Symlinks never followed: one inside a session pointing outside it, one standing in for plan.json, and a
 * whole session directory in the group that is a symlink to a session stored elsewhere.
 */
function symlinkCase(): Case {
  const f = mainFiles();
  f.set('exfil.jsonl', { symlink: '../../../../../../etc/passwd' });
  f.set('plan.json', { symlink: '/etc/hostname' });
  const files = caseTree(f);
  const elsewhere = new GrokSession({
    id: IDS.fork,
    cwd: '/home/dev/proj',
    startMs: Date.UTC(2026, 7, 20, 8, 0, 0),
    sandboxProfile: 'workspace',
  });
  elsewhere.prompt('Summarize the README.').say('It describes a small math crate.').endTurn('end_turn');
  for (const [p, c] of elsewhere.render()) files.set(`elsewhere/${IDS.fork}/${p}`, c);
  files.set(`sessions/${GROUP}/${IDS.fork}`, { symlink: `../../elsewhere/${IDS.fork}` });
  return {
    name: 'session-symlink',
    description:
      'Symlinks in a session tree: exfil.jsonl points outside the session, plan.json is a symlink standing in for ' +
      'the real file, and a session directory in the group is a symlink to a directory elsewhere. None is ' +
      'followed.',
    must: ['SESSION_SYMLINK'],
    allow: ['SESSION_UNEXPECTED_FILE'],
    at: [
      { code: 'SESSION_SYMLINK', file: 'exfil.jsonl' },
      { code: 'SESSION_SYMLINK', file: 'plan.json' },
      { code: 'SESSION_SYMLINK', file: '' },
    ],
    files,
  };
}
