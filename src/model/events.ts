/**
 * The normalized model every format maps into: events of the authoritative log (one per log line) and items
 * of the model-facing conversation. Strings and numbers only, so a long session stays cheap to hold.
 */

export const EVENT_KINDS = [
  'user_prompt',
  'model_text',
  'thought',
  'tool_call',
  'tool_update',
  'plan',
  'turn_completed',
  'compaction_started',
  'compaction_checkpoint',
  'compaction_completed',
  'compaction_failed',
  'rewind_marker',
  'subagent_spawned',
  'subagent_progress',
  'subagent_finished',
  'model_change',
  'retry',
  'hook',
  'task',
  'memory',
  'session_update',
  'response',
  'notice',
  'unknown',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/**
 * Which stream of the agent's log a line belongs to, as its format names it (an agent with one stream has one rail).
 */
export type Rail = string;

/** Where an event's time comes from. */
export type TimeSource = 'agentTimestampMs' | 'envelope' | 'line' | 'none';

/**
 * An access policy in force from a line on (an approval or sandbox policy, a permission mode the log records), or
 * one call that runs beyond it (a command run outside the sandbox on request). `grants` are comparable
 * capabilities in words: a policy is wider than another when it grants something the other does not.
 */
export interface PolicyState {
  /** The policy as recorded, for messages (e.g. `approval "never", sandbox "danger-full-access"`). */
  label: string;
  grants: readonly string[];
  /** Where the policy sits in the record (JSON Pointer). */
  pointer: string;
  /** One call beyond the policy in force, not a new policy. */
  oneCall?: boolean;
  /** The agent recorded this policy as the user's own choice (a mode switch, the approvals the user set). */
  userChoice?: boolean;
  /** The unrestricted level: no sandbox, or nothing asks before running (always graded as an error when widened to). */
  unrestricted?: boolean;
}

export const TERMINAL_TOOL_STATUSES = ['completed', 'failed'] as const;

export interface SessionEvent {
  file: string;
  line: number;
  byteOffset: number;
  /** Milliseconds since the epoch, and where they came from. */
  timeMs?: number;
  timeSource: TimeSource;
  /** The line's event id as written, its numeric counter and its prefix (the session id that minted it). */
  eventId?: string;
  counter?: number;
  eventPrefix?: string;
  rail: Rail;
  kind: EventKind;
  /** The wire tag, as the agent writes it. */
  tag: string;
  /** `params.sessionId` as written. */
  sessionId?: string;
  /** The prompt index the agent wrote on a user line, when it writes one. */
  promptIndex?: number;
  promptId?: string;
  /** A host-turn echo: never counted as a prompt turn. */
  hostTurn?: boolean;
  isReplay?: boolean;
  toolCallId?: string;
  toolStatus?: string;
  toolTitle?: string;
  toolKind?: string;
  /** The exit code a tool's end line records (a shell command's). */
  toolExitCode?: number;
  /**
   * The sub-agent the event is about, or whose own line it is (a sub-agent's transcript streamed with the
   * session's: its prompts open the sub-agent's turns, not the session's).
   */
  subagentId?: string;
  childSessionId?: string;
  stopReason?: string;
  /**
   * This event ends its turn although it is not the agent's turn_completed (Claude Code's "[Request interrupted by
   * user]" message, which the model sees on the next request): `stopReason` says how.
   */
  endsTurn?: boolean;
  targetPromptIndex?: number;
  /**
   * A compaction checkpoint that keeps the events from this seq on (Pi's first kept entry): the model sees its
   * summary, then those events. Absent: it keeps nothing written before it.
   */
  keptFrom?: number;
  checkpointId?: string;
  checkpointFile?: string;
  /** Short human summary (content from the session, not yet escaped for a terminal). */
  summary: string;
  /** The record came out of a damaged line (merged, NUL, BOM): the agent itself cannot read it. */
  recovered?: boolean;
  /** The line is a byte-identical copy of the line before it (reported as JSONL_DUPLICATE_LINE). */
  duplicateLine?: boolean;
  /** Position among the log's non-blank lines (file order), assigned by the loader. */
  seq: number;
  /** How the agent's own replay classifies the line for turn counting. */
  step: TurnStep;
  /** Counted prompt turn the event belongs to on its branch (the K-th counted turn is K-1); absent before the first. */
  turn?: number;
  /** This event opened counted turn `turn`. */
  opensTurn?: boolean;
  /** For a rewind marker: how it applied. */
  rewind?: { target: number; turnsBefore: number; outOfRange: boolean };
  /** An access policy set (or exceeded) by this line. */
  policy?: PolicyState;
}

/**
 * Turn-counting class of a log line for the agent's own replay: a user chunk that may count, a rewind, or anything
 * else.
 */
export type TurnStep = { k: 'user'; pi: number | null } | { k: 'rewind'; target: number } | { k: 'other' };

/** Ranges of `seq` (from inclusive, to exclusive) that a later rewind removed from the live branch. */
export type DeadRanges = ReadonlyArray<readonly [number, number]>;

/** The event ends the turn it belongs to: the agent's turn_completed, or a line of another kind that ends it. */
export const closesTurn = (e: Pick<SessionEvent, 'kind' | 'endsTurn'>): boolean =>
  e.kind === 'turn_completed' || e.endsTurn === true;

export const isDead = (dead: DeadRanges, seq: number): boolean => dead.some(([a, b]) => seq >= a && seq < b);

export type ChatItemType =
  | 'system'
  | 'user'
  | 'assistant'
  | 'tool_result'
  | 'backend_tool_call'
  | 'reasoning'
  | 'unknown';

export interface ChatItem {
  file: string;
  line: number;
  byteOffset: number;
  type: ChatItemType;
  /** Format-0 line (role/content). */
  legacy?: boolean;
  promptIndex?: number;
  syntheticReason?: string;
  priorTurnInterrupt?: string;
  /** Tool calls declared by an assistant item. */
  toolCalls?: Array<{
    id: string;
    name: string;
    args?: string;
    /**
     * The arguments whole, as recorded (an object, or the JSON string the agent wrote), for an observer that reads
     * what a call did (`activity`, through the format's `toolView`); a collector never keeps it.
     */
    input?: unknown;
  }>;
  /** The call a tool_result answers. */
  toolCallId?: string;
  /** A tool_result the agent marked as an error (absent: the agent marks none on this item, or it is not one). */
  isError?: boolean;
  hasModelId?: boolean;
  /** First characters of the text content. */
  text?: string;
  /**
   * This assistant item continues the model response of the assistant item before it (an agent that writes each
   * content block of one response as its own line): its calls join the same run of results.
   */
  sameResponse?: boolean;
  /** A result the harness wrote in place of a real one (a cancellation or rejection text of the agent's own). */
  synthetic?: boolean;
  /**
   * An assistant item whose response the agent ends without running any of its calls (e.g. Pi's stopReason "error"
   * or "aborted"): why, in words. Its calls without a result are expected, not lost.
   */
  abandoned?: string;
  /**
   * The item came out of a damaged line (the reader recovered it): the agent's own reader, which parses whole lines,
   * skips that line, so the model never sees the item.
   */
  recovered?: 'merged' | 'nul' | 'bom';
  /**
   * The first item of a conversation of its own (a Hermes session): no call or result before it belongs to the
   * conversation it opens, so tool pairing settles the calls before it and lets them go.
   */
  conversationStart?: boolean;
}

/**
 * A flat copy of a string that is kept for the whole session. V8 hands out substrings of a parsed line as slices
 * that keep the entire line alive; copying what collectors retain keeps memory proportional to what they need.
 */
export const keep = (s: string): string => (s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8'));
