/**
 * `chat_history.jsonl` — one `ConversationItem` per line (§2.2, conversation.rs), or a legacy format-0
 * `ChatRequestMessage` line (types.rs:230-362), which Grok still accepts on read.
 */
import { z } from 'zod';
import { json, named, obj, opt, uint } from '../../shared/zod.js';
import { REASONING_EFFORTS } from './summary.js';

/** `SyntheticReason` values (unknown strings decode as `Unknown` via serde(other), so the field is a free string). */
export const SYNTHETIC_REASONS = [
  'compaction_meta',
  'system_reminder',
  'length_continue',
  'project_instructions',
  'auto_continue',
  'auto_recovery',
  'interjection',
  'agent_message',
  'parent_agent_message',
  'task_completed',
  'subagent_completed',
  'notification_drain',
  'goal_summary',
  'goal_classifier_nudge',
  'scheduler_fired',
  'stop_hook_feedback',
  'working_directory_switch',
  'unknown',
] as const;

export const PRIOR_TURN_INTERRUPTS = [
  'mid_turn_abort',
  'permission_rejected',
  'permission_cancelled',
  'unknown',
] as const;

export const ContentPart = named(
  'ContentPart',
  z.discriminatedUnion('type', [
    obj({ type: z.literal('text'), text: z.string() }),
    obj({ type: z.literal('image'), url: z.string() }),
  ]),
);

export const ToolCall = named('ToolCall', obj({ id: z.string(), name: z.string(), arguments: z.string() }));

const SystemItem = named('ChatSystem', obj({ type: z.literal('system'), content: z.string() }));

const UserItem = named(
  'ChatUser',
  obj({
    type: z.literal('user'),
    content: z.array(ContentPart),
    synthetic_reason: opt(z.string()),
    cwd_generation: opt(uint),
    prior_turn_interrupt: opt(z.string()),
    prompt_index: opt(uint),
  }),
);

const AssistantItem = named(
  'ChatAssistant',
  obj({
    type: z.literal('assistant'),
    content: z.string(),
    tool_calls: z.array(ToolCall).optional(),
    model_id: opt(z.string()),
    model_fingerprint: opt(z.string()),
    system_fingerprint: opt(z.string()),
    reasoning_effort: opt(z.enum(REASONING_EFFORTS)),
    /** Legacy inline reasoning (upgraded on read into a sibling `reasoning` item). */
    reasoning: opt(obj({ text: opt(z.string()), encrypted: opt(z.string()), id: opt(z.string()) })),
    /** Legacy Responses output items (upgraded on read into sibling items). */
    raw_output: opt(z.array(json)),
  }),
);

const ToolResultItem = named(
  'ChatToolResult',
  obj({
    type: z.literal('tool_result'),
    tool_call_id: z.string(),
    content: z.string(),
    images: z.array(ContentPart).optional(),
  }),
);

const BackendToolKind = named(
  'BackendToolKind',
  z.discriminatedUnion('tool_type', [
    obj({
      tool_type: z.literal('web_search'),
      id: z.string(),
      status: z.string(),
      action: obj({ type: z.string() }),
    }),
    obj({ tool_type: z.literal('x_search'), id: z.string(), call_id: z.string(), name: z.string(), input: z.string() }),
    obj({
      tool_type: z.literal('code_interpreter'),
      id: z.string(),
      container_id: z.string(),
      code: opt(z.string()),
      outputs: opt(z.array(obj({ type: z.string() }))),
      status: z.string(),
    }),
  ]),
);

const BackendToolCallItem = named(
  'ChatBackendToolCall',
  obj({ type: z.literal('backend_tool_call'), kind: BackendToolKind }),
);

const ReasoningItem = named(
  'ChatReasoning',
  obj({
    type: z.literal('reasoning'),
    id: z.string(),
    summary: z.array(obj({ type: z.literal('summary_text'), text: z.string() })),
    content: opt(z.array(obj({ text: z.string() }))),
    encrypted_content: opt(z.string()),
    status: opt(z.enum(['in_progress', 'completed', 'incomplete'])),
  }),
);

/** Tag → variant, the single table both the union and the runtime dispatch are built from. */
export const CHAT_VARIANTS = {
  system: SystemItem,
  user: UserItem,
  assistant: AssistantItem,
  tool_result: ToolResultItem,
  backend_tool_call: BackendToolCallItem,
  reasoning: ReasoningItem,
} as const;

export const ConversationItem = named(
  'ConversationItem',
  z.discriminatedUnion('type', [
    SystemItem,
    UserItem,
    AssistantItem,
    ToolResultItem,
    BackendToolCallItem,
    ReasoningItem,
  ]),
);
export type ConversationItem = z.infer<typeof ConversationItem>;

const LegacyContent = z.union([
  z.string(),
  z.array(
    z.discriminatedUnion('type', [
      obj({ type: z.literal('text'), text: z.string() }),
      obj({ type: z.literal('image_url'), image_url: obj({ url: z.string() }) }),
    ]),
  ),
]);

export const LegacyChatMessage = named(
  'LegacyChatMessage',
  obj({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: LegacyContent,
    name: opt(z.string()),
    tool_calls: z
      .array(
        obj({
          id: opt(z.string()),
          type: z.literal('function'),
          function: obj({ name: z.string(), arguments: z.string() }),
        }),
      )
      .optional(),
    tool_call_id: opt(z.string()),
    model_id: opt(z.string()),
    reasoning_content: opt(z.string()),
  }),
  'Format-0 chat line (ChatRequestMessage, OpenAI-style), accepted by Grok on read.',
);

export const ChatLine = named(
  'ChatLine',
  z.union([ConversationItem, LegacyChatMessage]),
  'One line of Grok Build chat_history.jsonl: a ConversationItem, or a legacy format-0 message.',
);
