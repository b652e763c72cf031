/**
 * The Gemini CLI corpora: a clean `~/.gemini` tree (a current .jsonl session with tool calls, in `tmp/<slug>/chats/`
 * beside `projects.json` and `.project_root`; a legacy .json session in the `tmp/<sha256>/chats/` placement of CLI
 * 0.2x) and one damaged case per GEMINI_* finding. Synthetic, shaped like the real files in ../shared/external/gemini.
 */
import { GeminiSession, geminiFileName, iso, legacyJson, projectHash, type Json } from './gemini-builder.js';
import type { Case, Expectation, Files } from './case-kit.js';

export const GEMINI_CWD = '/home/dev/app';
/** What a case directory holds, for the corpora README. */
export const GEMINI_LAYOUT =
  'a `~/.gemini` tree (`tmp/<project>/chats/session-<time>-<id8>.jsonl`, `projects.json`; in the clean tree also a ' +
  'legacy `.json` under `tmp/<sha256>/chats/`)';
/** The corpus's directory, agent name and layout, as the corpora generator takes them. */
export const GEMINI_CORPUS = ['gemini', 'Gemini CLI', GEMINI_LAYOUT] as const;
const T0 = Date.UTC(2026, 11, 1, 9, 0, 0);
const CHATS = 'tmp/app/chats';

export const GEMINI_IDS = {
  main: '3f2a9c1e-7b4d-4e5f-9a8b-1c2d3e4f5a01',
  legacy: '3f2a9c1e-7b4d-4e5f-9a8b-1c2d3e4f5a02',
  agent: '6f1c0e2a-9b7d-4c55-8e2f-0d3b9a71c4aa',
};
const FILE = geminiFileName(T0, GEMINI_IDS.main);
const MAIN = `${CHATS}/${FILE}`;

const session = (id = GEMINI_IDS.main, startMs = T0): GeminiSession =>
  new GeminiSession({ id, cwd: GEMINI_CWD, startMs, seed: 7 });

/** A turn: read, a shell command, an edit, the answer. */
function turnOne(s: GeminiSession): void {
  s.user('parse() panics on empty input; fix it.');
  s.gemini('', {
    thought: 'parse() probably unwraps; read it first.',
    calls: [{ name: 'read_file', args: { file_path: 'src/parser.rs' }, output: 'pub fn parse(s: &str) -> u32 {}' }],
  });
  s.gemini('', {
    calls: [
      {
        name: 'run_shell_command',
        args: { command: 'cargo test', description: 'Run the tests' },
        output: 'Command: cargo test\nDirectory: (root)\nOutput: test result: ok. 5 passed\nExit Code: 0',
        displayName: 'Shell',
      },
    ],
  });
  s.gemini('', {
    calls: [
      {
        name: 'replace',
        args: { file_path: 'src/parser.rs', old_string: 's.parse().unwrap()', new_string: 's.parse().ok()' },
        output: 'Successfully modified file: src/parser.rs (1 replacements).',
        displayName: 'Edit',
      },
    ],
  });
  s.gemini('parse() returns None on empty input now.');
}

function standard(s: GeminiSession): void {
  s.open();
  turnOne(s);
}

function mainSession(): GeminiSession {
  const s = session();
  standard(s);
  s.wait(60_000).user('Add a doc comment to parse.');
  s.gemini('', {
    calls: [
      {
        name: 'write_file',
        args: { file_path: 'docs/parse.md', content: 'parse() returns None on bad input.\n' },
        output: 'Successfully created and wrote to new file: docs/parse.md.',
        displayName: 'WriteFile',
      },
    ],
  });
  s.gemini('Documented in docs/parse.md.');
  s.wait(30_000).user('Where else is parse() called?');
  s.gemini('', {
    calls: [
      {
        name: 'codebase_investigator',
        args: { objective: 'Find the callers of parse().' },
        output: 'Subagent finished: parse() is called in src/main.rs.',
        agentId: GEMINI_IDS.agent,
      },
    ],
  });
  s.gemini('Only src/main.rs calls it.');
  return s;
}

