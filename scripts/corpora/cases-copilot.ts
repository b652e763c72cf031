/**
 * The Copilot CLI corpora: a clean `~/.copilot` home (a session resumed once, with tool calls, a permission prompt,
 * hooks, its workspace.yaml, checkpoint index and rewind snapshots, a backup beside them that bags leave out; a
 * second session; the session store; config.json and command history, which are no session's) and one damaged case
 * per finding it is meant to show. Synthetic, shaped like the real files in ../shared/external/copilot-cli.
 */
import { CHECKPOINT_INDEX, CopilotLog, storeDb, type Line, type StoreSession } from './copilot-builder.js';
import type { Case, Expectation, Files } from './case-kit.js';
import { walPair } from './hermes-builder.js';

export const COPILOT_LAYOUT =
  'a `~/.copilot` home (`session-state/<id>/events.jsonl` with `workspace.yaml`, `checkpoints/`, ' +
  '`rewind-snapshots/`; `session-store.db`; in some cases the flat `session-state/<id>.jsonl` and legacy ' +
  '`history-session-state/session_<id>_<ms>.json`)';
const CWD = '/home/dev/app';
const T0 = Date.UTC(2026, 5, 8, 9, 0, 0);

export const COPILOT_IDS = {
  main: '5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b01',
  second: '5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b02',
  gone: '5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b03',
  legacy: '5b2d0c1e-7a3f-4e6d-9b8c-1f2e3d4c5b04',
};
const DIR = `session-state/${COPILOT_IDS.main}`;
const LOG = `${DIR}/events.jsonl`;

/** The main session: a turn with a shell command (asked and approved) and a read, a reply, a shutdown; a resume. */
function mainLog(): CopilotLog {
  const s = new CopilotLog(COPILOT_IDS.main, CWD, T0, 0x5b2d);
  s.start();
  s.wait(60_000).user('parse() panics on empty input; fix it.');
  s.turn('0', '', [
    ['report_intent', { intent: 'Fixing the parser' }, 'Intent logged'],
    ['view', { path: `${CWD}/src/parser.rs` }, '1. pub fn parse(s: &str) -> u32 {\n2.     s.parse().unwrap()\n3. }'],
  ]);
  s.turn('1', 'Returning an Option instead.', [
    ['edit', { path: `${CWD}/src/parser.rs`, old_str: 's.parse().unwrap()', new_str: 's.parse().ok()' }, 'File edited'],
  ]);
  s.turn(
    '2',
    '',
    [
      [
        'bash',
        { command: 'cargo test', description: 'Run the tests' },
        'test result: ok. 5 passed\n<exited with exit code 0>',
      ],
    ],
    {
      ask: true,
    },
  );
  s.reply('3', 'parse() returns None on empty input now; the tests pass.');
  s.shutdown();
  s.wait(3_600_000).resume();
  s.user('Add a doc comment to parse.');
  s.turn('0', '', [
    [
      'edit',
      { path: `${CWD}/src/parser.rs`, old_str: 'pub fn', new_str: '/// None on bad input.\npub fn' },
      'File edited',
    ],
  ]);
  s.reply('1', 'Documented.');
  s.shutdown();
  return s;
}

function secondLog(): CopilotLog {
  const s = new CopilotLog(COPILOT_IDS.second, CWD, T0 + 86_400_000, 0x5b2e);
  s.start();
  s.wait(5_000).user('What does this repository do?');
  s.turn('0', '', [['glob', { pattern: '**/*.rs' }, 'src/parser.rs\nsrc/main.rs']]);
  s.reply('1', 'A small parser with its tests.');
  s.shutdown();
  return s;
}

interface Home {
  main: CopilotLog;
  files: Files;
}

/**
 * The clean home, with `edit` applied to the main log's lines before it is written; `more`: more sessions of the
 * store (in the database and its -wal alike).
 */
