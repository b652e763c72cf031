/**
 * The Claude Code corpora: a clean ~/.claude/projects tree (a session with hooks, parallel tool calls answered out
 * of order, a sub-agent with its transcript and metadata, a rewound branch, a compaction, a resolving summary; a
 * second session) and one damaged case per finding it is meant to show. Synthetic, shaped like the real
 * transcripts in ../shared/external/claude.
 */
import { ClaudeTranscript } from './claude-builder.js';
import { deepenContent, TOO_DEEP, type Case, type Expectation, type Files } from './case-kit.js';
import { PLANTED } from './secrets.js';

export const CLAUDE_CWD = '/home/dev/app';
export const PROJECT = `projects/${CLAUDE_CWD.replace(/[^a-zA-Z0-9]/g, '-')}`;
const T0 = Date.UTC(2026, 2, 10, 14, 0, 0);

export const CLAUDE_IDS = {
  main: '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01',
  second: '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c02',
  agent: 'a1b2c3d',
};

const transcript = (seed = 1, startMs = T0, sessionId = CLAUDE_IDS.main): ClaudeTranscript =>
  new ClaudeTranscript({ sessionId, cwd: CLAUDE_CWD, startMs, seed });

/** Session start: the permission mode record, a file-history snapshot and the SessionStart hook. */
function opening(t: ClaudeTranscript, mode = 'default'): void {
  t.permissionMode(mode);
  t.snapshot('snapshot-initial');
  t.hook('SessionStart', 'bd prime', 'c7a1e0b2-5f3d-4c6e-8a9b-0d1e2f3a4b5c');
}

/** Turn 1: read and grep in parallel (answered out of order), an edit, the tests, the answer. */
function turnOne(t: ClaudeTranscript, mode = 'default'): void {
  t.prompt('parse() panics on empty input; fix it.', mode);
  t.respond().text('Let me look at the parser and where it is called.');
  t.thinking('parse() probably unwraps; check the callers too.');
  const read = t.toolUse('toolu_01ReadParserAbcdef012345', 'Read', { file_path: `${CLAUDE_CWD}/src/parser.rs` });
  t.hook(
    'PreToolUse',
    '$' + '{CLAUDE_PLUGIN_ROOT}/hooks/guard.sh', // the literal text Claude Code records
    'toolu_01ReadParserAbcdef012345',
  );
  const grep = t.toolUse('toolu_01GrepUnwrapAbcdef012345', 'Grep', { pattern: 'unwrap', path: 'src' });
  t.result('toolu_01GrepUnwrapAbcdef012345', grep, 'src/parser.rs:3:    s.parse().unwrap()', {
    toolUseResult: { mode: 'content', numFiles: 1, filenames: ['src/parser.rs'] },
  });
  t.result(
    'toolu_01ReadParserAbcdef012345',
    read,
    '     1→pub fn parse(s: &str) -> u32 {\n     2→    // TODO\n     3→    s.parse().unwrap()\n     4→}',
    { toolUseResult: { type: 'text', file: { filePath: `${CLAUDE_CWD}/src/parser.rs`, numLines: 4 } } },
  );
  t.respond().text('unwrap() panics on empty input; returning an Option instead.');
  const edit = t.toolUse('toolu_01EditParserAbcdef012345', 'Edit', {
    file_path: `${CLAUDE_CWD}/src/parser.rs`,
    old_string: 's.parse().unwrap()',
    new_string: 's.parse().ok()',
  });
  t.result('toolu_01EditParserAbcdef012345', edit, `The file ${CLAUDE_CWD}/src/parser.rs has been updated.`);
  t.respond();
  const bash = t.toolUse('toolu_01BashCargoTestAbcdef0123', 'Bash', {
    command: 'cargo test',
    description: 'Run the tests',
  });
  t.result('toolu_01BashCargoTestAbcdef0123', bash, 'test result: ok. 5 passed; 0 failed');
  t.respond().text('parse() returns None on empty input now; all 5 tests pass.', 'end_turn');
  t.turnDuration(14_200);
}

export interface ClaudeTree {
  files: Files;
  main: ClaudeTranscript;
}

