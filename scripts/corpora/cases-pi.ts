/**
 * The Pi corpora: a clean `~/.pi/agent` tree (a v3 session with tool calls, a `/tree` branch with its summary, a
 * label, a
 * compaction, a user shell run and extension entries; a fork of it; a v3 session in the old `~/.pi/agent/*.jsonl`
 * placement and one in a `--session-dir` directory) and one damaged case per finding it is meant to show. Synthetic,
 * shaped like the real files in ../shared/external/pi.
 */
import { PiSession, piCwdDir, piFileName } from './pi-builder.js';
import { deepenContent, TOO_DEEP, type Case, type Expectation, type Files } from './case-kit.js';

export const PI_CWD = '/home/dev/app';
/** What a case directory holds, for the corpora README. */
export const PI_LAYOUT =
  'a `~/.pi/agent` tree (`sessions/--<encoded-cwd>--/<time>_<id>.jsonl`; in the clean tree also the old ' +
  '`~/.pi/agent/*.jsonl` placement and a `--session-dir` directory, `pi-sessions/`)';
const HOME = '/home/dev';
/** Case roots are `~/.pi/agent` (what a user points the tool at); sessions sit under its sessions/. */
const DIR = `sessions/${piCwdDir(PI_CWD)}`;
const T0 = Date.UTC(2026, 2, 12, 9, 0, 0);

export const PI_IDS = {
  main: '7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a01',
  fork: '7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a02',
  old: '7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a03',
  dir: '7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a04',
};

const MAIN = `${DIR}/${piFileName(T0, PI_IDS.main)}`;
/** Findings name a file relative to its session: a Pi session is its file. */
const FILE = piFileName(T0, PI_IDS.main);

const session = (id = PI_IDS.main, startMs = T0, extra: Partial<PiSession['opts']> = {}): PiSession =>
  new PiSession({ id, cwd: PI_CWD, startMs, seed: 1, version: 3, ...extra });

/** How every new Pi session starts: the header, the model and the thinking level (sdk.ts). */
function opening(s: PiSession): void {
  s.header();
  s.modelChange();
  s.thinkingLevel('medium');
}

/** A turn: read and grep in parallel (results out of order), an edit, the answer. */
function turnOne(s: PiSession): string {
  s.user('parse() panics on empty input; fix it.');
  s.assistant('Let me look at the parser.', {
    thinking: 'parse() probably unwraps.',
    calls: [
      ['toolu_01PiReadParserAbcdef0123', 'read', { path: 'src/parser.rs' }],
      ['toolu_01PiGrepUnwrapAbcdef012', 'bash', { command: 'grep -n unwrap src/*.rs' }],
    ],
  });
  s.result('toolu_01PiGrepUnwrapAbcdef012', 'bash', 'src/parser.rs:3:    s.parse().unwrap()');
  s.result('toolu_01PiReadParserAbcdef0123', 'read', 'pub fn parse(s: &str) -> u32 {\n    s.parse().unwrap()\n}');
  s.assistant('Returning an Option instead.', {
    calls: [
      [
        'toolu_01PiEditParserAbcdef0123',
        'edit',
        { path: 'src/parser.rs', oldText: 's.parse().unwrap()', newText: 's.parse().ok()' },
      ],
    ],
  });
  s.result('toolu_01PiEditParserAbcdef0123', 'edit', 'Successfully replaced text in src/parser.rs.');
  return s.assistant('parse() returns None on empty input now.');
}

