/**
 * The Hermes corpora: a clean `~/.hermes` (a gateway session with its transcript and snapshot, a CLI session that
 * compressed into a child, a delegate sub-agent) and one damaged home per finding code of the Hermes checks.
 * Synthetic, shaped like the public homes described in formats/pi-hermes.md §2.8 (never copied).
 */
import { deepenContent, nestedJson, TOO_DEEP, type Case, type Files } from './case-kit.js';
import {
  type HermesSession,
  hotJournal,
  inWalMode,
  snapshot,
  stateDb,
  transcript,
  walHolding,
  walPair,
  withCounter,
} from './hermes-builder.js';

const T0 = Date.UTC(2026, 4, 12, 21, 16, 43) / 1000;

export const HERMES_IDS = {
  gateway: '20260512_231643_a1b2c3d4',
  cli: '20260512_233000_f01a35',
  compressed: '20260512_234500_c0ffee',
  delegate: '20260512_231700_d3l3g8',
};

/** The gateway session: a prompt, a terminal call and its result, the answer. */
function gateway(): HermesSession {
  return {
    id: HERMES_IDS.gateway,
    source: 'telegram',
    startedAt: T0,
    endedAt: T0 + 600,
    endReason: 'session_reset',
    messages: [
      { role: 'user', content: 'How full is the disk?', ts: T0 + 1 },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_df01', name: 'terminal', args: { command: 'df -h /' } }],
        ts: T0 + 4,
      },
      {
        role: 'tool',
        content: '{"output": "/dev/sda1 40G 31G 9G 78% /", "exit_code": 0, "error": null}',
        tool_call_id: 'call_df01',
        ts: T0 + 5,
      },
      { role: 'assistant', content: 'The root disk is 78% full (9 GB free).', ts: T0 + 8 },
    ],
  };
}

function delegate(): HermesSession {
  return {
    id: HERMES_IDS.delegate,
    source: 'tool',
    startedAt: T0 + 77,
    endedAt: T0 + 120,
    endReason: 'cli_close',
    parentId: HERMES_IDS.gateway,
    modelConfig: { _delegate_from: HERMES_IDS.gateway },
    messages: [
      { role: 'user', content: 'List the largest directories under /var.', ts: T0 + 78 },
      {
        role: 'assistant',
        tool_calls: [{ id: 'call_du01', name: 'terminal', args: { command: 'du -sh /var/* | sort -h | tail -3' } }],
        ts: T0 + 80,
      },
      {
        role: 'tool',
        content: '{"output": "2.1G /var/lib", "exit_code": 0, "error": null}',
        tool_call_id: 'call_du01',
        ts: T0 + 90,
      },
      { role: 'assistant', content: '/var/lib holds 2.1 GB.', ts: T0 + 95 },
    ],
  };
}

/** A CLI session that compressed its context into a child (the parent ends with `compression`). */
function cli(): HermesSession[] {
  const start = T0 + 797;
  return [
    {
      id: HERMES_IDS.cli,
      source: 'cli',
      startedAt: start,
      endedAt: start + 900,
      endReason: 'compression',
      messages: [
        { role: 'user', content: 'Refactor the backup script to use rsync.', ts: start + 2 },
        {
          role: 'assistant',
          tool_calls: [
            { id: 'call_cat01', name: 'read_file', args: { path: 'backup.sh' } },
            { id: 'call_ls01', name: 'terminal', args: { command: 'ls /mnt/backup' } },
          ],
          ts: start + 6,
        },
        {
          role: 'tool',
          content: '{"content": "#!/bin/sh\\ncp -r ~/data /mnt/backup"}',
          tool_call_id: 'call_cat01',
          ts: start + 7,
        },
        {
          role: 'tool',
          content: '{"output": "2026-05-11", "exit_code": 0, "error": null}',
          tool_call_id: 'call_ls01',
          ts: start + 7,
        },
        { role: 'assistant', content: 'The script copies with cp -r; switching to rsync -a --delete.', ts: start + 20 },
      ],
    },
    {
      id: HERMES_IDS.compressed,
      source: 'cli',
      startedAt: start + 900,
      parentId: HERMES_IDS.cli,
      messages: [
        {
          role: 'user',
          content: '[CONTEXT COMPACTION — REFERENCE ONLY] The user asked to use rsync…',
          ts: start + 900,
        },
        {
          role: 'assistant',
          tool_calls: [{ id: 'call_patch01', name: 'patch', args: { path: 'backup.sh', new: 'rsync -a --delete' } }],
          ts: start + 905,
        },
        { role: 'tool', content: '{"success": true}', tool_call_id: 'call_patch01', ts: start + 906 },
        { role: 'assistant', content: 'backup.sh now uses rsync -a --delete.', ts: start + 910 },
      ],
    },
  ];
}

