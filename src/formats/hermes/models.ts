/**
 * Hermes session files (formats/pi-hermes.md §2.3): OpenAI-style message dicts, one per line in a gateway transcript
 * `sessions/<id>.jsonl` (plus a first `session_meta` line), a whole list in a CLI snapshot
 * `sessions/session_<id>.json`, and the gateway's routing index `sessions/sessions.json`. Loose everywhere (Hermes
 * adds fields often); required are the role and the pairing fields.
 */
import { z } from 'zod';
import { json, named, obj, opt, uint } from '../shared/zod.js';

const str = z.string();

export const ToolCall = named(
  'HermesToolCall',
  obj({
    id: str,
    call_id: opt(str),
    response_item_id: opt(str),
    type: opt(str),
    function: obj({ name: str, arguments: opt(str) }),
  }),
  'An OpenAI tool call; `function.arguments` is a JSON string.',
);

/** Naive local time as Python's isoformat() writes it (no offset), e.g. 2026-05-12T23:16:43.496038. */
const localTime = str;

export const MESSAGE_VARIANTS = {
  session_meta: named(
    'HermesSessionMeta',
    obj({
      role: z.literal('session_meta'),
      tools: opt(z.array(json)),
      model: opt(str),
      platform: opt(str),
      timestamp: opt(localTime),
    }),
    'The first line of a fresh gateway session: the tool schemas, the model and the platform.',
  ),
  system: named('HermesSystemMessage', obj({ role: z.literal('system'), content: opt(json) })),
  user: named('HermesUserMessage', obj({ role: z.literal('user'), content: opt(json), timestamp: opt(localTime) })),
  assistant: named(
    'HermesAssistantMessage',
    obj({
      role: z.literal('assistant'),
      content: opt(json),
      reasoning: opt(json),
      finish_reason: opt(str),
      tool_calls: opt(z.array(ToolCall)),
      timestamp: opt(localTime),
    }),
  ),
  tool: named(
    'HermesToolMessage',
    obj({
      role: z.literal('tool'),
      content: opt(json),
      tool_call_id: str,
      name: opt(str),
      tool_name: opt(str),
      timestamp: opt(localTime),
    }),
    'A tool result; older Hermes wrote no tool name (it is the matching call’s).',
  ),
} as const;

export const Message = named('HermesMessage', z.union(Object.values(MESSAGE_VARIANTS)));

export const Snapshot = named(
  'HermesSnapshot',
  obj({
    session_id: str,
    model: opt(str),
    platform: opt(str),
    session_start: opt(localTime),
    last_updated: opt(localTime),
    message_count: opt(uint),
    messages: z.array(obj({ role: str })),
  }),
  'A CLI session snapshot: the whole conversation, rewritten on every save (never with fewer messages).',
);

export const SessionsIndex = named(
  'HermesSessionsIndex',
  z.record(str, obj({ session_id: str })),
  'The gateway routing index: session key → the session it routes to.',
);
