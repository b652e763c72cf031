/**
 * What differs between agents in tool pairing: where a result may sit relative to its call, which log records
 * each call's status, how the conversation marks a new turn, and what the agent (or its provider) does about each
 * problem, for the messages. The rules themselves are the same for all; every format module supplies its dialect.
 */
export interface PairingDialect {
  /**
   * `run`: a result must sit in the run of results right after the model response that made the call (chat
   * completions, the Anthropic Messages API); `anywhere`: any later place will do (Responses API items are
   * joined by call_id).
   */
  placement: 'run' | 'anywhere';
  /** The conversation file(s), as messages name them. */
  conversation: string;
  /**
   * The authoritative log whose tool_call / tool_update events record what ran, when it is a file of its own
   * beside the conversation (its path inside the session); absent: the conversation is the only record.
   */
  toolLog?: string;
  /** Synthetic user items (by their synthetic reason) that open a new turn of the conversation. */
  turnStartReasons?: ReadonlySet<string>;
  /**
   * Tool names as a history rebuilt from the authoritative log writes them (display titles): when every call's
   * name looks so, the conversation was rebuilt from the log and has its calls by construction.
   */
  rebuiltNames?: RegExp;
  /** A user item that opens the conversation without being a prompt (sent once, before the first turn). */
  preamble?: RegExp;
  /**
   * Whether a tool (by name) can change files or run commands, by the agent's own knowledge of its tools (a web
   * fetch or a read-only search does not); absent: guessed from the tool kind and name.
   */
  mutating?: (name: string) => boolean;
  /** Consequences, appended to the messages. */
  orphan: string;
  duplicate: string;
  unanswered: string;
  displaced: string;
  /** What a synthetic result is. */
  synthetic: string;
  /**
   * A result separated from its call only by reasoning or backend-tool items: when the agent accepts it in one
   * place and rejects it in another, why (a note); absent: it is accepted, no finding.
   */
  lenient?: string;
}
