/**
 * The Codex CLI corpora: a clean ~/.codex tree (a multi-turn session with every kind of call, a compaction and a
 * rollback; a fork of it with the parent's history copied at its head; a sub-agent; a paginated session; an
 * archived one) and one damaged case per finding it is meant to show. Synthetic, shaped like the real rollouts.
 */
import {
  CodexRollout,
  WORKSPACE,
  dayDir,
  rolloutName,
  zstdStored,
  type CallSpec,
  type Json,
  type Policy,
} from './codex-builder.js';
import { deepenContent, TOO_DEEP, type Case, type Expectation, type Files } from './case-kit.js';

export const CODEX_CWD = '/home/dev/app';
const T0 = Date.UTC(2026, 2, 2, 9, 0, 4);

export const CODEX_IDS = {
  main: '019cb100-0000-7000-8000-00000000c001',
  fork: '019cb100-0000-7000-8000-00000000c002',
  sub: '019cb100-0000-7000-8000-00000000c003',
  paged: '019cb100-0000-7000-8000-00000000c004',
  archived: '019cb100-0000-7000-8000-00000000c005',
};

const READ: CallSpec = {
  id: 'call_read_lib',
  name: 'exec_command',
  args: { cmd: 'sed -n 1,80p src/lib.rs', workdir: CODEX_CWD },
  output:
    'Chunk ID: 1f2e\nWall time: 0.01s\nProcess exited with code 0\nOutput:\npub fn parse(s: &str) -> u32 { ' +
    's.parse().unwrap() }\n',
};
const GREP: CallSpec = {
  id: 'call_grep_unwrap',
  name: 'exec_command',
  args: { cmd: 'rg -n unwrap src', workdir: CODEX_CWD },
  output: 'Process exited with code 0\nOutput:\nsrc/lib.rs:1:pub fn parse(s: &str) -> u32 { s.parse().unwrap() }\n',
};
const PATCH: CallSpec = {
  id: 'call_patch_lib',
  kind: 'custom',
  name: 'apply_patch',
  args:
    '*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-pub fn parse(s: &str) -> u32 { s.parse().unwrap() ' +
    '}\n+pub fn parse(s: &str) -> Option<u32> { s.parse().ok() }\n*** End Patch\n',
  output: 'Success. Updated the following files:\nM src/lib.rs\n',
};
const TEST: CallSpec = {
  id: 'call_cargo_test',
  kind: 'local_shell',
  name: 'local_shell',
  args: ['bash', '-lc', 'cargo test'],
  output: 'test result: ok. 4 passed; 0 failed',
};

/** The main session: three turns (parallel calls, a patch, a shell call), a compaction, a rolled-back turn. */
export function mainRollout(policy2?: Policy): CodexRollout {
  const r = new CodexRollout({ id: CODEX_IDS.main, cwd: CODEX_CWD, startMs: T0 }).start();
  r.prompt('parse() panics on bad input; make it return an Option.')
    .think('Looking at parse() and its callers first.')
    .say('Reading src/lib.rs and looking for other unwraps.')
    .calls([READ, GREP])
    .context()
    .think('Replace unwrap with ok() and update the signature.')
    .say('Patching parse() to return Option<u32>.')
    .calls([PATCH])
    .context()
    .say('Running the tests.')
    .calls([TEST])
    .complete('parse() now returns None on bad input; all 4 tests pass.');
  r.wait(60_000)
    .prompt('Also add a doc comment.', policy2)
    .say('Adding the doc comment.')
    .calls([
      {
        ...PATCH,
        id: 'call_patch_doc',
        args:
          '*** Begin Patch\n*** Update File: src/lib.rs\n@@\n+/// Parses a u32; None when the input is not a ' +
          'number.\n pub fn parse(s: &str) -> Option<u32> { s.parse().ok() }\n*** End Patch\n',
      },
    ])
    .complete('Added the doc comment.');
  r.wait(30_000).compacted('Summary: parse() returns Option<u32>, documented; tests pass.');
  r.wait(30_000)
    .prompt('Rename parse to parse_u32.')
    .say('Renaming.')
    .calls([
      {
        id: 'call_sed_rename',
        name: 'exec_command',
        args: { cmd: "sed -i 's/parse(/parse_u32(/' src/lib.rs" },
        output: 'Process exited with code 0\n',
      },
    ])
    .complete('Renamed.');
  r.wait(10_000).rolledBack(1);
  return r;
}

function place(files: Files, startMs: number, r: CodexRollout, root = 'sessions'): string {
  const path = `${root}/${root === 'sessions' ? `${dayDir(startMs)}/` : ''}${rolloutName(startMs, r.opts.id)}`;
  files.set(path, r.render());
  return path;
}

