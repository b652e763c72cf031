/**
 * The clean corpus: a realistic sessions root with one multi-turn session (tool calls, reasoning, a plan,
 * rewind points, a compaction, a rewind, a subagent) plus the subagent's own session and a fork of it.
 */
import { GrokSession, iso, type Json, type ToolSpec } from './grok-builder.js';

export const CWD = '/home/dev/proj';
/** Grok's encode_cwd_dirname: urlencoding::encode (alphanumerics and -_.~ kept). */
export const encodeCwd = (cwd: string): string =>
  encodeURIComponent(cwd).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
export const GROUP = encodeCwd(CWD);

export const IDS = {
  main: '019a3f2c-1d00-7a3e-8000-00000000a001',
  fork: '019a3f6b-8e40-7b11-8000-00000000a002',
  sub: '019a3f2e-0f10-7c42-8000-00000000a003',
};

const T0 = Date.UTC(2026, 7, 19, 9, 30, 0);

const MATH_BEFORE = 'pub fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\n';
const MATH_AFTER = 'pub fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n';
const TESTS_AFTER =
  '#[test]\nfn adds_negative() { assert_eq!(add(-2, 3), 1); }\n#[test]\nfn add_overflow_saturates() { ' +
  'assert_eq!(add(i64::MAX, 1), i64::MAX); }\n';

const call = (
  id: string,
  name: string,
  title: string,
  kind: string,
  args: Record<string, Json>,
  output: string,
): ToolSpec => ({ id, name, title, kind, args, output });

export interface CleanTree {
  /** path relative to the corpus root → content */
  files: Map<string, string | Buffer>;
  main: GrokSession;
  sub: GrokSession;
}

