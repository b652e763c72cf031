/**
 * The opencode corpora: a clean data directory (an E3 database with a session that runs a shell command, edits a
 * file and delegates to a subagent in a child session, the event log of every state its parts went through, and
 * the storage/ leftovers) and one damaged directory per finding code of the opencode checks, plus the pairing
 * cases of its one-row-per-call model. Synthetic, shaped like the real files in ../shared/external/opencode.
 */
import type { Case, Files } from './case-kit.js';
import { inWalMode, walHolding } from './hermes-builder.js';
import {
  e0Tree,
  e1Tree,
  opencodeDb,
  type DbOptions,
  type Json,
  type OcMessageSpec,
  type OcSessionSpec,
} from './opencode-builder.js';

const T0 = Date.UTC(2026, 5, 20, 10, 0, 0);
export const OC_IDS = {
  main: 'ses_1f3a6c2e8ffeQk7dWvYp0ZrN2a',
  child: 'ses_1f3a6b9d1ffeTm4xLs8HcBq9Ue',
};
const CWD = '/home/dev/app';
const id = (prefix: string, n: number, tail: string) =>
  `${prefix}_${(0xe06fd5a00000 + n * 0x1000).toString(16)}${tail}`;

const user = (n: number, t: number, text: string, sessionTail = 'Aa1Bb2Cc3Dd4Ee'): OcMessageSpec => ({
  id: id('msg', n, sessionTail),
  time: t,
  data: {
    role: 'user',
    time: { created: t },
    summary: { diffs: [] },
    agent: 'build',
    model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' },
  },
  parts: [{ id: id('prt', n, sessionTail), time: t + 2, data: { type: 'text', text } }],
});

const assistant = (
  n: number,
  t: number,
  parent: string,
  finish: string,
  parts: OcMessageSpec['parts'],
  extra: Json = {},
): OcMessageSpec => ({
  id: id('msg', n, 'Ff5Gg6Hh7Ii8Jj'),
  time: t,
  data: {
    role: 'assistant',
    time: { created: t, completed: t + 4000 },
    parentID: parent,
    modelID: 'claude-sonnet-4',
    providerID: 'anthropic',
    mode: 'build',
    agent: 'build',
    path: { cwd: CWD, root: CWD },
    cost: 0.0123,
    tokens: { input: 1200, output: 80, reasoning: 0, cache: { read: 0, write: 0 } },
    finish,
    ...extra,
  },
  parts,
});

/** A tool part completed (with the pending and running states E3's event log keeps). */
export function toolPart(
  n: number,
  t: number,
  callID: string,
  tool: string,
  input: Json,
  output: string,
  metadata: Json = {},
) {
  return {
    id: id('prt', n, 'Kk9Ll0Mm1Nn2Oo'),
    time: t,
    history: [
      { type: 'tool', callID, tool, state: { status: 'pending', input: {}, raw: '' } },
      { type: 'tool', callID, tool, state: { status: 'running', input, time: { start: t + 10 } } },
    ],
    data: {
      type: 'tool',
      callID,
      tool,
      state: { status: 'completed', input, output, title: '', metadata, time: { start: t + 10, end: t + 900 } },
    },
  };
}

const text = (n: number, t: number, s: string) => ({
  id: id('prt', n, 'Pp3Qq4Rr5Ss6Tt'),
  time: t,
  data: { type: 'text', text: s },
});
const step = (n: number, t: number) => ({
  id: id('prt', n, 'Uu7Vv8Ww9Xx0Yy'),
  time: t,
  data: { type: 'step-start', snapshot: '172518e5a5ba0bde1015fa201d2185b90569e135' },
});
const finishPart = (n: number, t: number, reason: string) => ({
  id: id('prt', n, 'Zz1Aa2Bb3Cc4Dd'),
  time: t,
  data: {
    type: 'step-finish',
    reason,
    cost: 0.0123,
    tokens: { input: 1200, output: 80, reasoning: 0, cache: { read: 0, write: 0 } },
  },
});

/** The main session's own rules; its subagent's child derives the denies (task.ts:125-156). */
const MAIN_RULES = [
  { permission: 'bash', pattern: '*', action: 'ask' },
  { permission: 'webfetch', pattern: '*', action: 'deny' },
];
const CHILD_RULES = [
  { permission: 'webfetch', pattern: '*', action: 'deny' },
  { permission: 'todowrite', pattern: '*', action: 'deny' },
  { permission: 'task', pattern: '*', action: 'deny' },
];