/** The investigator's own session, `chats/<parent id>/<agent id>.jsonl` (v0.37+), its result as its summary. */
function agentSession(): GeminiSession {
  const a = new GeminiSession({ id: GEMINI_IDS.agent, cwd: GEMINI_CWD, startMs: T0 + 120_500, seed: 11 });
  a.open('subagent');
  a.user('Find the callers of parse().');
  a.gemini('', { calls: [{ name: 'grep_search', args: { pattern: 'parse\\(' }, output: 'src/main.rs:4: parse(x)' }] });
  a.gemini('parse() is called in src/main.rs.');
  a.lines.push({ $set: { summary: 'parse() is called in src/main.rs.' } });
  return a;
}

const LEGACY_CWD = '/home/dev/old-app';
const legacyFile = (): string =>
  legacyJson({ id: GEMINI_IDS.legacy, cwd: LEGACY_CWD, startMs: T0 - 86_400_000, seed: 8 }, (add, at) => {
    add({ id: '5b1c0d2e-0000-4000-8000-000000000001', timestamp: at(0), type: 'user', content: 'list the files' });
    const call = 'list_directory-1764493200000-abc123def456';
    add({
      id: '5b1c0d2e-0000-4000-8000-000000000002',
      timestamp: at(4000),
      type: 'gemini',
      content: '',
      toolCalls: [
        {
          id: call,
          name: 'list_directory',
          args: { dir_path: '.' },
          result: [{ functionResponse: { id: call, name: 'list_directory', response: { output: 'README.md' } } }],
          status: 'success',
          timestamp: at(300),
          displayName: 'ReadFolder',
          description: '.',
          renderOutputAsMarkdown: true,
        },
      ],
      thoughts: [{ subject: 'Listing', description: 'I will list the directory.', timestamp: at(0) }],
      model: 'gemini-2.5-flash',
      tokens: { input: 5000, output: 10, cached: 0, thoughts: 30, tool: 0, total: 5040 },
    });
    add({
      id: '5b1c0d2e-0000-4000-8000-000000000003',
      timestamp: at(2000),
      type: 'gemini',
      content: 'The directory holds README.md.',
      thoughts: [],
      model: 'gemini-2.5-flash',
      tokens: { input: 5100, output: 8, cached: 4000, thoughts: 0, tool: 0, total: 5108 },
    });
  });

export function geminiCleanTree(): Files {
  const files: Files = new Map();
  files.set('projects.json', `${JSON.stringify({ projects: { [GEMINI_CWD]: 'app' } }, null, 2)}\n`);
  files.set('tmp/app/.project_root', GEMINI_CWD);
  files.set(MAIN, mainSession().render());
  files.set(`${CHATS}/${GEMINI_IDS.main}/${GEMINI_IDS.agent}.jsonl`, agentSession().render());
  const old = `tmp/${projectHash(LEGACY_CWD)}/chats/${geminiFileName(T0 - 86_400_000, GEMINI_IDS.legacy, 'json')}`;
  files.set(old, legacyFile());
  return files;
}

const lines = (s: string): string[] => s.split('\n').slice(0, -1);
const join = (ls: string[]): string => `${ls.join('\n')}\n`;
const lineOf = (ls: string[], re: RegExp, from = 0): number => {
  const i = ls.findIndex((l, k) => k >= from && re.test(l));
  if (i < 0) throw new Error(`no line matches ${re}`);
  return i + 1;
};

/** A case of one session file, built by `build` and then edited line by line. */
function single(
  name: string,
  description: string,
  must: string[],
  build: (s: GeminiSession) => void,
  edit: (ls: string[]) => Expectation[],
  extra: Partial<Case> = {},
): Case {
  const s = session();
  build(s);
  const ls = lines(s.render());
  const at = edit(ls);
  return { name, description, must, at, onlyAt: must, ...extra, files: new Map([[MAIN, join(ls)]]) };
}

const obj = (l: string): Record<string, unknown> => JSON.parse(l) as Record<string, unknown>;