export const hermesSessions = (): HermesSession[] => [gateway(), delegate(), ...cli()];

/** A Hermes home with `sessions` in its database and the gateway's and CLI's files for them. */
export function hermesHome(sessions: HermesSession[], db: Buffer = stateDb(sessions)): Files {
  const files: Files = new Map();
  files.set('config.yaml', 'model:\n  default: anthropic/claude-opus-4.6\nterminal:\n  backend: local\n');
  files.set('state.db', db);
  const gw = sessions.find((s) => s.id === HERMES_IDS.gateway);
  if (gw) {
    files.set(`sessions/${gw.id}.jsonl`, transcript(gw));
    files.set(`sessions/session_${gw.id}.json`, snapshot(gw));
    files.set(
      'sessions/sessions.json',
      `${JSON.stringify(
        {
          'agent:main:telegram:dm:4242': {
            session_key: 'agent:main:telegram:dm:4242',
            session_id: gw.id,
            platform: 'telegram',
            chat_type: 'dm',
          },
        },
        null,
        2,
      )}\n`,
    );
  }
  for (const s of sessions.filter((x) => x.source === 'cli')) files.set(`sessions/session_${s.id}.json`, snapshot(s));
  return files;
}

export const hermesCleanTree = (): Files => hermesHome(hermesSessions());

const edit = (f: (s: HermesSession[]) => void): HermesSession[] => {
  const s = hermesSessions();
  f(s);
  return s;
};
const byId = (s: HermesSession[], id: string): HermesSession => s.find((x) => x.id === id)!;

function walHome(torn: number): Files {
  const base = hermesSessions();
  const later = edit((s) => {
    byId(s, HERMES_IDS.gateway).messages.push({ role: 'user', content: 'Thanks!', ts: T0 + 300 });
  });
  const { db, wal } = walPair(stateDb(base), stateDb(later), torn);
  const files = hermesHome(later, db);
  // The transcript holds the turn the WAL holds: the audit must read the committed WAL frames to agree with it.
  files.set('state.db-wal', wal);
  return files;
}

/** The clean home with the gateway transcript's line `line` (1-based) nested TOO_DEEP levels deep. */
function deepTranscript(line: number): Files {
  const files = hermesCleanTree();
  const path = `sessions/${HERMES_IDS.gateway}.jsonl`;
  const ls = (files.get(path) as string).split('\n');
  ls[line - 1] = deepenContent(ls[line - 1]!);
  files.set(path, ls.join('\n'));
  return files;
}

/** The clean home's `sessions/` folder alone (the gateway transcript, the snapshots, the gateway index). */
const sessionsAlone = (): Files => new Map([...hermesCleanTree()].filter(([p]) => p.startsWith('sessions/')));

/** Parts of the clean home copied alone: each audited as Hermes, with the part that is absent named. */
function partCases(): Case[] {
  const dbAlone = (): Files => new Map([['state.db', stateDb(hermesSessions())]]);
  const missing = (file: string) => ({
    must: ['HERMES_PART_MISSING'],
    maxSeverity: 'warning' as const,
    at: [{ code: 'HERMES_PART_MISSING', file }],
    onlyAt: ['HERMES_PART_MISSING'],
  });
  return [
    {
      name: 'part-db-alone',
      description: "a folder holding only the clean home's state.db (recognised by its header and schema)",
      ...missing('sessions/'),
      files: dbAlone(),
    },
    {
      name: 'part-db-file',
      description: "the clean home's state.db given alone as a file argument",
      ...missing('sessions/'),
      target: 'state.db',
      files: dbAlone(),
    },
    {
      name: 'part-sessions-alone',
      description: "the clean home's sessions/ folder given alone, without state.db",
      ...missing('state.db'),
      target: 'sessions',
      files: sessionsAlone(),
    },
    {
      name: 'part-sessions-in-tree',
      description: "a tree holding the clean home's sessions/ folder and nothing else of the home",
      ...missing('state.db'),
      files: sessionsAlone(),
    },
  ];
}

