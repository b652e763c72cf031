/**
 * What `activity` reports of one session: the commands it ran, the files its tools touched, the tools that reached
 * outside, and the calls that failed, were refused or never answered, each with where it sits (`file:line`).
 */

/** How a call ended, in plain words. */
export type CallOutcome =
  | 'completed'
  | 'failed'
  | 'rejected'
  | 'cancelled'
  | 'unanswered'
  | 'interrupted'
  | 'abandoned'
  | 'rewound';

export interface ActivityCommand {
  /** The command line, or null when the arguments do not say it (redacted, unreadable). */
  command: string | null;
  cwd: string | null;
  status: CallOutcome;
  exitCode: number | null;
  time: string | null;
  tool: string;
  callId: string;
  location: string;
}

export interface ActivityFile {
  path: string;
  action: 'read' | 'write' | 'edit' | 'create' | 'delete' | 'patch';
  status: CallOutcome;
  time: string | null;
  tool: string;
  callId: string;
  location: string;
}

export interface ActivityTool {
  tool: string;
  reach: 'web' | 'mcp' | 'subagent';
  /** The MCP server, for an MCP tool. */
  server: string | null;
  calls: number;
  failed: number;
}

export interface ActivityFailed {
  tool: string;
  status: Exclude<CallOutcome, 'completed' | 'rewound'>;
  /** The error or refusal as the result words it (its first characters), null when there is no result. */
  error: string | null;
  time: string | null;
  callId: string;
  location: string;
}

export interface SessionActivity {
  id: string;
  agent: string;
  path: string;
  commands: ActivityCommand[];
  files: ActivityFile[];
  tools: ActivityTool[];
  failed: ActivityFailed[];
}

export const ACTIVITY_KINDS = ['commands', 'files', 'tools', 'failed'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