function mainSession(): PiSession {
  const s = session();
  opening(s);
  const done = turnOne(s);
  // A second turn, then /tree back to after turn one with a summary of the abandoned branch.
  s.wait(30_000).user('Rename parse to parse_strict everywhere.');
  const abandoned = s.assistant('Renaming.', {
    calls: [['toolu_01PiBashRenameAbcdef012', 'bash', { command: "sed -i 's/parse(/parse_strict(/' src/*.rs" }]],
  });
  s.result('toolu_01PiBashRenameAbcdef012', 'bash', '');
  s.assistant('Renamed.');
  s.last = done;
  s.entry('branch_summary', { fromId: abandoned, summary: 'Tried a rename to parse_strict; abandoned.' });
  s.entry('label', { targetId: done, label: 'parser-fixed' });
  s.wait(20_000).user('Instead, add a doc comment to parse.');
  s.assistant('Adding it.', {
    calls: [
      [
        'toolu_01PiEditDocAbcdef0123456',
        'edit',
        { path: 'src/parser.rs', oldText: 'pub fn', newText: '/// None on bad input.\npub fn' },
      ],
    ],
  });
  const kept = s.result('toolu_01PiEditDocAbcdef0123456', 'edit', 'Successfully replaced text in src/parser.rs.');
  s.assistant('Documented.');
  s.bash('cargo test', 'test result: ok. 5 passed; 0 failed');
  s.entry('custom', { customType: 'plan-mode', data: { enabled: false } });
  s.wait(60_000);
  const firstKept = s.user('Summarise what changed.');
  void kept;
  s.assistant('parse() returns Option<u32> and is documented.');
  s.entry('compaction', {
    summary: 'parse() made total and documented; tests pass.',
    firstKeptEntryId: firstKept,
    tokensBefore: 48_000,
    details: { readFiles: ['src/parser.rs'], modifiedFiles: ['src/parser.rs'] },
  });
  s.entry('custom_message', { customType: 'reminder', content: 'Run clippy before committing.', display: true });
  s.user('Run clippy.');
  s.assistant('', { calls: [['toolu_01PiBashClippyAbcdef0123', 'bash', { command: 'cargo clippy' }]] });
  s.result('toolu_01PiBashClippyAbcdef0123', 'bash', 'Finished dev profile, 0 warnings');
  s.assistant('Clippy is clean.');
  s.entry('session_info', { name: 'Make parse() total' });
  return s;
}

/** `/fork` from the main session: the root→leaf path copied with its ids and times, a new header, new entries. */
function forkSession(main: PiSession): PiSession {
  const f = session(PI_IDS.fork, T0 + 3_600_000, { parentSession: `${HOME}/.pi/agent/${MAIN}`, seed: 2 });
  f.header();
  const upto = main.lines.findIndex((l) => l.type === 'branch_summary');
  for (const l of main.lines.slice(1, upto)) {
    if (l.type === 'label') continue;
    f.lines.push(l);
  }
  f.last = main.lines[upto - 1]!.id as string;
  f.wait(0).user('Try a property test for parse instead.');
  f.assistant('Added a proptest.');
  return f;
}

export function piCleanTree(): Files {
  const files: Files = new Map();
  const main = mainSession();
  files.set(MAIN, main.render());
  files.set(`${DIR}/${piFileName(T0 + 3_600_000, PI_IDS.fork)}`, forkSession(main).render());
  // Pi 0.30 wrote sessions straight into ~/.pi/agent/.
  const old = session(PI_IDS.old, T0 - 86_400_000, { seed: 3 });
  opening(old);
  turnOne(old);
  files.set(piFileName(T0 - 86_400_000, PI_IDS.old), old.render());
  // `pi --session-dir <dir>`: the directory as given, no cwd encoding (here beside the others).
  const dir = session(PI_IDS.dir, T0 + 7_200_000, { seed: 4 });
  opening(dir);
  turnOne(dir);
  files.set(`pi-sessions/${piFileName(T0 + 7_200_000, PI_IDS.dir)}`, dir.render());
  return files;
}

const lines = (s: string): string[] => s.split('\n').slice(0, -1);
const join = (ls: string[]): string => `${ls.join('\n')}\n`;
const lineOf = (ls: string[], re: RegExp): number => {
  const i = ls.findIndex((l) => re.test(l));
  if (i < 0) throw new Error(`no line matches ${re}`);
  return i + 1;
};

/** A case of one session file, built by `build` and then edited line by line. */
function single(
  name: string,
  description: string,
  must: string[],
  build: (s: PiSession) => void,
  edit: (ls: string[]) => Expectation[],
  extra: Partial<Case> & { version?: number } = {},
): Case {
  const { version, ...rest } = extra;
  const s = session(PI_IDS.main, T0, version === 0 ? { version: undefined } : version ? { version } : {});
  build(s);
  const ls = lines(s.render());
  const at = edit(ls);
  return { name, description, must, at, ...rest, files: new Map([[MAIN, join(ls)]]) };
}

