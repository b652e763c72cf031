/**
 * What the audit reads out of a Hermes `state.db` (a doc of kind DB_KIND): the database's state, its session rows,
 * the number of message rows of each session, and the message rows themselves as a stream (`rows`): never all in
 * memory, read from the open private copy while the doc is being handled.
 */
import type { WalState } from '../../shared/sqlite/wal.js';

export const DB_KIND = 'hermes-state-db';
/** The kind of the records the loader gives for the message rows (line = the row's id): the secret scan reads them. */
export const DB_ROW_KIND = 'state-db-row';

export interface DbSessionRow {
  id: string;
  source?: string;
  parentId?: string;
  startedAt?: number;
  endedAt?: number;
  endReason?: string;
  messageCount?: number;
  toolCallCount?: number;
  rewindCount?: number;
  /** The lineage markers of `model_config` (`_branched_from`, `_delegate_from`). */
  branchedFrom?: string;
  delegateFrom?: string;
  /** Why `model_config` could not be read (not JSON, nested too deep): no lineage markers were read from it. */
  configProblem?: string;
}

export interface DbMessageRow {
  id: number;
  sessionId: string;
  role: string;
  toolCallId?: string;
  /** Ids and names of the assistant row's `tool_calls`; undefined when the column does not parse. */
  calls?: Array<{ id: string; name: string }>;
  /** Why `tool_calls` could not be read (not JSON, not a list, nested too deep). */
  callsProblem?: string;
  timestamp?: number;
  /** 0 = soft-deleted by a rewind (v15+); undefined before v15. */
  active?: number;
  /** The first characters of the content (synthetic stubs and approval markers are recognised on them). */
  head: string;
}

export interface DbFacts {
  /** Path of the database in the session (relative). */
  file: string;
  /** The capture could not be made or opened: nothing else is set. */
  error?: string;
  /** Journal mode in the header (bytes 18-19: 1 rollback journal, 2 WAL). */
  walHeader: boolean;
  wal?: WalState;
  hasShm: boolean;
  /**
   * A rollback journal was beside the database (a write interrupted in rollback-journal mode): the private copy
   * was rolled back with it, as Hermes's next open does, before it was read.
   */
  rolledBack?: boolean;
  /** Why the -wal beside the database is not its own: it was left out, the database read without it. */
  walForeign?: string[];
  /** Why the hot -journal beside the database is not its own: it was left out, nothing rolled back. */
  journalForeign?: string[];
  /** The database (with its -wal and -journal) is larger than the cap: nothing was copied or read. */
  tooLarge?: { bytes: number; cap: number };
  /** Reading the message rows stopped part way (a damaged page): the rows before it were read. */
  partial?: string;
  /** `schema_version` rows (Hermes keeps one). */
  schemaVersions: number[];
  /** Why `schema_version` could not be read. */
  schemaVersionProblem?: string;
  integrity: string[];
  tables: string[];
  sessionColumns: string[];
  messageColumns: string[];
  sessions: DbSessionRow[];
  /**
   * Per session id that has message rows: its first row's id, and (once `counted`) its rows and how many are
   * active (not rewound).
   */
  rowCounts: Map<string, { all: number; active: number; first: number }>;
  /** Message rows in all (once `counted`). */
  messageRows: number;
  /** A full pass of `rows()` (the loader's, before the doc) counted every row. */
  counted?: boolean;
  /** Rows whose `tool_calls` cannot be read (found by the counting pass; the first CALL_PROBLEMS_KEPT of them). */
  callProblems: Array<{ id: number; sessionId: string; problem: string }>;
  /** How many rows in all have such a `tool_calls`. */
  callProblemCount: number;
  /**
   * The message rows, streamed: of the sessions named (all when undefined), session by session (sessions by their
   * first row, each in insertion order), or with `byId` every row in insertion order (`messages.id`, the order
   * Hermes replays). Valid only during the doc hook (the copy is closed after it); a damaged page ends the stream
   * and sets `partial`.
   */
  rows(sessions?: Iterable<string>, byId?: boolean): Iterable<DbMessageRow>;
  /** A query of rows failed (tables missing or damaged). */
  rowsProblem?: string;
}

/** Rows with an unreadable `tool_calls` kept as findings (the rest are counted). */
export const CALL_PROBLEMS_KEPT = 1000;

/** The facts of a database nothing could be read from yet. */
export function blankFacts(file: string): DbFacts {
  return {
    file,
    walHeader: false,
    hasShm: false,
    schemaVersions: [],
    integrity: [],
    tables: [],
    sessionColumns: [],
    messageColumns: [],
    sessions: [],
    rowCounts: new Map(),
    callProblems: [],
    callProblemCount: 0,
    messageRows: 0,
    rows: () => [],
  };
}
