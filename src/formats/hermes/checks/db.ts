/**
 * HERMES_DB_*: what the audit finds in `state.db` itself (formats/pi-hermes.md §2.2, §2.6): whether a consistent
 * copy could be read, SQLite's own integrity check, committed transactions still only in the write-ahead log, the
 * schema version and the tables and columns of its era, and the counters Hermes keeps beside the rows.
 */
import { defineCheck } from '../../../checks/define.js';
import { MAX_JSON_DEPTH } from '../../../model/records.js';
import { DB_KIND, type DbFacts } from '../db/facts.js';
import { KNOWN_SCHEMA_VERSION, expectedAt } from '../db/eras.js';

export const isDbFacts = (v: unknown): v is DbFacts =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as DbFacts).sessions) &&
  (v as DbFacts).rowCounts instanceof Map;

const GIB = 1024 * 1024 * 1024;
const size = (b: number): string => (b >= GIB ? `${(b / GIB).toFixed(2)} GiB` : `${b} bytes`);

export const hermesDb = defineCheck({
  id: 'hermes-db',
  validate: true,
  codes: {
    HERMES_DB_UNREADABLE: {
      severity: 'error',
      title: "Hermes's state.db could not be read",
      help:
        'state.db is the canonical store of every Hermes session since schema v1 (2026-02-19). The audit copies it ' +
        'with its -wal and -shm into a private directory and opens the copy read-only with SQLite; the message says ' +
        'why that failed: not a SQLite database, a file that changed on every one of three copies (Hermes was ' +
        'writing: stop it, or capture the home while it is stopped), or SQLite refusing the file. Nothing in the ' +
        'database was checked, so nothing about it is clean.',
    },
    HERMES_DB_TOO_LARGE: {
      severity: 'error',
      title: "Hermes's state.db is larger than the database-size cap, and was not read",
      help:
        'The audit copies state.db with its -wal and -journal into a private temporary directory before SQLite ' +
        'opens it; above the cap (2 GiB by default; --max-db-bytes) nothing is copied or read, so nothing in the ' +
        'database was checked and nothing about it is clean. The message gives the size. Audit it again with a ' +
        'larger --max-db-bytes where the temporary directory ($TMPDIR) has room for the copy; the rows are read ' +
        'one at a time, so memory does not grow with the database.',
    },
    HERMES_DB_WAL_FOREIGN: {
      severity: 'error',
      title: 'The write-ahead log beside state.db is not its own, and was left out',
      help:
        'SQLite reads any state.db-wal it finds beside the database, whatever wrote it: the frames of another ' +
        "database's log replace this one's pages, and sessions vanish without an error. This log does not belong: " +
        'the message says why (a page size other than the database’s, a database in rollback-journal mode, which ' +
        'keeps no WAL, a copy of page 1 whose fixed header fields or change counter another database wrote, or ' +
        'frames that make a damaged database of an intact one). The audit read state.db without it, as it is, and ' +
        "reports what it holds. Hermes's next open would apply the foreign frames and checkpoint them into " +
        'state.db: keep the evidence as captured (bundle it) and find where the -wal came from (a copy or restore ' +
        'of one file without the other).',
    },
    HERMES_DB_JOURNAL_FOREIGN: {
      severity: 'error',
      title: 'The rollback journal beside state.db is not its own, and was left out',
      help:
        'SQLite rolls back any hot state.db-journal on the next open that can write (Hermes starts do): the pages ' +
        "of another database's journal overwrite this one's, and its recorded size truncates it. This journal does " +
        'not belong: the message says why (a page size other than the database’s, an original of page 1 whose ' +
        'fixed header fields another database wrote, or whose change counter is neither the database’s nor one ' +
        'less, as an interrupted write of this database leaves it). The audit read state.db without rolling it ' +
        'back. Bundle the home before Hermes starts again.',
    },
    HERMES_DB_READ_PARTIAL: {
      severity: 'error',
      title: 'Reading the message rows of state.db stopped part way',
      help:
        'SQLite failed while the rows were being read, one at a time (a damaged page, usually reported by ' +
        'integrity_check too): the rows before the failure were checked, the ones after were not. The message ' +
        "gives SQLite's error.",
    },
    HERMES_DB_INTEGRITY: {
      severity: 'error',
      title: 'SQLite integrity_check reports damage in state.db',
      help:
        '`PRAGMA integrity_check` lists damaged pages, indexes that disagree with their tables, or a malformed ' +
        'schema. Hermes reacts to "malformed database schema" by copying the files to ' +
        '`state.db.malformed-backup-<time>` and rebuilding sqlite_master or the FTS tables (repair_state_db_schema); ' +
        'rows on damaged pages are lost to it. Keep the evidence as captured (bundle it) before Hermes opens it again.',
    },
    HERMES_DB_WAL_PENDING: {
      severity: 'note',
      title: 'Committed transactions of state.db are still only in its write-ahead log',
      help:
        'The -wal holds committed frames that were not yet checkpointed into state.db: they are part of the ' +
        'database (Hermes and this audit read them), but a copy of state.db alone, without its -wal, lacks them. ' +
        'Capture and hash the three files together (`bundle` does).',
    },
    HERMES_DB_WAL_UNCOMMITTED: {
      severity: 'warning',
      title: 'The write-ahead log of state.db ends in frames that are not part of the database',
      help:
        'Frames after the last commit frame (a transaction that was being written when Hermes stopped, or a torn ' +
        'write), or a WAL header that does not check out: SQLite ignores them, so what they held was never in ' +
        'the database. The message says which. A torn tail after a crash is the usual cause; frames after a ' +
        'checksum break in the middle point to damage.',
    },
    HERMES_DB_HOT_JOURNAL: {
      severity: 'warning',
      title: 'A rollback journal beside state.db holds an interrupted write',
      help:
        'state.db-journal exists: a transaction was being written in rollback-journal mode (Hermes falls back to ' +
        'it on network file systems) when the process stopped, and state.db may hold half of it. SQLite rolls it ' +
        "back on the next open that can write, which Hermes's next start does: the evidence changes then. The audit " +
        'rolled back its private copy the same way and read that; bundle the home (the journal included) before ' +
        'Hermes starts again.',
    },
    HERMES_DB_SCHEMA: {
      severity: 'warning',
      title: "state.db's schema version is missing, unknown or does not match its tables",
      help:
        'Hermes records its schema version in `schema_version` (v1 … v16 as of 2026-06) and brings a database to ' +
        'the current version on every open. A missing version, one newer than this audit knows, several rows, or ' +
        "a table or column of the recorded version's era that is missing means the database was written by " +
        'another tool or build, or damaged: what the rows mean may differ from what this audit assumes. Newer ' +
        'columns than the version are normal (Hermes adds missing columns on every open).',
    },
    HERMES_DB_COUNTS: {
      severity: 'warning',
      title: "A session's message_count in state.db does not match its message rows",
      help:
        'Hermes keeps `sessions.message_count` up to date as it appends or replaces messages. A count that differs ' +
        'from the rows of the session means rows were deleted or inserted behind Hermes (a hand edit, another ' +
        'tool, a partial restore). Rewound rows (active = 0, v15+) still count as rows, so they are compared both ' +
        'ways.',
    },
    HERMES_DB_JSON_UNPARSEABLE: {
      severity: 'warning',
      title: 'A JSON column of state.db does not parse',
      help:
        "A message row's `tool_calls` or a session row's `model_config` that is not valid JSON (a tool_calls that " +
        `is not a list), or that nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep, which this audit ` +
        'does not parse. Hermes writes both with json.dumps: another tool or a damaged page wrote this one. The ' +
        "row's tool calls (or the session's lineage markers) are not read, so a result row answering one of those " +
        'calls is reported as answering none.',
    },
  },
  create(ctx) {
    return {
      doc({ kind, value }) {
        if (kind !== DB_KIND || !isDbFacts(value)) return;
        const db = value;
        const at = (pointer?: string) => (pointer === undefined ? { file: db.file } : { file: db.file, pointer });
        if (db.tooLarge) {
          ctx.emit(
            'HERMES_DB_TOO_LARGE',
            at(),
            `state.db with its -wal and -journal is ${size(db.tooLarge.bytes)}, over the ${size(db.tooLarge.cap)} ` +
              'cap (--max-db-bytes): not copied, not read',
          );
          return;
        }
        if (db.error !== undefined) {
          ctx.emit('HERMES_DB_UNREADABLE', at(), db.error);
          return;
        }
        if (db.walForeign)
          ctx.emit(
            'HERMES_DB_WAL_FOREIGN',
            { file: `${db.file}-wal` },
            `the -wal is not this database's (${db.walForeign.join('; ')}): state.db was read without it, and ` +
              `holds ${db.sessions.length} session(s) and ${db.messageRows} message row(s)`,
          );
        if (db.journalForeign)
          ctx.emit(
            'HERMES_DB_JOURNAL_FOREIGN',
            { file: `${db.file}-journal` },
            `the -journal is not this database's (${db.journalForeign.join('; ')}): state.db was read without ` +
              `rolling it back, and holds ${db.sessions.length} session(s) and ${db.messageRows} message row(s)`,
          );
        if (db.partial !== undefined)
          ctx.emit(
            'HERMES_DB_READ_PARTIAL',
            at('/messages'),
            `reading the message rows failed part way (${db.partial}): the rows after the failure were not checked, ` +
              'and message_count was not compared',
          );
        if (db.rolledBack)
          ctx.emit(
            'HERMES_DB_HOT_JOURNAL',
            { file: `${db.file}-journal` },
            'a hot rollback journal: the interrupted write was rolled back in the private copy (as Hermes will on ' +
              'its next start) and the rolled-back database was read',
          );
        if (db.integrity.length)
          ctx.emit(
            'HERMES_DB_INTEGRITY',
            at(),
            `integrity_check: ${db.integrity.length} problem(s): ${db.integrity.slice(0, 3).join('; ')}` +
              (db.integrity.length > 3 ? '; …' : ''),
          );
        const w = db.wal;
        if (w) {
          if (w.problem !== undefined)
            ctx.emit('HERMES_DB_WAL_UNCOMMITTED', { file: `${db.file}-wal` }, `the -wal is not used: ${w.problem}`);
          else {
            if (w.committedFrames > 0)
              ctx.emit(
                'HERMES_DB_WAL_PENDING',
                { file: `${db.file}-wal` },
                `${w.committedFrames} committed frame(s) in ${w.commits} transaction(s) are not checkpointed into ` +
                  `${db.file} (${w.bytes} bytes of WAL${db.hasShm ? '' : ', no -shm beside it'})`,
              );
            if (w.uncommittedFrames > 0)
              ctx.emit(
                'HERMES_DB_WAL_UNCOMMITTED',
                { file: `${db.file}-wal` },
                `${w.uncommittedFrames} frame(s) after the last commit: a transaction that never committed ` +
                  '(SQLite ignores it)',
              );
          }
        }
        schema(db, (m, p) => ctx.emit('HERMES_DB_SCHEMA', at(p), m));
        if (db.rowsProblem !== undefined)
          ctx.emit('HERMES_DB_SCHEMA', at(), `the session and message rows cannot be read (${db.rowsProblem})`);
        for (const s of db.sessions)
          if (s.configProblem !== undefined)
            ctx.emit(
              'HERMES_DB_JSON_UNPARSEABLE',
              at(`/sessions/${s.id}/model_config`),
              `session ${s.id}: model_config is ${s.configProblem}; its lineage markers are not read`,
              { key: `session/${s.id}` },
            );
        for (const m of db.callProblems)
          ctx.emit(
            'HERMES_DB_JSON_UNPARSEABLE',
            at(`/messages/${m.id}/tool_calls`),
            `session ${m.sessionId}, message ${m.id}: tool_calls is ${m.problem}; its calls are not read`,
            { key: `message/${m.id}` },
          );
        if (db.callProblemCount > db.callProblems.length)
          ctx.emit(
            'HERMES_DB_JSON_UNPARSEABLE',
            at('/messages'),
            `and ${db.callProblemCount - db.callProblems.length} more message rows whose tool_calls cannot be read`,
            { key: 'message/more' },
          );
        const rows = db.rowCounts;
        for (const s of db.counted ? db.sessions : []) {
          const c = rows.get(s.id) ?? { all: 0, active: 0 };
          if (s.messageCount === undefined || s.messageCount === c.all || s.messageCount === c.active) continue;
          ctx.emit(
            'HERMES_DB_COUNTS',
            at(`/sessions/${s.id}`),
            `session ${s.id}: message_count ${s.messageCount}, but ${c.all} message row(s)` +
              (c.all !== c.active ? ` (${c.active} active)` : ''),
            { key: s.id },
          );
        }
      },
    };
  },
});