/** The main session: a prompt, a shell command and an edit, a subagent, the answer. */
export function mainSession(): OcSessionSpec {
  const u = user(1, T0, 'Add a /health endpoint and run the tests.');
  return {
    id: OC_IDS.main,
    title: 'Add a health endpoint',
    permission: MAIN_RULES,
    time: T0 - 50,
    updated: T0 + 60000,
    directory: CWD,
    messages: [
      u,
      assistant(2, T0 + 1000, u.id, 'tool-calls', [
        step(3, T0 + 1100),
        toolPart(
          4,
          T0 + 1200,
          'toolu_01bash',
          'bash',
          { command: 'npm test', description: 'Run the tests' },
          '12 passing',
          { exit: 0 },
        ),
        toolPart(
          5,
          T0 + 2200,
          'toolu_02edit',
          'edit',
          {
            filePath: `${CWD}/src/server.ts`,
            oldString: 'app.listen(',
            newString: "app.get('/health', ok);\napp.listen(",
          },
          'Edit applied successfully.',
        ),
        finishPart(6, T0 + 3200, 'tool-calls'),
      ]),
      assistant(7, T0 + 6000, u.id, 'tool-calls', [
        step(8, T0 + 6100),
        toolPart(
          9,
          T0 + 6200,
          'toolu_03task',
          'task',
          { description: 'Find the routes', prompt: 'List the route files.', subagent_type: 'explore' },
          `<task id="${OC_IDS.child}" state="completed"><task_result>src/server.ts</task_result></task>`,
          { sessionId: OC_IDS.child },
        ),
        finishPart(10, T0 + 30000, 'tool-calls'),
      ]),
      assistant(11, T0 + 31000, u.id, 'stop', [
        step(12, T0 + 31100),
        text(13, T0 + 31200, 'Added GET /health; the tests pass.'),
        finishPart(14, T0 + 32000, 'stop'),
      ]),
    ],
  };
}

/** The subagent's child session (parent_id: the main session). */
export function childSession(): OcSessionSpec {
  const u = user(20, T0 + 6300, 'List the route files.', 'Ee5Ff6Gg7Hh8Ii');
  return {
    id: OC_IDS.child,
    title: 'Find the routes (@explore subagent)',
    time: T0 + 6250,
    updated: T0 + 29000,
    parentId: OC_IDS.main,
    directory: CWD,
    permission: CHILD_RULES,
    messages: [
      u,
      assistant(21, T0 + 7000, u.id, 'stop', [
        step(22, T0 + 7100),
        toolPart(23, T0 + 7200, 'toolu_04grep', 'grep', { pattern: 'app.get', path: 'src' }, 'src/server.ts:3'),
        text(24, T0 + 8200, 'src/server.ts'),
        finishPart(25, T0 + 8300, 'stop'),
      ]),
    ],
  };
}

const sessions = (): OcSessionSpec[] => [mainSession(), childSession()];

/** A data directory: the database (in WAL mode, checkpointed: no -wal) and the storage/ leftovers of 1.2+. */
export function opencodeHome(db: Buffer, extra: Files = new Map()): Files {
  const f: Files = new Map();
  f.set('opencode.db', inWalMode(db));
  f.set('storage/migration', '2');
  f.set(`storage/session_diff/${OC_IDS.main}.json`, '[]');
  for (const [k, v] of extra) f.set(k, v);
  return f;
}

const e3 = (s: OcSessionSpec[] = sessions(), o: Partial<DbOptions> = {}): Buffer => opencodeDb(s, { era: 'E3', ...o });

export const opencodeCleanTree = (): Files => opencodeHome(e3());

export const OPENCODE_LAYOUT =
  'an opencode data directory (`opencode.db` with its `-wal`, `storage/`, `project/<dir>/storage/`, `auth.json`)';

/** The main session with its `k`-th message's parts edited. */
function editSession(edit: (s: OcSessionSpec) => void): OcSessionSpec[] {
  const s = sessions();
  edit(s[0]!);
  return s;
}

