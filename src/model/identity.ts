/**
 * What a session's own records say about who it is and where it came from, for formats whose identity is not a
 * summary document (a Codex rollout's first session_meta, a Claude Code transcript's sessionId). Loaders hand it
 * to the checks as a `doc` of kind IDENTITY_KIND after the log; the lineage observer reads it.
 */
import type { Location } from './finding.js';

export const IDENTITY_KIND = 'session-identity';

export interface SessionIdentity {
  /** The id the records give (it may differ from the file name's). */
  id?: string;
  cwd?: string;
  createdAt?: string;
  /** How the session came to be, when it names a parent: a fork (Codex forked_from_id) or a sub-agent (parent_thread_id). */
  kind?: 'fork' | 'subagent';
  parentId?: string;
  /** Where the parent link is recorded, and in words. */
  linkAt?: Location;
  linkEvidence?: string;
  /** Sub-agents this session ran (Claude Code sub-agent files and the Task calls that spawned them). */
  subagents: Array<{ id: string; file: string; line?: number; type?: string }>;
}
