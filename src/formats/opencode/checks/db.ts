/**
 * OPENCODE_DB_* and OPENCODE_WAL_*: what the audit finds in an opencode database itself (formats/opencode.md §2.1,
 * §3.2, §6.9, §8 #1-4, #15, #25, #29, #31): whether a private copy could be read, SQLite's integrity check, the
 * committed transactions still only in the write-ahead log, the era and its migrations, E3's event sequence, and
 * the credential tables (counted, never read).
 */
import { defineCheck } from '../../../checks/define.js';
import { DB_KIND, type DbFacts } from '../db.js';
import { KNOWN_MIGRATIONS } from '../migrations.js';

const isFacts = (v: unknown): v is DbFacts =>
  typeof v === 'object' && v !== null && Array.isArray((v as DbFacts).sessions) && 'walHeader' in v;

const GIB = 1024 * 1024 * 1024;
const size = (b: number): string => (b >= GIB ? `${(b / GIB).toFixed(2)} GiB` : `${b} bytes`);

export const opencodeDb = defineCheck({
  id: 'opencode-db',
  validate: true,
  codes: {
    OPENCODE_DB_UNREADABLE: {
      severity: 'error',
      title: 'An opencode database could not be read',
      help:
        'The audit copies the database with its -wal and -journal into a private directory and opens the copy ' +
        'read-only with SQLite (opening the evidence itself would checkpoint it); the message says why that failed: ' +
        'not a SQLite database, a file that changed on every one of three copies (opencode was writing: stop it), ' +
        'or SQLite refusing the file. Nothing in the database was checked.',
    },
    OPENCODE_DB_TOO_LARGE: {
      severity: 'error',
      title: 'An opencode database is larger than the database-size cap, and was not read',
      help:
        'Above the cap (2 GiB by default; --max-db-bytes) the database with its logs is not copied or read, so ' +
        'nothing in it was checked. Audit again with a larger --max-db-bytes where $TMPDIR has room for the copy.',
    },
    OPENCODE_WAL_WITHOUT_DB: {
      severity: 'error',
      title: 'A write-ahead log is there without its database',
      help:
        'A -wal (or -shm) of an opencode database whose main file is missing: a partial copy, or the database was ' +
        'deleted while opencode ran. The log holds page images of the database (possibly every row, in a database ' +
        'never checkpointed) but SQLite cannot read it alone: keep it as evidence, and find the main file.',
    },
    OPENCODE_WAL_FOREIGN: {
      severity: 'error',
      title: 'The log beside an opencode database is not its own, and was left out',
      help:
        "SQLite reads any -wal (and rolls back any hot -journal) it finds beside a database: another database's " +
        "log replaces this one's pages. The message says why this one does not belong; the database was read " +
        "without it. opencode's next open would apply and checkpoint it: bundle the evidence first.",
    },
    OPENCODE_DB_INTEGRITY: {
      severity: 'error',
      title: 'SQLite integrity_check reports damage in an opencode database',
      help:
        '`PRAGMA integrity_check` lists damaged pages or indexes that disagree with their tables: a disk fault or a ' +
        'foreign writer. Rows on damaged pages may be missing from everything else the audit reports.',
    },
    OPENCODE_DB_READ_PARTIAL: {
      severity: 'error',
      title: 'Reading the rows of an opencode database stopped part way',
      help: 'SQLite failed while the rows were read (a damaged page): the rows after it were not checked.',
    },
    OPENCODE_WAL_UNCHECKPOINTED: {
      severity: 'note',
      title: 'The write-ahead log holds frames not checkpointed into the database',
      help:
        'opencode runs in WAL mode and checkpoints on open (wal_checkpoint PASSIVE): frames still in the -wal were ' +
        'committed after the last checkpoint (opencode was killed or is running). The audit read them, as opencode ' +
        'would; a reader that ignores the -wal sees an older, possibly empty, database. Opening the data with ' +
        'opencode checkpoints them into the main file and may overwrite older frames: bundle first. Frames that are ' +
        'not read (after the last commit, from an earlier generation, past a checksum break) are older page images ' +
        'of deleted or rewritten rows: the message counts them.',
    },
    OPENCODE_MIGRATIONS_UNKNOWN: {
      severity: 'note',
      title: 'The database records migrations this audit does not know',
      help:
        "The migration tables (__drizzle_migrations before 1.16, migration after) list opencode's schema changes: " +
        'an id none of the known releases has comes from a fork or a newer release. Rows may have shapes this audit ' +
        'does not know (their schema findings say so).',
    },
    OPENCODE_EVENT_SEQUENCE: {
      severity: 'error',
      title: "The event log's sequence numbers have gaps, repeats, or disagree with event_sequence",
      help:
        'From 1.16 opencode writes every durable event of a session with the next `seq` (contiguous from 0, unique) ' +
        'and keeps the last in event_sequence, in one transaction: a gap, a repeat or a mismatch means rows were ' +
        'deleted or edited outside opencode, or a foreign tool wrote them.',
    },
    OPENCODE_EVENTS_EMPTY: {
      severity: 'note',
      title: 'The event log of an E3 database is empty although it has sessions',
      help:
        'The 1.16.0 migration 20260604172448 deletes every event (and later fork migrations do again): the ' +
        'intermediate states of the rows (a tool part pending, running, then completed) are lost; only the final ' +
        'rows remain. Not evidence of tampering.',
    },
    OPENCODE_REVERT_PENDING: {
      severity: 'note',
      title: 'A session has a pending revert: the next prompt deletes the messages after it',
      help:
        '`/undo` (session.revert) restores the files from the snapshot and records the message it reverts to, but ' +
        'deletes nothing yet: at the next prompt opencode deletes every message whose id sorts after it (parts ' +
        'cascade), and in E1/E2 nothing of them remains. Resuming the session destroys them: bundle first.',
    },
    OPENCODE_SECRET_ROWS: {
      severity: 'note',
      title: 'The database holds credential rows',
      help:
        'account, control_account, credential and session_share.secret hold tokens (formats/opencode.md §1.3). ' +
        'The audit counts them and never reads them; no report, timeline or index holds them. A bag copies the ' +
        'database byte for byte, credentials included: share a bag made with --redact, which leaves the database ' +
        'out.',
    },
  },
  create(ctx) {
    return {
      doc(d) {
        if (d.kind !== DB_KIND || !isFacts(d.value)) return;
        const f = d.value;
        const at = { file: d.file };
        if (f.walWithoutDb?.length) {
          ctx.emit(
            'OPENCODE_WAL_WITHOUT_DB',
            { file: f.walWithoutDb[0]! },
            `${f.walWithoutDb.join(', ')} without ${f.file}: nothing of it could be read`,
          );
          return;
        }
        if (f.tooLarge) {
          ctx.emit(
            'OPENCODE_DB_TOO_LARGE',
            at,
            `${f.file} with its -wal and -journal is ${size(f.tooLarge.bytes)}, above the cap of ` +
              `${size(f.tooLarge.cap)} (--max-db-bytes): it was not read`,
          );
          return;
        }
        if (f.error !== undefined) {
          ctx.emit('OPENCODE_DB_UNREADABLE', at, `${f.file}: ${f.error}`);
          return;
        }
        for (const [what, reasons] of [
          ['-wal', f.walForeign],
          ['-journal', f.journalForeign],
        ] as const)
          if (reasons?.length)
            ctx.emit(
              'OPENCODE_WAL_FOREIGN',
              { file: `${f.file}${what}` },
              `${f.file}${what} is not this database's: ${reasons.join('; ')}`,
            );
        if (f.integrity.length)
          ctx.emit(
            'OPENCODE_DB_INTEGRITY',
            at,
            `integrity_check reports ${f.integrity.length} problem(s), the first: ${f.integrity[0]!}`,
          );
        if (f.partial !== undefined) ctx.emit('OPENCODE_DB_READ_PARTIAL', at, `reading the rows failed: ${f.partial}`);
        const w = f.wal;
        if (w && w.committedFrames > 0)
          ctx.emit(
            'OPENCODE_WAL_UNCHECKPOINTED',
            { file: `${f.file}-wal` },
            `${w.committedFrames} committed frame(s) of ${w.pageSize} bytes in ${w.commits} transaction(s) are only ` +
              `in ${f.file}-wal (${w.frames} frame(s) valid, ${w.uncommittedFrames} uncommitted, ${w.staleFrames} ` +
              `from an earlier generation; the database is ${w.dbPages ?? '?'} page(s) after the last commit)`,
          );
        else if (w && (w.frames > 0 || w.staleFrames > 0 || w.problem !== undefined))
          ctx.emit(
            'OPENCODE_WAL_UNCHECKPOINTED',
            { file: `${f.file}-wal` },
            `${f.file}-wal holds no committed frame SQLite reads (${
              w.problem ??
              `${w.uncommittedFrames} ` +
                `uncommitted, ${w.staleFrames} from an earlier generation or past a checksum break`
            }): older page ` + 'images that opencode would overwrite, kept in a bundle byte for byte',
          );
        const unknown = f.migrations.filter((m) => !KNOWN_MIGRATIONS.has(m.slice(0, 14)));
        if (unknown.length)
          ctx.emit(
            'OPENCODE_MIGRATIONS_UNKNOWN',
            at,
            `${unknown.length} of ${f.migrations.length} migration(s) are not upstream opencode's: ` +
              `${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ', …' : ''}`,
          );
        if (f.events?.problems.length)
          ctx.emit(
            'OPENCODE_EVENT_SEQUENCE',
            at,
            `${f.events.problems.length} problem(s) in the event log: ${f.events.problems.slice(0, 3).join('; ')}`,
          );
        if (f.era === 'E3' && f.events?.rows === 0 && f.sessions.length > 0)
          ctx.emit(
            'OPENCODE_EVENTS_EMPTY',
            at,
            `${f.sessions.length} session(s) and no event: the history of their rows is gone, only the rows remain`,
          );
        for (const r of f.reverts)
          if (r.after > 0)
            ctx.emit(
              'OPENCODE_REVERT_PENDING',
              at,
              `session ${r.session} is reverted to ${r.messageId}: the next prompt deletes the ${r.after} message(s) ` +
                'after it',
              { key: r.session },
            );
        const secret = f.secretRows.filter((r) => r.rows > 0);
        if (secret.length)
          ctx.emit(
            'OPENCODE_SECRET_ROWS',
            at,
            `${secret.map((r) => `${r.table}: ${r.rows} row(s)`).join(', ')} (never read): a bag holds them unless ` +
              'made with --redact',
          );
      },
    };
  },
});