export function claudeCleanTree(): ClaudeTree {
  const files: Files = new Map();
  const t = transcript();
  opening(t);
  turnOne(t);
  // Turn 2: a sub-agent reviews the error handling (its transcript under the session's folder).
  t.wait(40_000).prompt('Have a sub-agent review the error handling in src/.', 'default');
  t.respond();
  const task = t.toolUse('toolu_01TaskReviewAbcdef012345', 'Task', {
    description: 'Review error handling',
    prompt: 'Review src/ for panics on bad input.',
    subagent_type: 'general-purpose',
  });
  t.push(
    'progress',
    {
      data: { type: 'agent_progress', agentId: CLAUDE_IDS.agent, prompt: 'Review src/ for panics on bad input.' },
      toolUseID: 'agent_msg_01',
      parentToolUseID: 'toolu_01TaskReviewAbcdef012345',
    },
    { parent: task, step: 20_000 },
  );
  t.result('toolu_01TaskReviewAbcdef012345', task, 'No other panics on bad input in src/.', {
    toolUseResult: {
      status: 'completed',
      agentId: CLAUDE_IDS.agent,
      prompt: 'Review src/ for panics on bad input.',
      totalDurationMs: 20_400,
    },
  });
  t.respond().text('The review found no other panics.', 'end_turn');
  const beforeRewind = t.turnDuration(21_000);
  // Turn 3, then a rewind: the user went back and asked something else (the first branch stays in the file).
  t.wait(30_000).prompt('Rename parse to parse_strict everywhere.', 'default');
  t.respond().text('Renaming parse to parse_strict.');
  t.last = beforeRewind;
  t.wait(20_000).prompt('Instead, add a doc comment to parse.', 'default');
  t.respond();
  const doc = t.toolUse('toolu_01EditDocAbcdef0123456789', 'Edit', {
    file_path: `${CLAUDE_CWD}/src/parser.rs`,
    old_string: 'pub fn parse',
    new_string: '/// None when the input is empty or not a number.\npub fn parse',
  });
  t.result('toolu_01EditDocAbcdef0123456789', doc, `The file ${CLAUDE_CWD}/src/parser.rs has been updated.`);
  t.respond().text('Added the doc comment.', 'end_turn');
  t.turnDuration(6_100);
  // A compaction, then one more turn.
  t.wait(60_000).compact('parse() returns Option<u32>, documented; a review found no other panics.');
  t.prompt('Run clippy.', 'default');
  t.respond();
  const clippy = t.toolUse('toolu_01BashClippyAbcdef0123456', 'Bash', { command: 'cargo clippy', description: 'Lint' });
  t.result('toolu_01BashClippyAbcdef0123456', clippy, 'Finished dev profile, 0 warnings');
  const leaf = t.text('Clippy is clean.', 'end_turn');
  t.turnDuration(3_900);
  t.summary('Make parse() total and documented', leaf);
  files.set(`${PROJECT}/${CLAUDE_IDS.main}.jsonl`, t.render());

  const sub = new ClaudeTranscript({
    sessionId: CLAUDE_IDS.main,
    cwd: CLAUDE_CWD,
    startMs: T0 + 60_000,
    seed: 2,
    agentId: CLAUDE_IDS.agent,
    slug: 'tidy-parsing-review',
  });
  sub.prompt('Review src/ for panics on bad input.');
  sub.respond().text('Searching for unwrap and expect.');
  const g = sub.toolUse('toolu_01SubGrepAbcdef0123456789', 'Grep', { pattern: 'unwrap|expect', path: 'src' });
  sub.result('toolu_01SubGrepAbcdef0123456789', g, 'No matches found');
  sub.respond().text('No other panics on bad input in src/.', 'end_turn');
  files.set(`${PROJECT}/${CLAUDE_IDS.main}/subagents/agent-${CLAUDE_IDS.agent}.jsonl`, sub.render());
  files.set(
    `${PROJECT}/${CLAUDE_IDS.main}/subagents/agent-${CLAUDE_IDS.agent}.meta.json`,
    JSON.stringify({
      agentType: 'general-purpose',
      toolUseId: 'toolu_01TaskReviewAbcdef012345',
      description: 'Review error handling',
    }) + '\n',
  );

  const second = transcript(3, T0 + 86_400_000, CLAUDE_IDS.second);
  opening(second);
  second.prompt('What does this crate do?', 'default');
  second.respond().text('It parses unsigned integers.', 'end_turn');
  second.turnDuration(2_000);
  files.set(`${PROJECT}/${CLAUDE_IDS.second}.jsonl`, second.render());
  return { files, main: t };
}