export function hermesCases(): Case[] {
  const deepCalls = `[${nestedJson('"call_df01"')}]`;
  return [
    ...partCases(),
    {
      name: 'transcript-too-deep',
      description:
        `the gateway transcript's final answer wrapped in ${TOO_DEEP} nested objects: past the 512 levels the ` +
        'reader accepts, the line is not parsed',
      must: ['JSONL_TOO_DEEP'],
      allow: ['HERMES_ARTIFACTS_DISAGREE'],
      at: [{ code: 'JSONL_TOO_DEEP', file: `sessions/${HERMES_IDS.gateway}.jsonl`, line: 5 }],
      files: deepTranscript(5),
    },
    {
      name: 'db-json-unparseable',
      description:
        `state.db: the gateway's tool_calls nested ${TOO_DEEP} levels deep, and the delegate's model_config not ` +
        'JSON: neither is parsed, so the call is not read and its result answers none',
      must: ['HERMES_DB_JSON_UNPARSEABLE', 'HERMES_DB_TOOL_ORPHAN_RESULT'],
      allow: ['HERMES_ARTIFACTS_DISAGREE', 'HERMES_LINEAGE_INCONSISTENT'],
      files: hermesHome(
        hermesSessions(),
        stateDb(hermesSessions(), {
          edit: [
            `UPDATE messages SET tool_calls = '${deepCalls}' WHERE id = 2`,
            `UPDATE sessions SET model_config = '{"_delegate_from": ' WHERE id = '${HERMES_IDS.delegate}'`,
          ],
        }),
      ),
    },
    {
      name: 'db-wal-pending',
      description:
        'state.db in WAL mode with a committed transaction still only in state.db-wal (no -shm): it is read, ' +
        'so the transcript and the database agree',
      must: ['HERMES_DB_WAL_PENDING'],
      maxSeverity: 'note',
      files: walHome(0),
    },
    {
      name: 'db-wal-uncommitted',
      description: 'state.db-wal ends in two frames after its last commit (a transaction that never committed)',
      must: ['HERMES_DB_WAL_UNCOMMITTED', 'HERMES_DB_WAL_PENDING'],
      files: walHome(2),
    },
    {
      name: 'db-hot-journal',
      description:
        'a write interrupted in rollback-journal mode: state.db holds a half-written turn (a count that disagrees), ' +
        'state.db-journal the pages to restore; the rolled-back database agrees with the transcript',
      must: ['HERMES_DB_HOT_JOURNAL'],
      files: (() => {
        const base = hermesSessions();
        const half = edit((s) => {
          byId(s, HERMES_IDS.gateway).messages.push({ role: 'user', content: 'And /home?', ts: T0 + 400 });
          byId(s, HERMES_IDS.gateway).messageCount = 9;
        });
        const { db, journal } = hotJournal(stateDb(base), stateDb(half));
        const f = hermesHome(base, db);
        f.set('state.db-journal', journal);
        return f;
      })(),
    },
    {
      name: 'db-wal-foreign',
      description:
        "a clean state.db (checkpointed, written 212 times) with another home's state.db-wal beside it (a younger " +
        'database of one session, every page in its log): SQLite would read that database in its place and four of ' +
        'the five sessions would vanish; the log is left out and state.db read as it is',
      must: ['HERMES_DB_WAL_FOREIGN'],
      files: (() => {
        const f = hermesHome(hermesSessions(), withCounter(inWalMode(stateDb(hermesSessions())), 212));
        f.set('state.db-wal', walHolding(withCounter(inWalMode(stateDb([gateway()])), 9)));
        return f;
      })(),
    },
    {
      name: 'db-journal-foreign',
      description:
        'a clean state.db (written 212 times) with the hot state.db-journal of another database beside it (its ' +
        'original of page 1 was written 40 times): rolling it back would lay that database over this one; it is ' +
        'left out, nothing is rolled back',
      must: ['HERMES_DB_JOURNAL_FOREIGN'],
      files: (() => {
        const one = [gateway()];
        const more = [gateway()];
        more[0]!.messages.push({ role: 'user', content: 'And /home?', ts: T0 + 400 });
        const { journal } = hotJournal(withCounter(stateDb(one), 40), withCounter(stateDb(more), 41));
        const f = hermesHome(hermesSessions(), withCounter(stateDb(hermesSessions()), 212));
        f.set('state.db-journal', journal);
        return f;
      })(),
    },
    {
      name: 'db-read-partial',
      description:
        "the last leaf page of state.db's messages table is damaged (the CLI session's rows are long, so the table " +
        'spans several pages): the rows before it are read, the read stops there and says so',
      must: ['HERMES_DB_READ_PARTIAL', 'HERMES_DB_INTEGRITY'],
      files: (() => {
        const s = edit((x) => {
          for (const m of byId(x, HERMES_IDS.cli).messages)
            m.content = `${m.content ?? ''} ${'lorem ipsum '.repeat(250)}`;
        });
        return hermesHome(s, stateDb(s, { corruptLastLeaf: 'messages' }));
      })(),
    },
    {
      name: 'db-too-large',
      description: 'the clean home audited with --max-db-bytes 4096: state.db is larger, so it is not copied or read',
      must: ['HERMES_DB_TOO_LARGE'],
      args: ['--max-db-bytes', '4096'],
      files: hermesCleanTree(),
    },
    {
      name: 'db-unreadable',
      description: 'state.db is not a SQLite database (overwritten with text)',
      must: ['HERMES_DB_UNREADABLE'],
      files: new Map([...hermesCleanTree(), ['state.db', 'not a database\n']]),
    },
    {
      name: 'db-integrity',
      description: 'an index of state.db disagrees with its table (a row changed behind the index)',
      must: ['HERMES_DB_INTEGRITY'],
      allow: ['HERMES_DB_COUNTS', 'HERMES_ARTIFACTS_DISAGREE'],
      files: hermesHome(
        hermesSessions(),
        stateDb(hermesSessions(), { corruptIndex: { index: 'idx_sessions_source', from: 'telegram', to: 'telegrax' } }),
      ),
    },
    {
      name: 'db-schema',
      description: 'schema version 16 without the compression_locks table of its era (v14+)',
      must: ['HERMES_DB_SCHEMA'],
      files: hermesHome(hermesSessions(), stateDb(hermesSessions(), { without: ['compression_locks'] })),
    },
    {
      name: 'db-counts',
      description: "the gateway session's message_count says 6, it has 4 rows",
      must: ['HERMES_DB_COUNTS'],
      files: hermesHome(
        edit((s) => {
          byId(s, HERMES_IDS.gateway).messageCount = 6;
        }),
      ),
    },
    {
      name: 'db-tool-orphan',
      description:
        'a tool row of the gateway session in state.db answers a call id no assistant row made (its transcript is ' +
        'intact)',
      must: ['HERMES_DB_TOOL_ORPHAN_RESULT', 'HERMES_DB_TOOL_UNANSWERED'],
      files: hermesHome(
        hermesSessions(),
        stateDb(
          edit((s) => {
            byId(s, HERMES_IDS.gateway).messages[2]!.tool_call_id = 'call_gone01';
          }),
        ),
      ),
    },
    {
      name: 'db-tool-unanswered',
      description: "the result row of the gateway session's call is gone from state.db (its transcript has it)",
      must: ['HERMES_DB_TOOL_UNANSWERED', 'HERMES_DB_COUNTS'],
      allow: ['HERMES_ARTIFACTS_DISAGREE'],
      files: hermesHome(
        hermesSessions(),
        stateDb(
          edit((s) => {
            const g = byId(s, HERMES_IDS.gateway);
            g.messageCount = g.messages.length;
            g.messages.splice(2, 1);
          }),
        ),
      ),
    },
    {
      name: 'db-conversation-pairing',
      description:
        'a session state.db alone holds (no transcript) is paired like a transcript: a tool row of the CLI ' +
        'session answers a call no assistant row made',
      must: ['TOOL_ORPHAN_RESULT', 'TOOL_UNANSWERED_CALL'],
      allow: ['HERMES_ARTIFACTS_DISAGREE'],
      at: [
        { code: 'TOOL_ORPHAN_RESULT', file: 'state.db', line: 12 },
        { code: 'TOOL_UNANSWERED_CALL', file: 'state.db', line: 10 },
      ],
      files: hermesHome(
        edit((s) => {
          byId(s, HERMES_IDS.cli).messages[3]!.tool_call_id = 'call_gone01';
        }),
      ),
    },
    {
      name: 'lineage-parent-missing',
      description: 'the delegate sub-agent names a parent session that has no row',
      must: ['HERMES_LINEAGE_PARENT_MISSING'],
      files: hermesHome(
        edit((s) => {
          const d = byId(s, HERMES_IDS.delegate);
          d.parentId = '20260511_080000_9a9a9a9a';
          d.modelConfig = { _delegate_from: d.parentId };
        }),
      ),
    },
    {
      name: 'lineage-cycle',
      description: 'the CLI session and its compression child name each other as parents',
      must: ['HERMES_LINEAGE_CYCLE'],
      allow: ['HERMES_LINEAGE_INCONSISTENT'],
      files: hermesHome(
        edit((s) => {
          byId(s, HERMES_IDS.cli).parentId = HERMES_IDS.compressed;
        }),
      ),
    },
    {
      name: 'lineage-inconsistent',
      description: 'the compression child starts ten minutes before its parent ended',
      must: ['HERMES_LINEAGE_INCONSISTENT'],
      files: hermesHome(
        edit((s) => {
          byId(s, HERMES_IDS.compressed).startedAt -= 600;
        }),
      ),
    },
    {
      name: 'artifacts-disagree',
      description: 'the gateway transcript lacks the tool call and its result that state.db holds',
      must: ['HERMES_ARTIFACTS_DISAGREE'],
      files: (() => {
        const f = hermesCleanTree();
        const gw = gateway();
        f.set(`sessions/${gw.id}.jsonl`, transcript(gw, true, [gw.messages[0]!, gw.messages[3]!]));
        return f;
      })(),
    },
    {
      name: 'snapshot-longer',
      description:
        'the CLI snapshot keeps a turn that /retry removed from state.db (Hermes never rewrites a snapshot shorter): ' +
        'a note, not a warning',
      must: ['HERMES_ARTIFACTS_DISAGREE'],
      maxSeverity: 'note',
      files: (() => {
        const s = hermesSessions();
        const c = byId(s, HERMES_IDS.cli);
        const f = hermesHome(s);
        const longer = [
          ...c.messages,
          { role: 'user' as const, content: 'Also keep 7 daily copies.', ts: c.startedAt + 30 },
        ];
        f.set(`sessions/session_${c.id}.json`, snapshot(c, longer));
        return f;
      })(),
    },
    {
      name: 'not-in-db',
      description:
        'a CLI snapshot, and a gateway route to it, whose session state.db does not hold (deleted, or older than ' +
        'the database)',
      must: ['HERMES_ARTIFACT_NOT_IN_DB'],
      maxSeverity: 'note',
      at: [
        { code: 'HERMES_ARTIFACT_NOT_IN_DB', file: 'sessions/session_20260210_101010_0ld5e5.json' },
        { code: 'HERMES_ARTIFACT_NOT_IN_DB', file: 'sessions/sessions.json' },
      ],
      onlyAt: ['HERMES_ARTIFACT_NOT_IN_DB'],
      files: (() => {
        const f = hermesCleanTree();
        const old: HermesSession = { ...gateway(), id: '20260210_101010_0ld5e5', source: 'cli' };
        f.set(`sessions/session_${old.id}.json`, snapshot(old));
        const index = JSON.parse(String(f.get('sessions/sessions.json'))) as Record<string, unknown>;
        index['agent:main:discord:dm:77'] = { session_key: 'agent:main:discord:dm:77', session_id: old.id };
        f.set('sessions/sessions.json', `${JSON.stringify(index, null, 2)}\n`);
        return f;
      })(),
    },
  ];
}