const toolData = (s: OcSessionSpec, msg: number, part: number): Json => s.messages[msg]!.parts[part]!.data;

export function opencodeCases(): Case[] {
  const wal = e3();
  return [
    {
      name: 'wal-uncheckpointed',
      description:
        'every row is still in opencode.db-wal, committed and never checkpointed (opencode was killed): the main ' +
        'file holds only the header, as in a real capture; the audit reads the rows through the log',
      must: ['OPENCODE_WAL_UNCHECKPOINTED'],
      maxSeverity: 'note',
      files: opencodeHome(Buffer.alloc(0), new Map([['opencode.db-wal', walHolding(wal)]])).set(
        'opencode.db',
        (() => {
          const blank = Buffer.alloc(wal.length);
          wal.copy(blank, 0, 0, 100);
          return inWalMode(blank);
        })(),
      ),
    },
    {
      name: 'wal-without-db',
      description: 'opencode.db-wal and -shm without the database (a partial copy): nothing can be read',
      must: ['OPENCODE_WAL_WITHOUT_DB'],
      files: new Map<string, string | Buffer>([
        ['opencode.db-wal', walHolding(wal)],
        ['opencode.db-shm', Buffer.alloc(32768)],
        ['storage/migration', '2'],
      ]),
    },
    {
      name: 'db-unreadable',
      description: 'opencode.db is not a SQLite database (overwritten with text)',
      must: ['OPENCODE_DB_UNREADABLE'],
      files: opencodeHome(Buffer.from('not a database\n'.repeat(20))),
    },
    {
      name: 'db-too-large',
      description: 'the database is larger than --max-db-bytes (given small here): it is not copied or read',
      must: ['OPENCODE_DB_TOO_LARGE'],
      args: ['--max-db-bytes', '4096'],
      files: opencodeHome(e3()),
    },
    {
      name: 'db-integrity',
      description: "a session id changed inside the part table's session index: integrity_check reports it",
      must: ['OPENCODE_DB_INTEGRITY'],
      files: opencodeHome(
        e3(sessions(), { corruptIndex: { index: 'part_session_idx', from: OC_IDS.child, to: OC_IDS.main } }),
      ),
    },
    {
      name: 'db-read-partial',
      description: "the message table's page is damaged: reading the rows stops there (integrity_check says so too)",
      must: ['OPENCODE_DB_READ_PARTIAL'],
      allow: ['OPENCODE_DB_INTEGRITY'],
      files: opencodeHome(e3(sessions(), { corruptRoot: 'message' })),
    },
    {
      name: 'wal-foreign',
      description:
        "opencode.db-wal is another database's log (8192-byte pages, the database's 4096): the database is read " +
        'without it',
      must: ['OPENCODE_WAL_FOREIGN'],
      files: opencodeHome(e3(), new Map([['opencode.db-wal', walHolding(e3([childSession()], { pageSize: 8192 }))]])),
    },
    {
      name: 'row-unreadable',
      description: "a part row's data is not JSON (a foreign writer): opencode cannot load the session",
      must: ['OPENCODE_ROW_UNREADABLE'],
      allow: ['OPENCODE_EVENT_SEQUENCE'],
      files: opencodeHome(
        e3(sessions(), { edit: [`UPDATE part SET data = '{"type":"text","te' WHERE id LIKE 'prt_e06fd5a0d000%'`] }),
      ),
    },
    {
      name: 'parent-missing',
      description: "the child session's parent was deleted, the child left behind (a crash mid-delete)",
      must: ['OPENCODE_PARENT_MISSING'],
      files: opencodeHome(e3([childSession()])),
    },
    {
      name: 'legacy-not-imported',
      description:
        'an E0 `global` project tree (opencode 0.5.x, never migrated) beside the database: opencode cannot show ' +
        'its session',
      must: ['OPENCODE_LEGACY_NOT_IMPORTED'],
      files: opencodeHome(
        e3(),
        e0Tree([
          {
            id: 'ses_44234b4aeffe6EUGUjiyzSIEZV',
            title: 'New session - 2026-01-14T18:36:15.570Z',
            time: 1768415775570,
            messages: [
              {
                id: 'msg_bbdcb4b5e001Owgc7o4ioMeO43',
                time: 1768415775583,
                data: { role: 'user', time: { created: 1768415775583 } },
                parts: [{ id: 'prt_bbdcb4b5e002EYt9EZLZWiNB69', time: 0, data: { type: 'text', text: 'How are you' } }],
              },
            ],
          },
        ]),
      ),
    },
    {
      name: 'legacy-diverged',
      description:
        'the E1 tree the one-time import copied still holds a turn the database no longer has (reverted after ' +
        'the import)',
      must: ['OPENCODE_LEGACY_DIVERGED'],
      files: opencodeHome(
        e3(),
        e1Tree([
          {
            ...mainSession(),
            messages: [...mainSession().messages, user(40, T0 + 50000, 'And add a readiness probe.')],
          },
          childSession(),
        ]),
      ),
    },
    {
      name: 'time-imported',
      description:
        'an E2 database whose session came from the JSON import: every part carries the instant of the import, ' +
        'later than every message (a note, not a clock going backwards)',
      must: ['OPENCODE_TIME_IMPORTED'],
      maxSeverity: 'note',
      files: opencodeHome(
        opencodeDb(
          [childSession()].map((s) => ({ ...s, parentId: undefined as unknown as string })),
          {
            era: 'E2',
            edit: [`UPDATE part SET time_created = ${T0 + 86400000}, time_updated = ${T0 + 86400000}`],
          },
        ),
      ),
    },
    {
      name: 'time-column',
      description: "a message's time_created column is not its data's time.created (a foreign writer)",
      must: ['OPENCODE_TIME_COLUMN'],
      files: opencodeHome(e3(editSession((s) => (s.messages[0]!.column = T0 - 3600000)))),
    },
    {
      name: 'event-sequence',
      description: "E3's event log has a gap in one session's seq (an event row deleted outside opencode)",
      must: ['OPENCODE_EVENT_SEQUENCE'],
      files: opencodeHome(
        e3(sessions(), { edit: [`DELETE FROM event WHERE aggregate_id = '${OC_IDS.main}' AND seq = 3`] }),
      ),
    },
    {
      name: 'events-empty',
      description: 'an E3 database whose event log is empty (wiped by the 1.16.0 migration): only the rows remain',
      must: ['OPENCODE_EVENTS_EMPTY'],
      maxSeverity: 'note',
      files: opencodeHome(e3(sessions(), { noEvents: true })),
    },
    {
      name: 'migrations-unknown',
      description: 'the migration table lists an id no upstream release has (a fork build)',
      must: ['OPENCODE_MIGRATIONS_UNKNOWN'],
      maxSeverity: 'note',
      files: opencodeHome(e3(sessions(), { migrations: ['20260701120000_agent_teams'] })),
    },
    {
      name: 'secret-rows',
      description: 'the account table holds a console token: counted, never read or shown',
      must: ['OPENCODE_SECRET_ROWS'],
      maxSeverity: 'note',
      files: opencodeHome(
        e3(sessions(), {
          edit: [
            "INSERT INTO account VALUES ('acc_1', 'dev@example.com', 'https://opencode.ai', " +
              "'sk-oc-FAKE0000TOKEN0000NEVER0000SHOWN0000', 'rt-FAKE', NULL, 1, 1)",
          ],
        }),
      ),
    },
    {
      name: 'secret-file',
      description: 'auth.json (provider keys) beside the database: never read or shown',
      must: ['OPENCODE_SECRET_FILE'],
      maxSeverity: 'note',
      files: opencodeHome(
        e3(),
        new Map([['auth.json', '{\n  "anthropic": {\n    "type": "api",\n    "key": "sk-ant-api03-FAKE"\n  }\n}']]),
      ),
    },
    {
      name: 'permission-widened',
      description:
        "a session.updated event replaces the session's ruleset with one that allows bash and drops the webfetch " +
        'deny (a prompt `tools` map or an HTTP PATCH)',
      must: ['OPENCODE_PERMISSION_WIDENED'],
      files: opencodeHome(
        e3(
          editSession((s) => {
            s.permissionUpdates = [[{ permission: 'bash', pattern: '*', action: 'allow' }]];
          }),
        ),
      ),
    },
    {
      name: 'permission-child-widened',
      description: "the subagent's child session lacks its parent's webfetch deny (its ruleset was edited)",
      must: ['OPENCODE_PERMISSION_WIDENED'],
      files: opencodeHome(e3([mainSession(), { ...childSession(), permission: CHILD_RULES.slice(1) }])),
    },
    {
      name: 'revert-pending',
      description:
        'the user ran /undo to the first answer: session.revert names it, the two later messages are still there ' +
        'and the next prompt deletes them',
      must: ['OPENCODE_REVERT_PENDING'],
      maxSeverity: 'note',
      files: opencodeHome(
        e3(sessions(), {
          edit: [
            `UPDATE session SET revert = '{"messageID":"${mainSession().messages[1]!.id}"}' ` +
              `WHERE id = '${OC_IDS.main}'`,
          ],
        }),
      ),
    },
    {
      name: 'tool-interrupted',
      description:
        'the last assistant message never completed and its bash part is still running (opencode was killed ' +
        'mid-call): a call without a result, the tool may have run',
      must: ['TOOL_INTERRUPTED_CALL'],
      files: opencodeHome(
        e3(
          editSession((s) => {
            const m = s.messages[3]!;
            delete (m.data.time as Json).completed;
            delete m.data.finish;
            m.parts = [
              m.parts[0]!,
              {
                ...toolPart(50, T0 + 31150, 'toolu_09bash', 'bash', { command: 'npm run build' }, ''),
                data: {
                  type: 'tool',
                  callID: 'toolu_09bash',
                  tool: 'bash',
                  state: { status: 'running', input: { command: 'npm run build' }, time: { start: T0 + 31160 } },
                },
              },
            ];
          }),
        ),
      ),
    },
    {
      name: 'tool-unanswered',
      description:
        'a tool part left pending in a message opencode completed, the turn went on: nothing on disk says ' +
        'whether it ran',
      must: ['TOOL_UNANSWERED_CALL'],
      files: opencodeHome(
        e3(
          editSession((s) => {
            toolData(s, 1, 2).state = { status: 'pending', input: {}, raw: '' };
          }),
        ),
      ),
    },
    {
      name: 'tool-aborted',
      description: 'the user aborted a running call: opencode wrote "Tool execution aborted" itself (a note)',
      must: ['TOOL_SYNTHETIC_RESULT'],
      maxSeverity: 'note',
      files: opencodeHome(
        e3(
          editSession((s) => {
            toolData(s, 1, 1).state = {
              status: 'error',
              input: { command: 'npm test' },
              error: 'Tool execution aborted',
              metadata: { interrupted: true },
              time: { start: T0 + 1210, end: T0 + 1500 },
            };
          }),
        ),
      ),
    },
    {
      name: 'tool-duplicate',
      description: 'two tool parts of one message carry the same callID (rows written by another tool)',
      must: ['TOOL_DUPLICATE_RESULT'],
      files: opencodeHome(
        e3(
          editSession((s) => {
            toolData(s, 1, 2).callID = 'toolu_01bash';
          }),
        ),
      ),
    },
    {
      name: 'part-unknown-type',
      description: 'a part of a type this audit does not know (a newer opencode): a note, and nothing else breaks',
      must: ['SCHEMA_UNKNOWN_TYPE'],
      maxSeverity: 'note',
      files: opencodeHome(
        e3(
          editSession((s) => {
            s.messages[3]!.parts[1]!.data = { type: 'hologram', text: 'x' };
          }),
        ),
      ),
    },
    {
      name: 'tree-file-torn',
      description: 'an E1 message file cut short by a crash during its non-atomic write (and no database)',
      must: ['SESSION_FILE_UNPARSEABLE'],
      files: (() => {
        const t = e1Tree(sessions());
        const path = `storage/message/${OC_IDS.main}/${mainSession().messages[3]!.id}.json`;
        t.set(path, t.get(path)!.slice(0, 40));
        t.set('snapshot/.keep', '');
        return t as Files;
      })(),
      allow: ['TOOL_UNANSWERED_CALL', 'TOOL_INTERRUPTED_CALL'],
    },
  ];
}

/** The clean tree and the cases, as the corpus builder takes them. */
export const opencodeCorpus = (): [Files, Case[]] => [opencodeCleanTree(), opencodeCases()];