export function mainSessionUntilFork(): GrokSession {
  const s = new GrokSession({
    id: IDS.main,
    cwd: CWD,
    startMs: T0,
    sandboxProfile: 'workspace',
    summaryExtra: {},
    promptHook: true,
  });
  s.summary = {
    generated_title: 'Fix add() and its tests',
    git_root_dir: CWD,
    git_remotes: ['git@example.com:dev/proj.git'],
    head_commit: '3f1c2a9d8e7b6a5c4d3e2f1a0b9c8d7e6f5a4b3c',
    head_branch: 'main',
    collection_id: 'col-7f3a',
  };
  // Prompt 0: a failing test, read, edit, run.
  s.prompt('The test `adds_negative` fails in src/math.rs; fix it.')
    .thought('The failing test points at add(); read the file first.', 'rs_p0_1')
    .tools('Let me look at the file.', [
      call('call_p0_read', 'read_file', 'Read src/math.rs', 'read', { path: 'src/math.rs' }, MATH_BEFORE),
    ])
    .thought('add() subtracts; change `a - b` to `a + b` and re-run the test.', 'rs_p0_2')
    .tools('', [
      call(
        'call_p0_edit',
        'search_replace',
        'Edit src/math.rs',
        'edit',
        { path: 'src/math.rs', old_string: 'a - b', new_string: 'a + b' },
        'Applied 1 edit to src/math.rs',
      ),
      call(
        'call_p0_test',
        'run_command',
        'cargo test adds_negative',
        'execute',
        { command: 'cargo test adds_negative' },
        'test adds_negative ... ok\n\ntest result: ok. 1 passed; 0 failed',
      ),
    ])
    .say('Fixed: `add` subtracted its arguments. The test passes now.')
    .endTurn('end_turn', { 'src/math.rs': { before: MATH_BEFORE, after: MATH_AFTER } });

  // Prompt 1: a plan, a subagent, a new test file.
  s.prompt('Add a test for overflow too, and check how the other modules handle overflow.').plan([
    { content: 'Survey overflow handling in other modules', status: 'in_progress' },
    { content: 'Add an overflow test', status: 'pending' },
  ]);
  s.tools('I will ask an explore agent to survey the other modules.', []);
  s.chat.pop(); // the spawn is one tool call; rebuild it with the subagent events around it
  s.chat.push({
    type: 'assistant',
    content: 'I will ask an explore agent to survey the other modules.',
    tool_calls: [
      {
        id: 'call_p1_task',
        name: 'task',
        arguments: JSON.stringify({ subagent_type: 'explore', description: 'Survey overflow handling' }),
      },
    ],
    model_id: s.model,
    reasoning_effort: 'high',
  });
  s.tick(300).acp(
    {
      sessionUpdate: 'tool_call',
      toolCallId: 'call_p1_task',
      title: 'Survey overflow handling',
      kind: 'other',
      status: 'pending',
      rawInput: { subagent_type: 'explore', description: 'Survey overflow handling' },
    },
    { promptId: s.promptId() },
  );
  s.tick(200).xai({
    sessionUpdate: 'subagent_spawned',
    subagent_id: IDS.sub,
    parent_session_id: IDS.main,
    parent_prompt_id: s.promptId(),
    child_session_id: IDS.sub,
    subagent_type: 'explore',
    description: 'Survey overflow handling',
    effective_context_source: 'new',
  });
  const spawnedAt = s.t;
  s.marks.subagentSpawned = spawnedAt;
  const subOutput = 'src/checked.rs uses checked_add and returns None; src/money.rs saturates with saturating_add.';
  s.tick(14000).xai({
    sessionUpdate: 'subagent_finished',
    subagent_id: IDS.sub,
    child_session_id: IDS.sub,
    status: 'completed',
    tool_calls: 2,
    turns: 1,
    duration_ms: 14000,
    tokens_used: 5400,
    output: subOutput,
    will_wake: false,
  });
  s.tick(100).acp(
    {
      sessionUpdate: 'tool_call_update',
      toolCallId: 'call_p1_task',
      status: 'completed',
      content: [{ type: 'content', content: { type: 'text', text: subOutput } }],
      rawOutput: { output: subOutput },
    },
    { promptId: s.promptId() },
  );
  s.chat.push({ type: 'tool_result', tool_call_id: 'call_p1_task', content: subOutput });
  s.files.set(
    `subagents/${IDS.sub}/meta.json`,
    `${JSON.stringify(
      {
        subagent_id: IDS.sub,
        parent_session_id: IDS.main,
        child_session_id: IDS.sub,
        subagent_type: 'explore',
        description: 'Survey overflow handling',
        prompt: 'Survey how the modules under src/ handle integer overflow; report file and strategy.',
        status: 'completed',
        started_at: iso(spawnedAt),
        completed_at: iso(spawnedAt + 14000),
        duration_ms: 14000,
        tool_calls: 2,
        turns: 1,
        effective_context_source: 'new',
        child_cwd: CWD,
        effective_model_id: 'grok-build',
      },
      null,
      2,
    )}\n`,
  );
  s.files.set(`subagents/${IDS.sub}/output.json`, JSON.stringify({ schema_version: 1, output: subOutput }));
  s.tools('Adding the overflow test, saturating like src/money.rs.', [
    call(
      'call_p1_write',
      'write_file',
      'Write tests/math.rs',
      'edit',
      { path: 'tests/math.rs', content: TESTS_AFTER },
      'Wrote 4 lines to tests/math.rs',
    ),
  ])
    .plan([
      { content: 'Survey overflow handling in other modules', status: 'completed' },
      { content: 'Add an overflow test', status: 'completed' },
    ])
    .say('Added `add_overflow_saturates`; note it fails until add() saturates.')
    .endTurn('end_turn', { 'tests/math.rs': { before: null, after: TESTS_AFTER } });

  s.compact(
    '5d0c9a8e-3b7f-4c21-9e6a-1f2b3c4d5e6f',
    'The user asked to fix add() (it subtracted) and to add an overflow test; both done. Other modules: checked.rs ' +
      'uses checked_add, money.rs saturates.',
  );

  // Prompt 2: run the whole suite.
  s.prompt('Run the whole test suite.')
    .tools('', [
      call(
        'call_p2_test',
        'run_command',
        'cargo test',
        'execute',
        { command: 'cargo test' },
        'test result: FAILED. 1 passed; 1 failed (add_overflow_saturates)',
      ),
    ])
    .say('One failure: add_overflow_saturates, as expected until add() saturates.')
    .endTurn('end_turn');
  return s;
}

