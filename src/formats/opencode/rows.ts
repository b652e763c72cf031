/**
 * The rows of opencode's sessions as the audit hands them on, whichever era wrote them: a session, and its messages
 * and parts, from the database (E2, E3) or from a JSON tree (E0, E1). `value` is the record as opencode's API
 * shapes it (the `data` column with its ids put back, or the JSON file as written): a message has `role`, a part
 * `type`.
 */

export type Origin = 'db' | 'tree';

export interface OcSession {
  id: string;
  origin: Origin;
  /** Where the session is recorded (the database, or its JSON file). */
  file: string;
  parentId?: string;
  projectId?: string;
  title?: string;
  version?: string;
  directory?: string;
  timeCreated?: number;
  timeUpdated?: number;
  /** `session.revert` (a pending revert: messages after `messageID` are deleted at the next prompt). */
  revertMessageId?: string;
  /** `session.permission` as written (a JSON ruleset). */
  permission?: string;
  shareUrl?: string;
}

export interface OcRow {
  table: 'message' | 'part';
  id: string;
  sessionId: string;
  messageId?: string;
  timeCreated?: number;
  timeUpdated?: number;
  /** The record, or undefined when it cannot be read (`problem` says why). */
  value?: Record<string, unknown>;
  problem?: string;
  /** Where it is: the database (line: its place in the audit's order, 1-based) or its JSON file (line 1). */
  file: string;
  line: number;
  byteLength: number;
}