export function codexCleanTree(): Files {
  const files: Files = new Map();
  const main = mainRollout();
  place(files, T0, main);
  // A fork: its own session_meta, then the parent's first turn copied (re-stamped), then its own turn.
  const forkStart = T0 + 3_600_000;
  const fork = new CodexRollout({
    id: CODEX_IDS.fork,
    cwd: CODEX_CWD,
    startMs: forkStart,
    forkedFrom: CODEX_IDS.main,
  }).start();
  const firstTurnEnd = main.lines.findIndex((l) => (l.payload as { type?: string }).type === 'task_complete');
  fork.copy(main.lines.slice(0, firstTurnEnd + 1));
  fork
    .wait(5_000)
    .prompt('Try a Result instead of an Option.')
    .say('Switching to Result.')
    .calls([{ ...PATCH, id: 'call_patch_result' }])
    .complete('parse() now returns Result<u32, ParseIntError>.');
  place(files, forkStart, fork);
  // A sub-agent the main session spawned (it names its parent itself).
  const subStart = T0 + 86_400_000;
  const sub = new CodexRollout({
    id: CODEX_IDS.sub,
    cwd: CODEX_CWD,
    startMs: subStart,
    parentThread: CODEX_IDS.main,
  }).start();
  sub.prompt('Review src/lib.rs for panics.').calls([GREP]).complete('No unwrap left in src/.');
  place(files, subStart, sub);
  // A paginated rollout: every line numbered.
  const pagedStart = T0 + 2 * 86_400_000;
  const paged = new CodexRollout({ id: CODEX_IDS.paged, cwd: CODEX_CWD, startMs: pagedStart, paginated: true }).start();
  paged.prompt('Run the tests.').calls([TEST]).complete('4 passed.');
  place(files, pagedStart, paged);
  // An archived session.
  const archStart = T0 - 10 * 86_400_000;
  const arch = new CodexRollout({ id: CODEX_IDS.archived, cwd: CODEX_CWD, startMs: archStart }).start();
  arch
    .prompt('What does this crate do?')
    .say('It parses numbers.', 'final')
    .line('event_msg', { type: 'task_complete', last_agent_message: 'It parses numbers.' });
  place(files, archStart, arch, 'archived_sessions');
  return files;
}

const lines = (s: string): string[] => s.split('\n').slice(0, -1);
const join = (ls: string[]): string => `${ls.join('\n')}\n`;

/** One session of the clean tree alone, edited. */
function single(
  name: string,
  description: string,
  must: string[],
  r: CodexRollout,
  startMs: number,
  edit: (ls: string[], path: string) => Expectation[] | undefined,
  extra: Partial<Case> = {},
): Case {
  const files: Files = new Map();
  const path = place(files, startMs, r);
  const ls = lines(files.get(path) as string);
  const at = edit(ls, path) ?? [];
  files.set(path, join(ls));
  return { name, description, must, at, ...extra, files };
}

const lineOf = (ls: string[], re: RegExp, from = 0): number => {
  const i = ls.findIndex((l, k) => k >= from && re.test(l));
  if (i < 0) throw new Error(`no line matches ${re}`);
  return i + 1;
};