/** The rest of the main session after the fork point: a prompt, a rewind of it, and a replacement prompt. */
export function finishMainSession(s: GrokSession): void {
  s.prompt('Rename add to checked_add everywhere.')
    .tools('', [
      call(
        'call_p3_grep',
        'grep',
        'grep -rn "add(" src tests',
        'search',
        { pattern: 'add(', path: '.' },
        'src/math.rs:1:pub fn add(a: i64, b: i64) -> i64 {\ntests/math.rs:2:fn adds_negative() { ' +
          'assert_eq!(add(-2, 3), 1); }',
      ),
    ])
    .say('There are two call sites; renaming both.')
    .endTurn('end_turn');
  // The user rewinds to prompt 3 (drops it) and asks differently.
  // The marker cuts prompt 3 and everything after it off the live branch (the marker itself stays visible).
  s.markRewound(3);
  s.tick(30000).xai({ sessionUpdate: 'rewind_marker', target_prompt_index: 3, created_at: iso(s.t) }, false);
  s.promptIndex = 3;
  s.rewindPoints = s.rewindPoints.filter((p) => (p as { prompt_index: number }).prompt_index < 3);
  const cut = s.chat.findIndex((i) => (i as { prompt_index?: number }).prompt_index === 3);
  s.chat = s.chat.slice(0, cut);
  s.prompt('Make add() saturate instead of renaming it.')
    .tools('', [
      call(
        'call_p3b_edit',
        'search_replace',
        'Edit src/math.rs',
        'edit',
        { path: 'src/math.rs', old_string: 'a + b', new_string: 'a.saturating_add(b)' },
        'Applied 1 edit to src/math.rs',
      ),
    ])
    .say('add() now saturates; the overflow test passes.')
    .endTurn('end_turn', {
      'src/math.rs': { before: MATH_AFTER, after: MATH_AFTER.replace('a + b', 'a.saturating_add(b)') },
    });
}

/** The explore subagent's own session: a top-level session dir, session_kind "subagent", hidden. */
/** The subagent starts when its parent spawns it (12.6 s into the main session). */
export const SUB_START = T0 + 12_880;

export function subagentSession(): GrokSession {
  const s = new GrokSession({ id: IDS.sub, cwd: CWD, startMs: SUB_START, sandboxProfile: 'workspace' });
  s.summary = { session_kind: 'subagent', hidden: true, agent_name: 'explore' };
  s.prompt('Survey how the modules under src/ handle integer overflow; report file and strategy.')
    .tools('', [
      call(
        'call_sub_grep',
        'grep',
        'grep -rn "_add(" src',
        'search',
        { pattern: '_add(', path: 'src' },
        'src/checked.rs:4:    a.checked_add(b)\nsrc/money.rs:9:    a.saturating_add(b)',
      ),
      call(
        'call_sub_read',
        'read_file',
        'Read src/money.rs',
        'read',
        { path: 'src/money.rs' },
        'pub fn total(a: i64, b: i64) -> i64 {\n    a.saturating_add(b)\n}\n',
      ),
    ])
    .say('src/checked.rs uses checked_add and returns None; src/money.rs saturates with saturating_add.')
    .endTurn('end_turn');
  return s;
}