export function geminiCases(): Case[] {
  const cases: Case[] = [];
  cases.push(
    single(
      'metadata-line-missing',
      'Line 1 (the metadata line) lost: no line gives sessionId and projectHash, the whole file is not one JSON ' +
        'document, so the CLI loads nothing, and its next start deletes the file.',
      ['GEMINI_UNLOADABLE'],
      standard,
      (ls) => {
        ls.shift();
        return [{ code: 'GEMINI_UNLOADABLE', file: FILE, line: 1, severity: 'error' }];
      },
    ),
  );
  {
    const name = geminiFileName(T0, GEMINI_IDS.legacy, 'json');
    const text = legacyFile();
    cases.push({
      name: 'legacy-truncated',
      description:
        'A legacy .json cut short (a crash during its non-atomic rewrite): the CLI cannot parse it, and its next ' +
        'start deletes it.',
      must: ['GEMINI_UNLOADABLE'],
      onlyAt: ['GEMINI_UNLOADABLE'],
      at: [{ code: 'GEMINI_UNLOADABLE', file: name, line: 1, severity: 'error' }],
      files: new Map([[`${CHATS}/${name}`, text.slice(0, Math.floor(text.length / 2))]]),
    });
  }
  {
    // A resume in a later minute: the original file gets $set.sessionId, a full snapshot and the new turn; the
    // stray file of the current minute holds the metadata line and the context only (generated-cli-0.56.0/C-…).
    const s = session();
    standard(s);
    const later = T0 + 5_400_000;
    const stray = new GeminiSession({ id: GEMINI_IDS.main, cwd: GEMINI_CWD, startMs: later, seed: 9 });
    stray.open();
    s.wait(5_400_000);
    s.lines.push({ $set: { sessionId: GEMINI_IDS.main } });
    s.snapshot();
    s.user('Which file was it?');
    s.gemini('src/parser.rs.');
    const strayName = geminiFileName(later, GEMINI_IDS.main);
    cases.push({
      name: 'resume-stray-file',
      description:
        'What a resume in a later minute leaves: the conversation goes on in the original file, and a stray file ' +
        'named for the current minute holds only the metadata line and the context. The next start of the CLI ' +
        'deletes the stray file and, sharing its id, the original: a warning.',
      must: ['GEMINI_DELETED_AT_START'],
      onlyAt: ['GEMINI_DELETED_AT_START'],
      maxSeverity: 'warning',
      at: [{ code: 'GEMINI_DELETED_AT_START', file: strayName, line: 1, severity: 'warning' }],
      files: new Map([
        [MAIN, s.render()],
        [`${CHATS}/${strayName}`, stray.render()],
      ]),
    });
  }
  {
    const name = geminiFileName(T0, GEMINI_IDS.legacy, 'json');
    const doc = JSON.parse(legacyFile()) as Record<string, unknown>;
    Object.assign(doc, {
      userMessageCount: 1,
      hasResumableContent: true,
      memoryScratchpad: { version: 1, workflowSummary: 'list_directory', toolSequence: ['list_directory'] },
    });
    cases.push({
      name: 'legacy-rewritten-at-startup',
      description:
        'A legacy .json that a CLI 0.40+ rewrote in place at startup (the summary of the previous session): it ' +
        'gained userMessageCount, hasResumableContent and memoryScratchpad. A note: the CLI did it.',
      must: ['GEMINI_REWRITTEN_BY_CLI'],
      onlyAt: ['GEMINI_REWRITTEN_BY_CLI'],
      maxSeverity: 'note',
      at: [{ code: 'GEMINI_REWRITTEN_BY_CLI', file: name, line: 1, severity: 'note' }],
      files: new Map([[`${CHATS}/${name}`, JSON.stringify(doc, null, 2)]]),
    });
  }
  for (const [code, suffix, what] of [
    ['GEMINI_UNREADABLE_BACKUP', '.unreadable-1796200000000', 'the original bytes of a file a resume could not read'],
    ['GEMINI_TEMP_LEFTOVER', '.tmp-4242', 'a rewrite interrupted before its rename'],
  ] as const) {
    const s = session();
    standard(s);
    cases.push({
      name: code === 'GEMINI_TEMP_LEFTOVER' ? 'temp-leftover' : 'unreadable-backup',
      description: `The session file with ${what} beside it (${suffix.replace(/\d+$/, '<n>')}).`,
      must: [code],
      onlyAt: [code],
      maxSeverity: 'warning',
      at: [{ code, file: `${FILE}${suffix}`, severity: 'warning' }],
      files: new Map([
        [MAIN, s.render()],
        [`${MAIN}${suffix}`, s.render()],
      ]),
    });
  }
  cases.push(
    single(
      'last-updated-early',
      "The last $set.lastUpdated moved an hour back: earlier than the session's newest message.",
      ['GEMINI_LAST_UPDATED_EARLY'],
      standard,
      (ls) => {
        const last = ls.length - 1;
        ls[last] = JSON.stringify({ $set: { lastUpdated: iso(T0 - 3_600_000) } });
        return [
          {
            code: 'GEMINI_LAST_UPDATED_EARLY',
            file: FILE,
            line: lineOf(ls, /None on empty input now/),
            severity: 'warning',
          },
        ];
      },
      { allow: ['TIME_BACKWARDS'] },
    ),
  );
  {
    // A resume in the minute the file was made (generated-cli-0.56.0/B-…): a second metadata line, the context
    // snapshot, $set.sessionId, then a snapshot rebuilt without toolCalls, then the new turn.
    const s = session();
    standard(s);
    s.wait(20_000);
    const again = { ...s.lines[0]!, startTime: iso(T0 + 20_000), lastUpdated: iso(T0 + 20_000) };
    s.lines.push(again);
    s.lines.push({ $set: { messages: [s.history[0]!], lastUpdated: iso(T0 + 20_001) } });
    s.lines.push({ $set: { sessionId: GEMINI_IDS.main } });
    // convertSessionToClientHistory: gemini content as Part[] (thought text, functionCall parts), a synthetic
    // `<id>_response` user turn before the recorded functionResponse message, every time the resume's.
    const t = iso(T0 + 20_005);
    const rebuilt = s.history.flatMap((m) => {
      const { toolCalls, thoughts: _t, tokens: _k, model: _m, ...rest } = m;
      if (m.type !== 'gemini' || !Array.isArray(toolCalls)) return [{ ...rest, timestamp: t }];
      const calls = toolCalls as Array<Record<string, Json>>;
      const content: Json[] = [
        ...(m.content ? [{ text: m.content as string }] : []),
        ...calls.map((c) => ({ functionCall: { id: c.id!, name: c.name!, args: c.args! } })),
      ];
      const responses = calls.flatMap((c) => c.result as Json[]);
      return [
        { ...rest, timestamp: t, content },
        { id: `${m.id as string}_response`, timestamp: t, type: 'user', content: responses },
      ];
    });
    s.lines.push({ $set: { messages: rebuilt, lastUpdated: iso(T0 + 20_010) } });
    const ls = lines(s.render());
    const meta = ls.length - 3;
    const snap = ls.length;
    const lost = s.history.filter((m) => Array.isArray(m.toolCalls)).length;
    cases.push({
      name: 'resume-same-minute',
      description:
        'A resume in the minute the file was made: a second metadata line in the same file, and a snapshot ' +
        'rebuilt from a fold that lost the tool calls (as 0.56.0 writes it). Notes: the CLI did it.',
      must: ['GEMINI_METADATA_REPEATED', 'GEMINI_REAPPEND_LOST_CALLS'],
      onlyAt: ['GEMINI_METADATA_REPEATED', 'GEMINI_REAPPEND_LOST_CALLS'],
      maxSeverity: 'note',
      at: [
        { code: 'GEMINI_METADATA_REPEATED', file: FILE, line: meta, severity: 'note' },
        ...Array.from({ length: lost }, () => ({
          code: 'GEMINI_REAPPEND_LOST_CALLS',
          file: FILE,
          line: snap,
          severity: 'note' as const,
        })),
      ],
      files: new Map([[MAIN, join(ls)]]),
    });
  }
  cases.push(
    single(
      'session-id-changed',
      "A $set that names another sessionId than line 1's: the CLI's fold claims another session.",
      ['GEMINI_SESSION_ID_CHANGED'],
      (s) => {
        standard(s);
        s.lines.push({ $set: { sessionId: '99999999-0000-4000-8000-000000000000' } });
      },
      (ls) => [{ code: 'GEMINI_SESSION_ID_CHANGED', file: FILE, line: ls.length, severity: 'error' }],
      { allow: ['LINEAGE_DUPLICATE_ID'] },
    ),
  );
  cases.push(
    single(
      'reappend-changed',
      'The answer appended again under its id with other content: the last copy wins, so the conversation the CLI ' +
        'loads says something else than what the model said.',
      ['GEMINI_REAPPEND_CHANGED'],
      standard,
      (ls) => {
        const n = lineOf(ls, /None on empty input now/);
        const v = obj(ls[n - 1]!);
        v.content = 'parse() was already correct; nothing changed.';
        ls.push(JSON.stringify(v));
        return [{ code: 'GEMINI_REAPPEND_CHANGED', file: FILE, line: ls.length, severity: 'error' }];
      },
    ),
  );
  cases.push(
    single(
      'reappend-lost-calls',
      'A bare copy of a gemini message without the toolCalls the copy before it had: the call leaves the ' +
        'conversation the CLI loads (its result stays, orphaned).',
      ['GEMINI_REAPPEND_LOST_CALLS'],
      standard,
      (ls) => {
        const n = lineOf(ls, /"toolCalls":\[\{"id":"replace/);
        const { toolCalls: _, ...v } = obj(ls[n - 1]!);
        ls.push(JSON.stringify(v));
        return [{ code: 'GEMINI_REAPPEND_LOST_CALLS', file: FILE, line: ls.length, severity: 'warning' }];
      },
      { allow: ['TOOL_ORPHAN_RESULT', 'GEMINI_REAPPEND_CHANGED'] },
    ),
  );
  cases.push(
    single(
      'rewind-unknown-id',
      'A $rewindTo naming an id the conversation does not hold: the CLI empties the whole conversation. A later ' +
        'turn keeps the file resumable.',
      ['GEMINI_REWIND_UNKNOWN'],
      (s) => {
        standard(s);
        s.lines.push({ $rewindTo: '00000000-dead-4000-8000-000000000000' });
        s.user('Start again: what does parse() do?');
        s.gemini('It parses a number.');
      },
      (ls) => [{ code: 'GEMINI_REWIND_UNKNOWN', file: FILE, line: lineOf(ls, /\$rewindTo/), severity: 'error' }],
    ),
  );
  cases.push(
    single(
      'snapshot-dropped',
      'An error message the user saw ("[API Error: …]"), then a history snapshot (as /compress writes): the ' +
        'snapshot holds the model history only, so the error is in the file but not in what the CLI loads.',
      ['GEMINI_SNAPSHOT_DROPPED'],
      (s) => {
        standard(s);
        s.notice('error', '[API Error: No capacity available for model gemini-2.5-pro on the server]');
        s.snapshot();
      },
      (ls) => [{ code: 'GEMINI_SNAPSHOT_DROPPED', file: FILE, line: ls.length, severity: 'note' }],
      { maxSeverity: 'note' },
    ),
  );
  cases.push(
    single(
      'status-not-terminal',
      'A toolCalls entry recorded as "executing": the CLI records completed calls only.',
      ['GEMINI_STATUS_NOT_TERMINAL'],
      (s) => {
        s.open();
        s.user('Run the tests.');
        s.gemini('', {
          calls: [{ name: 'run_shell_command', args: { command: 'cargo test' }, output: '', status: 'executing' }],
        });
        s.gemini('Tests are running.');
      },
      (ls) => [
        {
          code: 'GEMINI_STATUS_NOT_TERMINAL',
          file: FILE,
          line: lineOf(ls, /"toolCalls"/),
          severity: 'warning',
        },
      ],
    ),
  );
  cases.push(
    single(
      'cancelled-unmarked',
      'A call recorded as cancelled whose result does not carry "[Operation Cancelled]".',
      ['GEMINI_CANCELLED_UNMARKED'],
      (s) => {
        s.open();
        s.user('Delete the build directory.');
        s.gemini('', {
          calls: [
            { name: 'run_shell_command', args: { command: 'rm -rf build' }, error: 'stopped', status: 'cancelled' },
          ],
        });
        s.gemini('I did not delete it.');
      },
      (ls) => [{ code: 'GEMINI_CANCELLED_UNMARKED', file: FILE, line: lineOf(ls, /"toolCalls"/), severity: 'note' }],
      // A cancelled call's result is one the CLI wrote in place of the tool's.
      { maxSeverity: 'note', allow: ['TOOL_SYNTHETIC_RESULT'] },
    ),
  );
  return cases;
}
