/**
 * What differs between agents in tool pairing: where a result may sit relative to its call, and what the agent
 * (or its provider) does about each problem, for the messages. The rules themselves are the same for all.
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
  /** Consequences, appended to the messages. */
  orphan: string;
  duplicate: string;
  unanswered: string;
  displaced: string;
  /** What a synthetic result is. */
  synthetic: string;
}

/** Grok Build (the default). */
export const GROK_PAIRING: PairingDialect = {
  placement: 'run',
  conversation: 'chat_history.jsonl',
  orphan: "providers reject such a history until Grok's repair strips it",
  duplicate: "Grok's repair keeps only the last one: the model may see a different outcome than the one that ran",
  unanswered: "Providers reject such a history; Grok's repair would insert a synthetic cancellation",
  displaced: "Grok's repair strips such results, so the model would see the call unanswered",
  synthetic: "the harness's synthetic cancellation text",
};