/** A fork of the main session taken after prompt 2 (copy rules of jsonl/copy.rs), continued by one prompt. */
export function forkSession(parent: GrokSession): GrokSession {
  const forkMs = parent.t + 60_000;
  const f = new GrokSession({ id: IDS.fork, cwd: CWD, startMs: forkMs, sandboxProfile: 'workspace', eventCounter: 1 });
  const copySeconds = Math.floor(forkMs / 1000);
  // Every copied line is re-serialized: copy-time timestamp, sessionId rewritten, eventId prefix kept.
  f.updates = parent.updates.map((l) => {
    const v = JSON.parse(l) as { timestamp: number; params: { sessionId: string } };
    v.timestamp = copySeconds;
    v.params.sessionId = IDS.fork;
    return `${JSON.stringify(v)}\n`;
  });
  f.chat = structuredClone(parent.chat);
  f.promptIndex = parent.promptIndex;
  for (const [p, c] of parent.files) {
    if (p === 'plan.json' || p === 'system_prompt.txt' || p.startsWith('compaction_checkpoints/')) f.files.set(p, c);
  }
  f.summary = {
    session_kind: 'fork',
    parent_session_id: IDS.main,
    forked_at: iso(forkMs),
    generated_title: 'Fix add() and its tests',
  };
  f.prompt('Try wrapping_add instead and compare.')
    .tools('', [
      call(
        'call_fork_edit',
        'search_replace',
        'Edit src/math.rs',
        'edit',
        { path: 'src/math.rs', old_string: 'a + b', new_string: 'a.wrapping_add(b)' },
        'Applied 1 edit to src/math.rs',
      ),
    ])
    .say('With wrapping_add the overflow test fails differently; saturating is the better fit.')
    .endTurn('end_turn', {
      'src/math.rs': { before: MATH_AFTER, after: MATH_AFTER.replace('a + b', 'a.wrapping_add(b)') },
    });
  return f;
}

type Obj = Record<string, unknown>;

export interface HistoryLine {
  timestamp: string;
  session_id: string;
  prompt: string;
  is_bash?: boolean;
}

/** The human prompts of a session's updates.jsonl, as Grok writes them to the history (a sub-agent's excluded). */
export function promptsOf(updates: string, id: string): HistoryLine[] {
  const out: HistoryLine[] = [];
  for (const l of updates.split('\n').filter(Boolean)) {
    const r = JSON.parse(l) as Obj;
    const u = (r.params as Obj | undefined)?.update as Obj | undefined;
    const text = (u?.content as Obj | undefined)?.text;
    if (r.method !== 'session/update' || u?.sessionUpdate !== 'user_message_chunk' || typeof text !== 'string')
      continue;
    out.push({ timestamp: iso(Number(r.timestamp) * 1000), session_id: id, prompt: text, is_bash: false });
  }
  return out;
}

/** The whole clean sessions root, keyed by path relative to the corpus case directory. */
export function cleanTree(): CleanTree {
  const main = mainSessionUntilFork();
  const fork = forkSession(main);
  finishMainSession(main);
  const sub = subagentSession();
  if (main.marks.subagentSpawned !== SUB_START)
    throw new Error(`the subagent must start when it is spawned (${main.marks.subagentSpawned} vs ${SUB_START})`);
  const files = new Map<string, string | Buffer>();
  for (const s of [main, fork, sub]) {
    for (const [p, c] of s.render()) files.set(`sessions/${GROUP}/${s.id}/${p}`, c);
  }
  files.set(
    `sessions/${GROUP}/prompt_history.jsonl`,
    historyOf(files)
      .map((l) => `${JSON.stringify(l)}\n`)
      .join(''),
  );
  return { files, main, sub };
}

/**
 * The cwd group's prompt history as Grok writes it for the clean tree: each human prompt once, when it is sent, in
 * time order: the top session's, and the fork's own (its log also holds copies of the top session's prompts up to
 * the fork, which were written once, by the top session). The subagent's are never written.
 */
export function historyOf(files: ReadonlyMap<string, string | Buffer>): HistoryLine[] {
  const top = promptsOf(String(files.get(`sessions/${GROUP}/${IDS.main}/updates.jsonl`)), IDS.main);
  // The fork's copies are stamped with the fork's time: known by their text.
  const copied = new Set(top.map((l) => l.prompt));
  const own = promptsOf(String(files.get(`sessions/${GROUP}/${IDS.fork}/updates.jsonl`)), IDS.fork).filter(
    (l) => !copied.has(l.prompt),
  );
  return [...top, ...own].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
}
