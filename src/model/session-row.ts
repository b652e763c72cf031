/** One row of `sessions`: what a reviewer sees of a session before opening it (see engine/sessions.ts). */
import type { Severity } from './finding.js';

export interface SessionRow {
  id: string;
  /** The agent: the format's registry name. */
  agent: string;
  path: string;
  /** The working directory the session records (its project), or null. */
  project: string | null;
  /** ISO 8601 (UTC): when the session says it was created, else its first timed event; null when neither. */
  started: string | null;
  /** ISO 8601 (UTC): the later of its recorded update time and its last timed event; null when neither. */
  ended: string | null;
  /** Prompt turns: the user prompts the agent's own replay counts as opening a turn. */
  prompts: number;
  /** Tool calls (a result without any call is not one). */
  toolCalls: number;
  /** Calls that failed (their result or log says so), were rejected or cancelled, or were never answered. */
  failedCalls: number;
  worst: { severity: Severity; code: string } | null;
  /**
   * Set for a session whose log is gone, known only to a file of its agent's home (a prompt history, an index): that
   * file, as a path (the home joined with it). Its times, project and prompts are what that file records.
   */
  gone?: string;
  findings: Record<Severity, number>;
}
