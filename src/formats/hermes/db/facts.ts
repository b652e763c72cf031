/** What the audit reads out of a Hermes `state.db` (a doc of kind DB_KIND): the database's state and its rows. */
import type { WalState } from './wal.js';

export const DB_KIND = 'hermes-state-db';

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
  /** `schema_version` rows (Hermes keeps one). */
  schemaVersions: number[];
  /** Why `schema_version` could not be read. */
  schemaVersionProblem?: string;
  integrity: string[];
  tables: string[];
  sessionColumns: string[];
  messageColumns: string[];
  sessions: DbSessionRow[];
  messages: DbMessageRow[];
  /** A query of rows failed (tables missing or damaged). */
  rowsProblem?: string;
}

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
    messages: [],
  };
}