export function codexCases(): Case[] {
  const cases: Case[] = [];
  const file = (startMs: number, id: string): string => `${rolloutName(startMs, id)}`;
  const mainFile = file(T0, CODEX_IDS.main);

  // Done when: a Codex session whose sandbox policy widens mid-session.
  {
    const widened: Policy = { approval: 'never', sandbox: { type: 'danger-full-access' } };
    const r = mainRollout(widened);
    cases.push(
      single(
        'sandbox-widened',
        'Turn 2 of the session runs with approval "never" and sandbox "danger-full-access" (the user restarted it ' +
          'with --dangerously-bypass-approvals-and-sandbox); it started under on-request / workspace-write.',
        ['SANDBOX_WIDENED'],
        r,
        T0,
        (ls) => {
          const at = lineOf(ls, /"danger-full-access"/);
          return [{ code: 'SANDBOX_WIDENED', file: mainFile, line: at, severity: 'error' }];
        },
        { onlyAt: ['SANDBOX_WIDENED'], allow: ['SANDBOX_CHANGED'] },
      ),
    );
  }
  {
    // The user turned network access on for turn 2 (/approvals): wider, the user's own choice, not unrestricted.
    const base = WORKSPACE(CODEX_CWD).sandbox as Record<string, Json>;
    const networked: Policy = { approval: 'on-request', sandbox: { ...base, network_access: true } };
    const r = mainRollout(networked);
    cases.push(
      single(
        'sandbox-user-widened',
        'The user turned network access on for turn 2 (a turn_context with workspace-write and network): wider ' +
          "than the session started with, but the user's own recorded choice and not unrestricted (a warning).",
        ['SANDBOX_WIDENED'],
        r,
        T0,
        (ls) => [
          { code: 'SANDBOX_WIDENED', file: mainFile, line: lineOf(ls, /"network_access":true/), severity: 'warning' },
        ],
        { maxSeverity: 'warning', allow: ['SANDBOX_CHANGED'] },
      ),
    );
  }
  {
    const narrowed: Policy = { approval: 'untrusted', sandbox: { type: 'read-only' } };
    const r = mainRollout(narrowed);
    cases.push(
      single(
        'sandbox-changed',
        'Turn 2 runs read-only with approval "untrusted": narrower than the session started with (a note, like the ' +
          'return to workspace-write in turn 3).',
        ['SANDBOX_CHANGED'],
        r,
        T0,
        (ls) => [{ code: 'SANDBOX_CHANGED', file: mainFile, line: lineOf(ls, /"read-only"/), severity: 'note' }],
        { maxSeverity: 'note' },
      ),
    );
  }
  cases.push(
    single(
      'first-line-not-meta',
      'The rollout lost its first line (the session_meta): it starts with a developer message.',
      ['CODEX_FIRST_LINE_NOT_META'],
      mainRollout(),
      T0,
      (ls) => {
        ls.shift();
        return [{ code: 'CODEX_FIRST_LINE_NOT_META', file: mainFile, line: 1 }];
      },
    ),
  );
  {
    const start = T0 + 2 * 86_400_000;
    const paged = (): CodexRollout =>
      new CodexRollout({ id: CODEX_IDS.paged, cwd: CODEX_CWD, startMs: start, paginated: true })
        .start()
        .prompt('Run the tests.')
        .calls([TEST])
        .complete('4 passed.');
    const f = file(start, CODEX_IDS.paged);
    cases.push(
      single(
        'ordinal-gap',
        'A paginated rollout lost two lines from the middle (ordinals 9 and 10: a shell call and the token count ' +
          "after it), so the call's output answers nothing.",
        ['CODEX_ORDINAL_GAP'],
        paged(),
        start,
        (ls) => {
          ls.splice(9, 2);
          return [{ code: 'CODEX_ORDINAL_GAP', file: f, line: 10 }];
        },
        { allow: ['TOOL_ORPHAN_RESULT'] },
      ),
    );
    cases.push(
      single(
        'ordinal-repeat',
        'A paginated rollout holds a retried append: the token count written twice with the same ordinal (and a ' +
          'later clock).',
        ['CODEX_ORDINAL_REPEAT'],
        paged(),
        start,
        (ls) => {
          const v = JSON.parse(ls[8]!) as { timestamp: string };
          v.timestamp = new Date(Date.parse(v.timestamp) + 15).toISOString();
          ls.splice(9, 0, JSON.stringify(v));
          return [{ code: 'CODEX_ORDINAL_REPEAT', file: f, line: 10 }];
        },
      ),
    );
    cases.push(
      single(
        'ordinal-missing',
        'The last line of a paginated rollout has no ordinal (written by a build that does not paginate): Codex ' +
          'refuses to resume it.',
        ['CODEX_ORDINAL_MISSING'],
        paged(),
        start,
        (ls) => {
          const v = JSON.parse(ls.at(-1)!) as { ordinal?: number };
          delete v.ordinal;
          ls[ls.length - 1] = JSON.stringify(v);
          return [{ code: 'CODEX_ORDINAL_MISSING', file: f, line: ls.length }];
        },
      ),
    );
  }
  {
    const files: Files = new Map();
    const path = place(files, T0, mainRollout());
    files.set(`${path}.zst`, zstdStored(Buffer.from(files.get(path) as string)));
    cases.push({
      name: 'plain-and-compressed',
      description:
        'The rollout exists both plain and as a zstd-compressed copy next to it (a compression step interrupted).',
      must: ['CODEX_PLAIN_AND_COMPRESSED'],
      at: [{ code: 'CODEX_PLAIN_AND_COMPRESSED', file: `${mainFile}.zst` }],
      files,
    });
  }
  {
    const files: Files = new Map();
    const path = place(files, T0, mainRollout());
    files.set(`${path}.zst`, zstdStored(Buffer.from(files.get(path) as string)));
    files.delete(path);
    cases.push({
      name: 'compressed-only',
      description:
        'The session exists only as a zstd-compressed rollout, which this tool cannot decompress: inventoried and ' +
        'hashed, reported as not read.',
      must: ['CODEX_COMPRESSED_NOT_READ'],
      maxSeverity: 'note',
      at: [{ code: 'CODEX_COMPRESSED_NOT_READ', file: `${mainFile}.zst` }],
      files,
    });
  }
  {
    const r = new CodexRollout({ id: CODEX_IDS.main, cwd: CODEX_CWD, startMs: T0 }).start();
    r.prompt('Run the slow integration tests.')
      .say('Running them.')
      .calls([{ id: 'call_slow_tests', name: 'exec_command', args: { cmd: 'cargo test -- --ignored' }, output: '' }], {
        outputs: false,
      });
    r.wait(20_000).aborted('interrupted').output('call_slow_tests', 'aborted');
    r.wait(5_000)
      .prompt('Never mind; run only the unit tests.')
      .calls([
        { ...READ, id: 'call_unit_tests', args: { cmd: 'cargo test --lib' }, output: 'test result: ok. 4 passed' },
      ])
      .complete('Unit tests pass.');
    cases.push(
      single(
        'tool-aborted',
        'The user interrupted a turn while a call ran; Codex answered the call with its "aborted" placeholder. The ' +
          'tool may have run: a note, not an error.',
        ['TOOL_SYNTHETIC_RESULT'],
        r,
        T0,
        (ls) => [
          { code: 'TOOL_SYNTHETIC_RESULT', file: mainFile, line: lineOf(ls, /"output":"aborted"/), severity: 'note' },
        ],
        { maxSeverity: 'note' },
      ),
    );
  }
  cases.push(
    single(
      'tool-orphan-output',
      'The line holding a function_call was lost; its output remains and answers nothing.',
      ['TOOL_ORPHAN_RESULT'],
      mainRollout(),
      T0,
      (ls) => {
        const call = lineOf(ls, /"call_id":"call_grep_unwrap"/);
        ls.splice(call - 1, 1);
        return [
          {
            code: 'TOOL_ORPHAN_RESULT',
            file: mainFile,
            line: lineOf(ls, /"function_call_output","call_id":"call_grep_unwrap"/),
          },
        ];
      },
    ),
  );
  cases.push(
    single(
      'jsonl-too-deep',
      `The last message's content wrapped in ${TOO_DEEP} nested objects: past the 512 levels the reader accepts ` +
        "(and serde_json's 128, so Codex skips it too), the line is not parsed.",
      ['JSONL_TOO_DEEP'],
      (() => {
        const r = new CodexRollout({ id: CODEX_IDS.main, cwd: CODEX_CWD, startMs: T0 }).start();
        return r.prompt('Run the tests.').say('Running them.');
      })(),
      T0,
      (ls) => {
        const k = ls.findLastIndex((l) => l.includes('"content":'));
        ls[k] = deepenContent(ls[k]!);
        return [{ code: 'JSONL_TOO_DEEP', file: mainFile, line: k + 1 }];
      },
    ),
  );
  cases.push(
    single(
      'jsonl-torn-tail',
      'Codex was killed while appending: the last line (a function_call_output) is cut short, so the call it ' +
        'answers is in flight.',
      ['JSONL_TORN_TAIL', 'TOOL_INTERRUPTED_CALL'],
      (() => {
        const r = new CodexRollout({ id: CODEX_IDS.main, cwd: CODEX_CWD, startMs: T0 }).start();
        return r.prompt('Run the tests.').say('Running them.').calls([TEST]);
      })(),
      T0,
      (ls) => {
        ls[ls.length - 1] = ls.at(-1)!.slice(0, 60);
        return [{ code: 'JSONL_TORN_TAIL', file: mainFile, line: ls.length }];
      },
    ),
  );
  // Files end with the torn line, without a final newline.
  const torn = cases.at(-1)!;
  for (const [p, c] of torn.files) if (typeof c === 'string') torn.files.set(p, c.slice(0, -1));
  {
    const files: Files = new Map();
    const start = T0 + 3_600_000;
    const fork = new CodexRollout({
      id: CODEX_IDS.fork,
      cwd: CODEX_CWD,
      startMs: start,
      forkedFrom: '019cb0ff-0000-7000-8000-0000000000ff',
    }).start();
    fork
      .prompt('Continue from the parent session.')
      .say('Continuing.', 'final')
      .line('event_msg', { type: 'task_complete', last_agent_message: 'Continuing.' });
    const path = place(files, start, fork);
    cases.push({
      name: 'lineage-parent-missing',
      description:
        'A fork whose parent rollout (forked_from_id) is not under the audited tree (archived elsewhere, or deleted).',
      must: ['LINEAGE_PARENT_MISSING'],
      at: [{ code: 'LINEAGE_PARENT_MISSING', file: path.split('/').pop()!, line: 1, severity: 'warning' }],
      files,
    });
  }
  return cases;
}

export { WORKSPACE };