function home(
  edit?: (ls: Line[], s: CopilotLog) => void,
  turns?: { main?: number; extra?: string[] },
  more: readonly StoreSession[] = [],
): Home {
  const main = mainLog();
  const second = secondLog();
  const lines = main.lines.map((l) => ({ ...l }));
  edit?.(lines, main);
  const files: Files = new Map();
  files.set(LOG, main.render(lines));
  files.set(`${DIR}/workspace.yaml`, main.workspace());
  files.set(`${DIR}/checkpoints/index.md`, CHECKPOINT_INDEX);
  files.set(`${DIR}/rewind-snapshots/index.json`, main.rewindIndex());
  // A copy of the user's file the CLI took for /rewind: evidence of the workspace, never put in a bag.
  files.set(`${DIR}/rewind-snapshots/backups/7a21a92eef84bc2e-1780886298696`, 'pub fn parse(s: &str) -> u32 {}\n');
  files.set(`session-state/${COPILOT_IDS.second}/events.jsonl`, second.render());
  files.set(`session-state/${COPILOT_IDS.second}/workspace.yaml`, second.workspace({ name: 'Explain the repository' }));
  files.set(`session-state/${COPILOT_IDS.second}/checkpoints/index.md`, CHECKPOINT_INDEX);
  const at = new Date(T0).toISOString();
  const rows = (main: number) => [
    { id: COPILOT_IDS.main, cwd: CWD, turns: main, at },
    { id: COPILOT_IDS.second, cwd: CWD, turns: 1, at },
    ...(turns?.extra ?? []).map((id) => ({ id, cwd: CWD, turns: 1, at })),
    ...more,
  ];
  // The store in WAL mode with the main session's last turn still in its -wal (as in the real R-KAIJ home).
  const main2 = turns?.main ?? 2;
  const store = walPair(storeDb(rows(main2 - 1)), storeDb(rows(main2)));
  files.set('session-store.db', store.db);
  files.set('session-store.db-wal', store.wal);
  // Secrets of the home: no session's files (never read, never bagged).
  files.set(
    'config.json',
    '// This file is managed automatically.\n' +
      '{"trustedFolders":["/home/dev/app"],"token":"gho_notARealToken0123456789abcdefABCDEF"}\n',
  );
  files.set('command-history-state.json', '{"history":["export GITHUB_TOKEN=not-a-real-token"]}\n');
  return { main, files };
}

export function copilotCleanTree(): Files {
  return home().files;
}

/** The clean home with more sessions in its store (their files are not written: sessions gone from the home). */
export function copilotTreeWithRows(rows: readonly StoreSession[]): Files {
  return home(undefined, undefined, rows).files;
}

/** The clean home's working directory and first time, for rows of its store. */
export const COPILOT_CWD = CWD;
export const COPILOT_T0 = T0;

const lineNo = (ls: Line[], type: string, nth = 0): number => {
  let k = 0;
  for (let i = 0; i < ls.length; i++) if (ls[i]!.type === type && k++ === nth) return i + 1;
  throw new Error(`no ${type} #${nth}`);
};

interface CaseOpts extends Partial<Omit<Case, 'files' | 'name' | 'description' | 'must'>> {
  /** Store turn counts other than the log's. */
  turns?: { main?: number; extra?: string[] };
  /** Edits of the written home (other files than the main log). */
  late?: (files: Files, s: CopilotLog) => Expectation[];
}

/** A case of the clean home, its main log edited by `edit` and its files by `o.late`. */
function homeCase(
  name: string,
  description: string,
  must: string[],
  edit: (ls: Line[], s: CopilotLog) => Expectation[],
  o: CaseOpts = {},
): Case {
  const { turns, late, ...rest } = o;
  let at: Expectation[] = [];
  const h = home((ls, s) => {
    at = edit(ls, s);
  }, turns);
  if (late) at.push(...late(h.files, h.main));
  return { name, description, must, files: h.files, ...(at.length ? { at } : {}), ...rest };
}

