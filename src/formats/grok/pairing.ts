/**
 * Grok Build's pairing dialect (formats/grok-build.md §2.2, §3.3): chat_history.jsonl is the model's history,
 * updates.jsonl records every tool call's status; results must sit in the run after their call (chat
 * completions), and Grok's repair rewrites what providers would reject.
 */
import type { PairingDialect } from '../../pairing/dialect.js';
import { grokToolView } from './tool-view.js';

/** Synthetic user items (by synthetic_reason) that open a new turn of the conversation. */
const TURN_START_REASONS = new Set([
  'agent_message',
  'parent_agent_message',
  'unknown',
  'task_completed',
  'subagent_completed',
  'notification_drain',
  'goal_classifier_nudge',
  'scheduler_fired',
]);

export const GROK_PAIRING: PairingDialect = {
  mutating: (name) => grokToolView(name, undefined).mutating,
  placement: 'run',
  conversation: 'chat_history.jsonl',
  toolLog: 'updates.jsonl',
  turnStartReasons: TURN_START_REASONS,
  preamble: /^<user_info>/,
  rebuiltNames: /[\s`/]/,
  orphan: "providers reject such a history until Grok's repair strips it",
  duplicate: "Grok's repair keeps only the last one: the model may see a different outcome than the one that ran",
  unanswered: "Providers reject such a history; Grok's repair would insert a synthetic cancellation",
  displaced: "Grok's repair strips such results, so the model would see the call unanswered",
  synthetic: "the harness's synthetic cancellation text",
  lenient: "Grok's turn scanner accepts it, its strict repair rule does not",
};