function schema(db: DbFacts, emit: (message: string, pointer?: string) => void): void {
  if (db.schemaVersionProblem !== undefined) {
    emit(`schema_version cannot be read (${db.schemaVersionProblem})`, '/schema_version');
    return;
  }
  if (db.schemaVersions.length === 0) {
    emit(
      db.tables.includes('schema_version')
        ? 'schema_version has no row'
        : 'there is no schema_version table: not a database Hermes wrote, or damaged',
      '/schema_version',
    );
    return;
  }
  if (db.schemaVersions.length > 1)
    emit(`schema_version has ${db.schemaVersions.length} rows (${db.schemaVersions.join(', ')}); Hermes keeps one`);
  const v = db.schemaVersions[0]!;
  if (!Number.isInteger(v) || v < 1) {
    emit(`schema version ${String(v)} is not a version Hermes writes`, '/schema_version');
    return;
  }
  if (v > KNOWN_SCHEMA_VERSION)
    emit(
      `schema version ${v} is newer than the v${KNOWN_SCHEMA_VERSION} this audit knows: the rows are read by ` +
        'the columns they have, but their meaning may have changed',
      '/schema_version',
    );
  const want = expectedAt(Math.min(v, KNOWN_SCHEMA_VERSION));
  const tables = new Set(db.tables);
  const missing = [
    ...want.tables.filter((t) => !tables.has(t)).map((t) => `table ${t}`),
    ...(tables.has('sessions')
      ? want.sessions.filter((c) => !db.sessionColumns.includes(c)).map((c) => `sessions.${c}`)
      : []),
    ...(tables.has('messages')
      ? want.messages.filter((c) => !db.messageColumns.includes(c)).map((c) => `messages.${c}`)
      : []),
  ];
  if (missing.length)
    emit(`schema version ${v}, but ${missing.length} part(s) of its era are missing: ${missing.join(', ')}`);
}