export function copilotCases(): Case[] {
  const cases: Case[] = [];
  cases.push(
    homeCase(
      'not-canonical',
      'One line of the main log re-written with spaces after the separators (what Python json.dumps or an editor ' +
        'writes): Copilot CLI writes compact JSON.stringify, so the line was written by another program.',
      ['COPILOT_NOT_CANONICAL'],
      () => [],
      {
        late: (f) => {
          const text = f.get(LOG) as string;
          const ls = text.split('\n');
          const i = ls.findIndex((l) => l.includes('"type":"assistant.turn_end"'));
          ls[i] = JSON.stringify(JSON.parse(ls[i]!)).replaceAll('":"', '": "');
          f.set(LOG, ls.join('\n'));
          return [{ code: 'COPILOT_NOT_CANONICAL', file: 'events.jsonl', line: i + 1, severity: 'warning' }];
        },
        onlyAt: ['COPILOT_NOT_CANONICAL'],
      },
    ),
  );
  cases.push(
    homeCase(
      'first-not-start',
      "The main log with its first line cut off (a copy sliced at the front): Copilot CLI's replay refuses a log " +
        'whose first event is not session.start.',
      ['COPILOT_FIRST_NOT_START'],
      (ls) => {
        ls.shift();
        return [{ code: 'COPILOT_FIRST_NOT_START', file: 'events.jsonl', line: 1, severity: 'error' }];
      },
    ),
  );
  cases.push(
    homeCase(
      'start-repeated',
      "The second session's log appended to the main one (two logs concatenated): a second session.start.",
      ['COPILOT_START_REPEATED'],
      (ls) => {
        const n = ls.length;
        ls.push(...secondLog().lines);
        return [{ code: 'COPILOT_START_REPEATED', file: 'events.jsonl', line: n + 1, severity: 'error' }];
      },
      { allow: ['COPILOT_STORE_TURNS', 'LINEAGE_DUPLICATE_ID', 'COPILOT_SHUTDOWN_START'] },
    ),
  );
  cases.push(
    homeCase(
      'duplicate-event-id',
      'The model_change line copied to the end of the log: two lines with one event id.',
      ['COPILOT_DUPLICATE_EVENT_ID'],
      (ls) => {
        ls.push({ ...ls[1]! });
        return [{ code: 'COPILOT_DUPLICATE_EVENT_ID', file: 'events.jsonl', line: ls.length, severity: 'error' }];
      },
      // The copy keeps the time of the line it copies.
      { allow: ['TIME_BACKWARDS'] },
    ),
  );
  cases.push(
    homeCase(
      'shutdown-start',
      "The last session.shutdown names a start time one second after the log's session.start (a log made by " +
        'hand, or two sessions spliced): the CLI writes the start time of its session in every shutdown.',
      ['COPILOT_SHUTDOWN_START'],
      (ls) => {
        const i = ls.map((l) => l.type).lastIndexOf('session.shutdown');
        const d = ls[i]!.data;
        ls[i] = { ...ls[i]!, data: { ...d, sessionStartTime: (d.sessionStartTime as number) + 1000 } };
        return [{ code: 'COPILOT_SHUTDOWN_START', file: 'events.jsonl', line: i + 1, severity: 'error' }];
      },
    ),
  );
  cases.push(
    homeCase(
      'resume-count',
      'Two lines (a postToolUse hook pair) removed from the first lifetime of the log: session.resume counts the ' +
        'lines that were there when it was written, the trace an edit or a /rewind before a resume leaves.',
      ['COPILOT_RESUME_COUNT'],
      (ls) => {
        const i = lineNo(ls, 'hook.start') - 1;
        ls.splice(i, 2);
        return [
          { code: 'COPILOT_RESUME_COUNT', file: 'events.jsonl', line: lineNo(ls, 'session.resume'), severity: 'error' },
        ];
      },
    ),
  );
  cases.push(
    homeCase(
      'rewound',
      'The log truncated at the second prompt, as /rewind leaves it (no line says so): the rewind snapshot of that ' +
        'prompt names an event the log no longer holds, and the store still counts its turn.',
      ['COPILOT_REWIND_EVENT_MISSING', 'COPILOT_STORE_TURNS'],
      (ls) => {
        ls.splice(lineNo(ls, 'user.message', 1) - 1);
        return [
          { code: 'COPILOT_REWIND_EVENT_MISSING', file: 'rewind-snapshots/index.json', severity: 'warning' },
          { code: 'COPILOT_STORE_TURNS', file: 'session-store.db', severity: 'warning' },
        ];
      },
    ),
  );
  cases.push(
    homeCase(
      'id-mismatch',
      "The main session's workspace.yaml names another session id than its directory (a directory copied under " +
        'another name, or a fork made by hand).',
      ['COPILOT_ID_MISMATCH'],
      () => [],
      {
        late: (f, s) => {
          f.set(`${DIR}/workspace.yaml`, s.workspace({ id: COPILOT_IDS.gone }));
          return [{ code: 'COPILOT_ID_MISMATCH', file: 'workspace.yaml', severity: 'error' }];
        },
      },
    ),
  );
  cases.push(
    homeCase(
      'no-events',
      'A session directory with workspace.yaml and its checkpoint index only: a session opened and never prompted ' +
        '(the CLI writes events.jsonl at the first prompt). A note, never worse.',
      ['COPILOT_NO_EVENTS'],
      () => [],
      {
        maxSeverity: 'note',
        late: (f) => {
          const s = new CopilotLog(COPILOT_IDS.gone, CWD, T0 + 200_000_000, 0x5b2f);
          f.set(`session-state/${COPILOT_IDS.gone}/workspace.yaml`, s.workspace({ name: 'Untitled' }));
          f.set(`session-state/${COPILOT_IDS.gone}/checkpoints/index.md`, CHECKPOINT_INDEX);
          return [{ code: 'COPILOT_NO_EVENTS', file: 'workspace.yaml', severity: 'note' }];
        },
      },
    ),
  );
  cases.push(
    homeCase(
      'legacy-layouts',
      'A flat session-state/<id>.jsonl (CLI 0.0.342 to 0.0.37x) and a legacy history-session-state file (0.0.34x) ' +
        'beside the directories: older layouts, read as they are. Notes.',
      ['COPILOT_LEGACY_LAYOUT'],
      () => [],
      {
        maxSeverity: 'note',
        late: (f) => {
          const s = new CopilotLog(COPILOT_IDS.gone, CWD, T0 - 86_400_000, 0x5b30, 'unknown');
          s.start();
          s.user('List the files.');
          s.turn('0', '', [['bash', { command: 'ls', description: 'List' }, 'src\n<exited with exit code 0>']]);
          s.reply('1', 'One folder, src.');
          f.set(`session-state/${COPILOT_IDS.gone}.jsonl`, s.render());
          const start = T0 - 2 * 86_400_000;
          f.set(
            `history-session-state/session_${COPILOT_IDS.legacy}_${start}.json`,
            `${JSON.stringify(
              {
                sessionId: COPILOT_IDS.legacy,
                startTime: new Date(start).toISOString(),
                chatMessages: [
                  { role: 'user', content: 'What is in src?' },
                  {
                    role: 'assistant',
                    content: '',
                    tool_calls: [
                      {
                        id: 'call_legacy01',
                        type: 'function',
                        function: { name: 'bash', arguments: '{"command":"ls src"}' },
                      },
                    ],
                  },
                  { role: 'tool', tool_call_id: 'call_legacy01', content: 'parser.rs' },
                  { role: 'assistant', content: 'One file, parser.rs.' },
                ],
                timeline: [
                  { id: 'a', timestamp: new Date(start).toISOString(), type: 'user', text: 'What is in src?' },
                ],
              },
              null,
              2,
            )}\n`,
          );
          return [
            { code: 'COPILOT_LEGACY_LAYOUT', file: `${COPILOT_IDS.gone}.jsonl`, severity: 'note' },
            { code: 'COPILOT_LEGACY_LAYOUT', file: `session_${COPILOT_IDS.legacy}_${start}.json`, severity: 'note' },
          ];
        },
      },
    ),
  );
  cases.push(
    homeCase(
      'both-layouts',
      'The main session in both layouts: a flat session-state/<id>.jsonl beside session-state/<id>/events.jsonl, ' +
        'which starts with it (a migration). Both are audited.',
      ['COPILOT_BOTH_LAYOUTS', 'COPILOT_LEGACY_LAYOUT'],
      () => [],
      {
        allow: ['LINEAGE_DUPLICATE_ID'],
        late: (f, s) => {
          const flat = s.render(
            s.lines.slice(
              0,
              s.lines.findIndex((l) => l.type === 'session.resume'),
            ),
          );
          f.set(`session-state/${COPILOT_IDS.main}.jsonl`, flat);
          return [{ code: 'COPILOT_BOTH_LAYOUTS', file: `${COPILOT_IDS.main}.jsonl`, severity: 'note' }];
        },
      },
    ),
  );
  cases.push(
    homeCase(
      'in-use',
      'The main session holds an inuse.<pid>.lock: it was live when copied, or its process died. A note.',
      ['COPILOT_IN_USE'],
      () => [],
      {
        maxSeverity: 'note',
        late: (f) => {
          f.set(`${DIR}/inuse.45268.lock`, '45268\n');
          return [{ code: 'COPILOT_IN_USE', file: 'inuse.45268.lock', severity: 'note' }];
        },
      },
    ),
  );
  cases.push(
    homeCase(
      'store-turns',
      'session-store.db counts three turns for the main session, whose log holds two prompts: the store saw a ' +
        'prompt the log no longer has.',
      ['COPILOT_STORE_TURNS'],
      () => [{ code: 'COPILOT_STORE_TURNS', file: 'session-store.db', severity: 'warning' }],
      { turns: { main: 3 } },
    ),
  );
  cases.push(
    homeCase(
      'store-session-gone',
      'session-store.db lists a session that has no files under session-state/: deleted with /session delete (its ' +
        'store row survives), or a home copied in part. A note.',
      ['COPILOT_STORE_SESSION_GONE'],
      () => [{ code: 'COPILOT_STORE_SESSION_GONE', file: 'session-store.db', severity: 'note' }],
      { turns: { extra: [COPILOT_IDS.gone] }, maxSeverity: 'note' },
    ),
  );
  cases.push(
    homeCase(
      'store-unreadable',
      'session-store.db has the SQLite header and nothing a database needs after it: SQLite cannot read it.',
      ['COPILOT_STORE_UNREADABLE'],
      () => [],
      {
        late: (f) => {
          const b = Buffer.alloc(4096);
          b.write('SQLite format 3\u0000', 0, 'latin1');
          b.fill(0xee, 16);
          f.set('session-store.db', b);
          f.delete('session-store.db-wal');
          return [{ code: 'COPILOT_STORE_UNREADABLE', file: 'session-store.db', severity: 'warning' }];
        },
      },
    ),
  );
  cases.push(
    homeCase(
      'store-integrity',
      "session-store.db's header claims free pages the database does not have: SQLite's integrity check fails (the " +
        'store was damaged, or edited with a hex editor).',
      ['COPILOT_STORE_INTEGRITY'],
      () => [],
      {
        late: (f) => {
          const db = Buffer.from(f.get('session-store.db') as Buffer);
          db.writeUInt32BE(7, 36);
          f.set('session-store.db', db);
          return [{ code: 'COPILOT_STORE_INTEGRITY', file: 'session-store.db', severity: 'error' }];
        },
      },
    ),
  );
  cases.push(
    homeCase(
      'store-wal-foreign',
      'A -wal of another database (another page size) beside session-store.db: SQLite would lay its pages over the ' +
        "store's; the store is read without it, and then misses the turn its own -wal held.",
      ['COPILOT_STORE_WAL_FOREIGN', 'COPILOT_STORE_TURNS'],
      () => [],
      {
        late: (f) => {
          const other = walPair(
            storeDb([], 1024),
            storeDb([{ id: COPILOT_IDS.gone, cwd: CWD, turns: 1, at: '' }], 1024),
          );
          f.set('session-store.db-wal', other.wal);
          return [{ code: 'COPILOT_STORE_WAL_FOREIGN', file: 'session-store.db-wal', severity: 'error' }];
        },
      },
    ),
  );
  cases.push(
    homeCase(
      'denied-call',
      'A call the user denied at the permission prompt, then Ctrl+C (real CLI 1.0.60 files): the CLI writes no ' +
        'completion for it, and the denial stands for its result. A note, never worse.',
      ['TOOL_SYNTHETIC_RESULT'],
      (ls, s) => {
        // The second lifetime goes on: a denied command, a reply, the shutdown.
        ls.pop();
        s.lines.pop();
        const before = s.lines.length;
        s.denied('2', 'rm -rf target');
        s.reply('3', 'Stopped; nothing was removed.');
        s.shutdown();
        const added = s.lines.splice(before);
        added[0]!.parentId = ls.at(-1)!.id;
        ls.push(...added);
        const line = lineNo(ls, 'permission.completed', 1);
        return [{ code: 'TOOL_SYNTHETIC_RESULT', file: 'events.jsonl', line, severity: 'note' }];
      },
      { maxSeverity: 'note' },
    ),
  );
  cases.push(
    homeCase(
      'ephemeral-on-disk',
      'An assistant.message_delta line in the log: an ephemeral event the CLI never writes to events.jsonl (an SDK ' +
        'client, a log tool or an edit wrote it).',
      ['SCHEMA_NOT_PERSISTED'],
      (ls) => {
        const i = lineNo(ls, 'assistant.message');
        ls.splice(i, 0, {
          type: 'assistant.message_delta',
          data: { messageId: 'm', deltaContent: 'Ret' },
          id: '5b2d0000-0000-4000-8000-0000000000ff',
          timestamp: ls[i - 1]!.timestamp,
          parentId: ls[i - 1]!.id,
        });
        return [{ code: 'SCHEMA_NOT_PERSISTED', file: 'events.jsonl', line: i + 1, severity: 'warning' }];
      },
      { allow: ['COPILOT_RESUME_COUNT'] },
    ),
  );
  return cases;
}

/** What the corpus builder writes for Copilot CLI: format, agent, layout, clean home, cases. */
export const copilotCorpus = (): [string, string, string, Files, Case[]] => [
  'copilot',
  'GitHub Copilot CLI',
  COPILOT_LAYOUT,
  copilotCleanTree(),
  copilotCases(),
];
