/**
 * What a session's own records say about who it is and where it came from: its identity document (a summary the
 * agent keeps beside the log) or the records of the log itself. Every loader hands it to the checks as one `doc` of
 * kind IDENTITY_KIND after the logs; lineage and inspect read it, so they need to know nothing of any format.
 */
import type { Location } from './finding.js';

export const IDENTITY_KIND = 'session-identity';

/** A sub-agent the session ran, as the session records it. */
export interface SubagentRecord {
  /** The sub-agent's id (its own session's id, when it has one). */
  id: string;
  /** Where the link is recorded (a metadata file, or the log line that spawned it). */
  file: string;
  line?: number;
  type?: string;
  /** Its state as the parent last recorded it (e.g. "running", "completed"). */
  status?: string;
  /** The sub-agent session it resumed, for a resumed sub-agent. */
  resumedFrom?: string;
  description?: string;
  startedAt?: string;
}

export interface SessionIdentity {
  /** The agent's identity document of the session was there and readable (false: the identity comes from the log). */
  documented?: boolean;
  /** The id the records give (it may differ from the directory's or the file's name). */
  id?: string;
  cwd?: string;
  createdAt?: string;
  updatedAt?: string;
  /** How the session came to be (fork, subagent, subagent_fork, subagent_resume, worktree, …), when recorded. */
  kind?: string;
  parentId?: string;
  forkedAt?: string;
  /** The sandbox profile the session records for itself, as written. */
  sandboxProfile?: string;
  hidden?: boolean;
  sourceWorkspaceDir?: string;
  /** The model the session last ran with, when recorded. */
  model?: string;
  /** Where the parent link is recorded, and in words. */
  linkAt?: Location;
  linkEvidence?: string;
  /** Where the session kind is recorded. */
  kindAt?: Location;
  /** A sub-agent that names its parent itself (nothing in the parent lists it). */
  selfLinked?: boolean;
  subagents: SubagentRecord[];
}