const standard = (s: PiSession): void => {
  opening(s);
  turnOne(s);
};

export function piCases(): Case[] {
  const cases: Case[] = [];
  cases.push(
    single(
      'header-invalid',
      "Line 1 torn mid-header (the file's first write cut short): Pi loads nothing, and opening the file in Pi " +
        'truncates it to a fresh header.',
      ['PI_HEADER_INVALID'],
      standard,
      (ls) => {
        ls[0] = ls[0]!.slice(0, 60);
        return [{ code: 'PI_HEADER_INVALID', file: FILE, line: 1, severity: 'error' }];
      },
      { allow: ['JSONL_BAD_LINE'], onlyAt: ['PI_HEADER_INVALID'] },
    ),
  );
  cases.push(
    single(
      'header-repeated',
      'A second session header after the first entries: what Pi before 0.55.2 wrote when a branched session ' +
        'flushed into a file that already held its prefix (#1672).',
      ['PI_HEADER_REPEATED'],
      standard,
      (ls) => {
        ls.splice(3, 0, ls[0]!);
        return [{ code: 'PI_HEADER_REPEATED', file: FILE, line: 4, severity: 'warning' }];
      },
      { onlyAt: ['PI_HEADER_REPEATED'] },
    ),
  );
  cases.push(
    single(
      'jsonl-too-deep',
      `The last message's content wrapped in ${TOO_DEEP} nested objects: past the 512 levels the reader accepts, ` +
        'the line is not parsed (Pi itself, on JSON.parse, would read it).',
      ['JSONL_TOO_DEEP'],
      standard,
      (ls) => {
        const k = ls.findLastIndex((l) => l.includes('"content":'));
        ls[k] = deepenContent(ls[k]!);
        return [{ code: 'JSONL_TOO_DEEP', file: FILE, line: k + 1, severity: 'error' }];
      },
    ),
  );
  cases.push(
    single(
      'version-old',
      'A v1 file as Pi wrote them until v2 (the real files in ../shared/external/pi are v1): no version, no ids, ' +
        'the model in the header, a compaction by firstKeptEntryIndex. Legitimate; opening it in Pi migrates it.',
      ['PI_VERSION_OLD'],
      (s) => {
        standard(s);
        s.user('Summarise.');
        s.assistant('Done.');
        s.entry('compaction', { summary: 'parse() fixed.', firstKeptEntryIndex: 4, tokensBefore: 41_000 });
        s.user('Thanks.');
        s.assistant('You are welcome.');
      },
      () => [{ code: 'PI_VERSION_OLD', file: FILE, line: 1, severity: 'note' }],
      { version: 0, maxSeverity: 'note' },
    ),
  );
  cases.push(
    single(
      'version-unknown',
      'A header with version 4: written by a newer Pi than this audit knows; audited as v3.',
      ['PI_VERSION_UNKNOWN'],
      standard,
      () => [{ code: 'PI_VERSION_UNKNOWN', file: FILE, line: 1, severity: 'warning' }],
      { version: 4 },
    ),
  );
  cases.push(
    single(
      'entry-no-id',
      'The last entry of a v3 file has no id (written by another tool): Pi cannot place it in the tree.',
      ['PI_ENTRY_NO_ID'],
      (s) => {
        standard(s);
        s.entry('session_info', { name: 'parser' });
      },
      (ls) => {
        const v = JSON.parse(ls.at(-1)!) as Record<string, unknown>;
        delete v.id;
        ls[ls.length - 1] = JSON.stringify(v);
        return [{ code: 'PI_ENTRY_NO_ID', file: FILE, line: ls.length, severity: 'error' }];
      },
      { onlyAt: ['PI_ENTRY_NO_ID'] },
    ),
  );
  cases.push(
    single(
      'parent-dangling',
      "A line lost from the middle of the file: the next entry's parentId names nothing, so Pi's walk back from " +
        'the leaf stops there and the first turn drops out of a resume.',
      ['PI_PARENT_DANGLING'],
      (s) => {
        standard(s);
        s.wait(10_000).user('Now add a test.');
        s.assistant('Added.');
      },
      (ls) => {
        const k = lineOf(ls, /Now add a test/);
        ls.splice(k - 1, 1);
        return [{ code: 'PI_PARENT_DANGLING', file: FILE, line: k, severity: 'error' }];
      },
      { onlyAt: ['PI_PARENT_DANGLING'] },
    ),
  );
  cases.push(
    single(
      'id-collision',
      'Two different entries share one id (history spliced in): Pi keeps the last, the first becomes unreachable.',
      ['PI_ID_COLLISION'],
      (s) => {
        standard(s);
        s.wait(10_000).user('Now add a test.');
        s.assistant('Added.');
      },
      (ls) => {
        const a = JSON.parse(ls.at(-2)!) as Record<string, unknown>;
        const b = JSON.parse(ls.at(-1)!) as Record<string, unknown>;
        b.id = a.id;
        b.parentId = a.parentId;
        ls[ls.length - 1] = JSON.stringify(b);
        return [{ code: 'PI_ID_COLLISION', file: FILE, line: ls.length, severity: 'error' }];
      },
      { onlyAt: ['PI_ID_COLLISION'] },
    ),
  );
  cases.push(
    single(
      'several-roots',
      '/tree back to before the first message: the next prompt starts a second root (legal in Pi); a resume ' +
        'continues from the last entry, under the second root.',
      ['PI_SEVERAL_ROOTS'],
      (s) => {
        standard(s);
        s.last = null;
        s.wait(30_000).user('Start over: write a fuzz target for parse.');
        s.assistant('Added a fuzz target.');
      },
      (ls) => [{ code: 'PI_SEVERAL_ROOTS', file: FILE, line: lineOf(ls, /Start over/), severity: 'note' }],
      { maxSeverity: 'note', onlyAt: ['PI_SEVERAL_ROOTS'] },
    ),
  );
  cases.push(
    single(
      'compaction-unresolved',
      'A compaction whose firstKeptEntryId names no entry: Pi keeps nothing before the summary.',
      ['PI_COMPACTION_UNRESOLVED'],
      (s) => {
        standard(s);
        s.entry('compaction', { summary: 'parse() fixed.', firstKeptEntryId: 'deadbeef', tokensBefore: 41_000 });
        s.user('Continue.');
        s.assistant('Done.');
      },
      (ls) => [{ code: 'PI_COMPACTION_UNRESOLVED', file: FILE, line: lineOf(ls, /"compaction"/), severity: 'error' }],
      { onlyAt: ['PI_COMPACTION_UNRESOLVED'] },
    ),
  );
  cases.push(
    single(
      'merged-line',
      'Three records on one line, as real Pi files hold them (an assistant message, then the next user message ' +
        'and its reply glued on: the line lost its newline twice and Pi appends without a leading one). Every ' +
        'record is recovered with its offset; Pi drops all three, so the entry after them hangs from an entry ' +
        'it cannot read.',
      ['JSONL_MERGED_LINE', 'PI_PARENT_DANGLING'],
      (s) => {
        standard(s);
        s.wait(10_000).user('Now add a test.');
        s.assistant('Added.');
        s.user('Thanks.');
      },
      (ls) => {
        const k = lineOf(ls, /parse\(\) returns None/);
        ls.splice(k - 1, 3, ls[k - 1]! + ls[k]! + ls[k + 1]!);
        return [
          { code: 'JSONL_MERGED_LINE', file: FILE, line: k },
          { code: 'PI_PARENT_DANGLING', file: FILE, line: k + 1, severity: 'error' },
        ];
      },
      { onlyAt: ['PI_PARENT_DANGLING'] },
    ),
  );
  cases.push(
    single(
      'aborted-call',
      'The user interrupted a response that had asked for a tool call (stopReason "aborted"): Pi runs none of its ' +
        'calls, so the call has no result by design, as in every Pi session the user ever interrupted. No finding.',
      [],
      (s) => {
        standard(s);
        s.wait(10_000).user('Run the benchmarks.');
        s.assistant('', {
          calls: [['toolu_01PiBashBenchAbcdef01234', 'bash', { command: 'cargo bench' }]],
          stop: 'aborted',
          error: 'Request was aborted',
        });
        s.user('Never mind.');
        s.assistant('OK.');
      },
      () => [],
    ),
  );
  cases.push(
    single(
      'compaction-index-unresolved',
      'A v1 compaction whose firstKeptEntryIndex points past itself (an index into the entries Pi reads, the ' +
        'header being 0): the migration drops the reference and Pi keeps nothing before the summary.',
      ['PI_COMPACTION_UNRESOLVED'],
      (s) => {
        standard(s);
        s.entry('compaction', { summary: 'parse() fixed.', firstKeptEntryIndex: 40, tokensBefore: 41_000 });
        s.user('Continue.');
        s.assistant('Done.');
      },
      (ls) => [{ code: 'PI_COMPACTION_UNRESOLVED', file: FILE, line: lineOf(ls, /"compaction"/), severity: 'error' }],
      { version: 0, allow: ['PI_VERSION_OLD'], onlyAt: ['PI_COMPACTION_UNRESOLVED'] },
    ),
  );
  cases.push(
    single(
      'prefix-flushed-twice',
      'What Pi before 0.55.2 wrote when a branched session flushed its in-memory prefix into a file that already ' +
        'held it (#1672): the header and the first entries again, byte for byte. Warnings: a known writer bug, ' +
        'not forged history.',
      ['PI_HEADER_REPEATED', 'PI_ID_COLLISION'],
      standard,
      (ls) => {
        const n = ls.length;
        ls.push(...ls.slice(0, 4));
        return [
          { code: 'PI_HEADER_REPEATED', file: FILE, line: n + 1, severity: 'warning' },
          { code: 'PI_ID_COLLISION', file: FILE, line: n + 2, severity: 'warning' },
          { code: 'PI_ID_COLLISION', file: FILE, line: n + 3, severity: 'warning' },
          { code: 'PI_ID_COLLISION', file: FILE, line: n + 4, severity: 'warning' },
        ];
      },
      {
        maxSeverity: 'warning',
        // The repeated entries keep their first times, so time goes back where they start: true of such a file.
        allow: ['TIME_BACKWARDS'],
        onlyAt: ['PI_HEADER_REPEATED', 'PI_ID_COLLISION'],
      },
    ),
  );
  {
    // A session with a label on its path, and its /fork: Pi drops label entries from the copied path without
    // re-parenting the entry that hung from the label (earendil-works/pi #5669).
    const main = session();
    opening(main);
    const done = turnOne(main);
    main.entry('label', { targetId: done, label: 'parser-fixed' });
    main.wait(20_000).user('Add a doc comment to parse.');
    main.assistant('Documented.');
    const fork = session(PI_IDS.fork, T0 + 3_600_000, { parentSession: `${HOME}/.pi/agent/${MAIN}`, seed: 2 });
    fork.header();
    for (const l of main.lines.slice(1)) if (l.type !== 'label') fork.lines.push(l);
    fork.last = main.last;
    fork.user('Now a property test.');
    fork.assistant('Added.');
    const forkFile = piFileName(T0 + 3_600_000, PI_IDS.fork);
    const fl = lines(fork.render());
    cases.push({
      name: 'fork-label-dropped',
      description:
        'A /fork of a session with a label on its path: Pi drops the label from the copied path but not the ' +
        "entry's link to it (#5669), so the fork has a dangling parent. A warning: Pi's own fork did it.",
      must: ['PI_PARENT_DANGLING'],
      maxSeverity: 'warning',
      onlyAt: ['PI_PARENT_DANGLING'],
      at: [
        {
          code: 'PI_PARENT_DANGLING',
          file: forkFile,
          line: lineOf(fl, /Add a doc comment/),
          severity: 'warning',
        },
      ],
      files: new Map([
        [MAIN, main.render()],
        [`${DIR}/${forkFile}`, join(fl)],
      ]),
    });
  }
  return cases;
}