const mainFile = `${CLAUDE_IDS.main}.jsonl`;
const mainPath = `${PROJECT}/${mainFile}`;

/** One transcript written by `build`, optionally edited line by line. */
function single(
  name: string,
  description: string,
  must: string[],
  build: (t: ClaudeTranscript) => void,
  edit?: (ls: string[]) => Expectation[] | undefined,
  extra: Partial<Case> = {},
): Case {
  const t = transcript();
  build(t);
  const ls = t.render().split('\n').slice(0, -1);
  const at = edit?.(ls) ?? [];
  return { name, description, must, at, ...extra, files: new Map([[mainPath, `${ls.join('\n')}\n`]]) };
}

const lineOf = (ls: string[], re: RegExp): number => {
  const i = ls.findIndex((l) => re.test(l));
  if (i < 0) throw new Error(`no line matches ${re}`);
  return i + 1;
};

export function claudeCases(): Case[] {
  const cases: Case[] = [];
  cases.push(
    single(
      'jsonl-too-deep',
      `The last record's message content wrapped in ${TOO_DEEP} nested objects: past the 512 levels the reader ` +
        'accepts, the line is not parsed (Claude Code, on JSON.parse, would read it), so the turn_duration record ' +
        'after it names a parent this audit does not have.',
      ['JSONL_TOO_DEEP'],
      (t) => {
        opening(t);
        turnOne(t);
      },
      (ls) => {
        const k = ls.findLastIndex((l) => l.includes('"content":'));
        ls[k] = deepenContent(ls[k]!);
        return [{ code: 'JSONL_TOO_DEEP', file: mainFile, line: k + 1 }];
      },
      { allow: ['CLAUDE_PARENT_MISSING'] },
    ),
  );
  // Done when: a Claude session that switches to bypassPermissions.
  cases.push(
    single(
      'sandbox-bypass',
      'The session started in the default permission mode; before the second prompt the user switched to ' +
        'bypassPermissions (a permission-mode record, then prompts sent under it).',
      ['SANDBOX_WIDENED'],
      (t) => {
        opening(t);
        turnOne(t);
        t.permissionMode('bypassPermissions');
        t.wait(30_000).prompt('Now delete the old fixtures and regenerate them.', 'bypassPermissions');
        t.respond();
        const rm = t.toolUse('toolu_01BashRmFixturesAbcdef012', 'Bash', {
          command: 'rm -rf tests/fixtures && cargo run --bin gen-fixtures',
          description: 'Regenerate fixtures',
        });
        t.result('toolu_01BashRmFixturesAbcdef012', rm, 'wrote 12 fixtures');
        t.respond().text('Fixtures regenerated.', 'end_turn');
      },
      (ls) => [
        {
          code: 'SANDBOX_WIDENED',
          file: mainFile,
          line: lineOf(ls, /"type":"permission-mode","permissionMode":"bypassPermissions"/),
          severity: 'error',
        },
      ],
      { onlyAt: ['SANDBOX_WIDENED'] },
    ),
  );
  cases.push(
    single(
      'permission-mode-accept-edits',
      'The user switched from the default mode to acceptEdits (a permission-mode record, as Claude Code 2.1.119 ' +
        "writes it) and sent the next prompt under it: wider, but the user's own recorded choice (a warning).",
      ['SANDBOX_WIDENED'],
      (t) => {
        opening(t);
        turnOne(t);
        t.permissionMode('acceptEdits');
        t.wait(20_000).prompt('Apply the fix to parser.rs.', 'acceptEdits');
        t.respond().text('Applied.', 'end_turn');
      },
      (ls) => [
        {
          code: 'SANDBOX_WIDENED',
          file: mainFile,
          line: lineOf(ls, /"type":"permission-mode","permissionMode":"acceptEdits"/),
          severity: 'warning',
        },
      ],
      { onlyAt: ['SANDBOX_WIDENED'], maxSeverity: 'warning' },
    ),
  );
  cases.push(
    single(
      'sandbox-disabled-call',
      'A Bash call asks to run outside the sandbox (dangerouslyDisableSandbox: true) to reach the network.',
      ['SANDBOX_WIDENED'],
      (t) => {
        opening(t);
        t.prompt('Install the pinned toolchain.', 'default');
        t.respond();
        const b = t.toolUse('toolu_01BashInstallAbcdef01234567', 'Bash', {
          command: 'curl -sSf https://sh.rustup.rs | sh -s -- -y',
          description: 'Install rustup',
          dangerouslyDisableSandbox: true,
        });
        t.result('toolu_01BashInstallAbcdef01234567', b, 'Rust is installed now.');
        t.respond().text('Installed.', 'end_turn');
      },
      (ls) => [
        { code: 'SANDBOX_WIDENED', file: mainFile, line: lineOf(ls, /dangerouslyDisableSandbox/), severity: 'error' },
      ],
      { onlyAt: ['SANDBOX_WIDENED'] },
    ),
  );
  cases.push(
    single(
      'permission-mode-changed',
      'The user switched to plan mode for one prompt and back: changes that never grant more than the session ' +
        'started with (notes).',
      ['SANDBOX_CHANGED'],
      (t) => {
        opening(t);
        turnOne(t);
        t.wait(10_000).prompt('Plan the next refactor, do not edit yet.', 'plan');
        t.respond().text('Plan: 1. split parser.rs 2. add fuzz tests.', 'end_turn');
        t.wait(10_000).prompt('Go ahead with step 1.', 'default');
        t.respond().text('Split done.', 'end_turn');
      },
      (ls) => [
        { code: 'SANDBOX_CHANGED', file: mainFile, line: lineOf(ls, /"permissionMode":"plan"/), severity: 'note' },
      ],
      { maxSeverity: 'note' },
    ),
  );
  cases.push(
    single(
      'parent-missing',
      "A line was lost from the middle of the transcript (a thinking block of the first response): the next line's " +
        'parentUuid names nothing.',
      ['CLAUDE_PARENT_MISSING'],
      (t) => {
        opening(t);
        turnOne(t);
      },
      (ls) => {
        const i = lineOf(ls, /"type":"thinking"/) - 1;
        ls.splice(i, 1);
        return [{ code: 'CLAUDE_PARENT_MISSING', file: mainFile, line: i + 1, severity: 'error' }];
      },
      { onlyAt: ['CLAUDE_PARENT_MISSING'] },
    ),
  );
  cases.push(
    single(
      'multiple-roots',
      'Two chains in one transcript with no compact boundary: the second prompt starts a new root (lines from ' +
        'another transcript appended, or a writer that lost the last uuid).',
      ['CLAUDE_MULTIPLE_ROOTS'],
      (t) => {
        opening(t);
        turnOne(t);
        t.last = null;
        t.wait(30_000).prompt('Continue with the fuzz tests.', 'default');
        t.respond().text('Added a fuzz target.', 'end_turn');
      },
      (ls) => [{ code: 'CLAUDE_MULTIPLE_ROOTS', file: mainFile, line: lineOf(ls, /Continue with the fuzz tests/) }],
    ),
  );
  cases.push(
    single(
      'summary-unresolved',
      "The turn's last record was cut in half (a torn write the reader cannot parse) and the summary after it " +
        'names that record as its leaf: the leaf is in no line this session still has, and the session lost a ' +
        'line it may have been on.',
      ['CLAUDE_SUMMARY_LEAF_UNRESOLVED', 'JSONL_BAD_LINE'],
      (t) => {
        opening(t);
        turnOne(t);
      },
      (ls) => {
        const last = ls.length - 1;
        const leaf = (JSON.parse(ls[last]!) as { uuid: string }).uuid;
        ls[last] = ls[last]!.slice(0, Math.floor(ls[last]!.length / 2));
        ls.push(JSON.stringify({ type: 'summary', summary: 'Fix parse() on empty input', leafUuid: leaf }));
        return [
          { code: 'JSONL_BAD_LINE', file: mainFile, line: last + 1 },
          { code: 'CLAUDE_SUMMARY_LEAF_UNRESOLVED', file: mainFile, line: ls.length, severity: 'note' },
        ];
      },
    ),
  );
  cases.push(
    single(
      'interrupted-by-user',
      'The user stopped the second turn while the model worked (Esc): Claude Code writes "[Request interrupted by ' +
        'user]" as a user message, which ends the turn and which the model sees on the next request, as in real ' +
        'transcripts. A healthy session: no finding; the timeline shows the message as a notice that ends the ' +
        'turn, and inspect says the last turn was cancelled.',
      [],
      (t) => {
        opening(t);
        turnOne(t);
        t.prompt('Now make parse() accept leading spaces.');
        t.respond().text('Let me look at how the input is trimmed.');
        t.interrupt();
      },
    ),
  );
  cases.push(
    single(
      'summary-other-sessions',
      'Summaries of the other sessions of the project written into this transcript after its first prompt, as ' +
        "Claude Code writes them (a real transcript holds 16): their leaves are in the other sessions' files. A " +
        'healthy session: no finding.',
      [],
      (t) => {
        opening(t);
        turnOne(t);
      },
      (ls) => {
        const first = ls.findIndex((l) => l.includes('"type":"user"'));
        const summaries = [
          'Analyzing the parser panic on empty input',
          'Parser panic: empty input handling',
          'Fix parse() unwrap on empty input',
        ].map((summary, i) =>
          JSON.stringify({ type: 'summary', summary, leafUuid: `7c3e9a10-0000-4000-8000-7c3e9a1000${i}1` }),
        );
        ls.splice(first + 1, 0, ...summaries);
        return [];
      },
    ),
  );
  {
    const { files } = claudeCleanTree();
    for (const p of [...files.keys()]) if (!p.startsWith(`${PROJECT}/${CLAUDE_IDS.main}/`)) files.delete(p);
    cases.push({
      name: 'transcript-missing',
      description:
        "The session's folder holds a sub-agent transcript and its metadata, but the session's own transcript is gone.",
      must: ['CLAUDE_TRANSCRIPT_MISSING'],
      at: [{ code: 'CLAUDE_TRANSCRIPT_MISSING', file: mainFile }],
      files,
    });
  }
  {
    // Shaped like the real folder of marot/spotter (two sub-agent files, one of them the compaction agent Claude
    // Code runs to summarise the conversation): byte order puts the compaction agent second, though it ran first.
    const { files } = claudeCleanTree();
    for (const p of [...files.keys()]) if (!p.startsWith(`${PROJECT}/${CLAUDE_IDS.main}/`)) files.delete(p);
    const compact = new ClaudeTranscript({
      sessionId: CLAUDE_IDS.main,
      cwd: CLAUDE_CWD,
      startMs: T0 + 30_000,
      seed: 3,
      agentId: 'acompact-3f9e2a',
      slug: 'tidy-parsing-review',
    });
    compact.meta('<system-reminder>PostToolUse:Edit hook additional context: cargo check passed</system-reminder>');
    compact.prompt(
      'Your task is to create a detailed summary of the conversation so far, paying close attention to the ' +
        "user's explicit requests and your previous actions.",
    );
    compact.respond().text('<analysis>The user asked to make parse() total; it now returns Option<u32>.</analysis>');
    files.set(`${PROJECT}/${CLAUDE_IDS.main}/subagents/agent-acompact-3f9e2a.jsonl`, compact.render());
    cases.push({
      name: 'subagents-only',
      description:
        "The session's folder holds two sub-agent transcripts, one of them the compaction agent that wrote its " +
        "summary, and the session's own transcript is gone: audited as one session, with the sub-agents' cwd and " +
        "earliest time; their prompts are not the session's turns, so nothing was interrupted.",
      must: ['CLAUDE_TRANSCRIPT_MISSING'],
      onlyAt: ['CLAUDE_TRANSCRIPT_MISSING'],
      at: [{ code: 'CLAUDE_TRANSCRIPT_MISSING', file: mainFile }],
      maxSeverity: 'warning',
      files,
    });
  }
  cases.push({
    name: 'tool-results-alone',
    description:
      "The session's folder copied alone holding only tool-results/ (a large output Claude Code moved out of the " +
      'transcript): audited as the session, its transcript named missing.',
    must: ['CLAUDE_TRANSCRIPT_MISSING'],
    onlyAt: ['CLAUDE_TRANSCRIPT_MISSING'],
    at: [{ code: 'CLAUDE_TRANSCRIPT_MISSING', file: mainFile }],
    maxSeverity: 'warning',
    files: new Map([
      [
        `${PROJECT}/${CLAUDE_IDS.main}/tool-results/toolu_01BashTestsAbcdef0123456.txt`,
        'test result: ok. 412 passed\n',
      ],
    ]),
  });
  cases.push(
    single(
      'tool-displaced-result',
      'A tool result was written after the next prompt (lines spliced out of order): the Messages API needs it ' +
        'right after the response that made the call.',
      ['TOOL_DISPLACED_RESULT'],
      (t) => {
        opening(t);
        t.prompt('Run the benchmarks.', 'default');
        t.respond();
        const b = t.toolUse('toolu_01BashBenchAbcdef012345678', 'Bash', {
          command: 'cargo bench',
          description: 'Benchmarks',
        });
        t.wait(5_000).prompt('And print the summary.', 'default');
        t.result('toolu_01BashBenchAbcdef012345678', b, 'parse: 12 ns/iter');
        t.respond().text('parse takes 12 ns.', 'end_turn');
      },
      (ls) => [{ code: 'TOOL_DISPLACED_RESULT', file: mainFile, line: lineOf(ls, /"tool_result"/) }],
    ),
  );
  cases.push(
    single(
      'schema-duplicate-key',
      'A tool_use whose input names the command twice: JSON.parse (Claude Code, this audit) keeps the last, ' +
        'another reader may show the first. A warning, in the object that repeats it.',
      ['SCHEMA_DUPLICATE_KEY'],
      (t) => {
        opening(t);
        t.prompt('Format the code.', 'default');
        t.respond();
        const fmt = t.toolUse('toolu_01BashFmtAbcdef0123456789a', 'Bash', { command: 'cargo fmt', description: 'Fmt' });
        t.result('toolu_01BashFmtAbcdef0123456789a', fmt, '');
        t.respond().text('Formatted.', 'end_turn');
      },
      (ls) => {
        const k = lineOf(ls, /"cargo fmt"/);
        ls[k - 1] = ls[k - 1]!.replace('"command":"cargo fmt"', '"command":"cargo fmt","command":"cargo fmt --all"');
        return [{ code: 'SCHEMA_DUPLICATE_KEY', file: mainFile, line: k, severity: 'warning' }];
      },
      { onlyAt: ['SCHEMA_DUPLICATE_KEY'], maxSeverity: 'warning' },
    ),
  );
  cases.push(
    single(
      'tool-unanswered-call',
      'A call has no result although the model went on in the same turn (the result line was lost).',
      ['TOOL_UNANSWERED_CALL'],
      (t) => {
        opening(t);
        t.prompt('Format the code.', 'default');
        t.respond();
        t.toolUse('toolu_01BashFmtAbcdef0123456789a', 'Bash', { command: 'cargo fmt', description: 'Format' });
        t.respond().text('Formatted.', 'end_turn');
      },
      (ls) => [{ code: 'TOOL_UNANSWERED_CALL', file: mainFile, line: lineOf(ls, /"tool_use"/) }],
    ),
  );
  cases.push(
    single(
      'secret-in-session',
      'The user pastes an AWS access key and a JWT into a prompt, and a tool prints an Authorization header: one ' +
        'SECRET_IN_SESSION per occurrence in the transcript, the same check on every agent; values never shown.',
      ['SECRET_IN_SESSION'],
      (t) => {
        opening(t);
        t.prompt(`The CI fails; our key is AKIAZ7Q3XK5LMN2PQR4T and the session token ${PLANTED.jwt}`, 'default');
        t.respond();
        const curl = t.toolUse('toolu_01BashCurlAbcdef012345678', 'Bash', {
          command: 'curl -v https://ci.example.com/api/status',
          description: 'Check the CI status',
        });
        t.result('toolu_01BashCurlAbcdef012345678', curl, `> GET /api/status\n> ${PLANTED['auth-header']}\n< 200`);
        t.respond().text('The CI is up; rotate the key you pasted.', 'end_turn');
      },
      (ls) => {
        const prompt = lineOf(ls, /AKIAZ7Q3XK5LMN2PQR4T/);
        const result = lineOf(ls, /"tool_result"/);
        return [
          { code: 'SECRET_IN_SESSION', file: mainFile, line: prompt, severity: 'warning' },
          { code: 'SECRET_IN_SESSION', file: mainFile, line: result, severity: 'warning' },
        ];
      },
    ),
  );
  return cases;
}
