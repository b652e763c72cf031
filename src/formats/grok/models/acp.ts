/**
 * ACP `SessionUpdate` variants (agent-client-protocol 0.10.4 / schema 0.11.4), the `session/update` rail of
 * updates.jsonl. Internally tagged on `sessionUpdate`, no catch-all: an unknown tag fails Rust decoding.
 * Field names are camelCase as serialized. (Research notes: ACP schema.json 0.11.3/0.11.4.)
 */
import { z } from 'zod';
import { json, named, obj, opt, uint } from '../../shared/zod.js';

const meta = opt(z.record(z.string(), json));

const Annotations = obj({
  audience: opt(z.array(z.enum(['user', 'assistant']))),
  lastModified: opt(z.string()),
  priority: opt(z.number()),
  _meta: meta,
});

export const ContentBlock = named(
  'AcpContentBlock',
  z.discriminatedUnion('type', [
    obj({ type: z.literal('text'), text: z.string(), annotations: opt(Annotations), _meta: meta }),
    obj({
      type: z.literal('image'),
      data: z.string(),
      mimeType: z.string(),
      uri: opt(z.string()),
      annotations: opt(Annotations),
      _meta: meta,
    }),
    obj({
      type: z.literal('audio'),
      data: z.string(),
      mimeType: z.string(),
      annotations: opt(Annotations),
      _meta: meta,
    }),
    obj({
      type: z.literal('resource_link'),
      uri: z.string(),
      name: z.string(),
      title: opt(z.string()),
      description: opt(z.string()),
      mimeType: opt(z.string()),
      size: opt(z.number().int()),
      annotations: opt(Annotations),
      _meta: meta,
    }),
    obj({
      type: z.literal('resource'),
      resource: z.union([
        obj({ uri: z.string(), text: z.string(), mimeType: opt(z.string()), _meta: meta }),
        obj({ uri: z.string(), blob: z.string(), mimeType: opt(z.string()), _meta: meta }),
      ]),
      annotations: opt(Annotations),
      _meta: meta,
    }),
  ]),
);

export const TOOL_KINDS = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
] as const;
export const TOOL_CALL_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;

const ToolCallContent = z.discriminatedUnion('type', [
  obj({ type: z.literal('content'), content: ContentBlock, _meta: meta }),
  obj({ type: z.literal('diff'), path: z.string(), oldText: opt(z.string()), newText: z.string(), _meta: meta }),
  obj({ type: z.literal('terminal'), terminalId: z.string(), _meta: meta }),
]);

const ToolCallLocation = obj({ path: z.string(), line: opt(uint), _meta: meta });

const chunk = (tag: string, id: string) =>
  named(id, obj({ sessionUpdate: z.literal(tag), content: ContentBlock, messageId: opt(z.string()), _meta: meta }));

const ToolCall = named(
  'AcpToolCall',
  obj({
    sessionUpdate: z.literal('tool_call'),
    toolCallId: z.string(),
    title: z.string(),
    // Rust maps an unknown kind to `other`, so any string decodes.
    kind: z.string().optional(),
    status: z.enum(TOOL_CALL_STATUSES).optional(),
    content: z.array(ToolCallContent).optional(),
    locations: z.array(ToolCallLocation).optional(),
    rawInput: json.optional(),
    rawOutput: json.optional(),
    _meta: meta,
  }),
);

const ToolCallUpdate = named(
  'AcpToolCallUpdate',
  obj({
    sessionUpdate: z.literal('tool_call_update'),
    toolCallId: z.string(),
    // DefaultOnError on kind/status: an invalid value decodes as "unchanged".
    kind: opt(z.string()),
    status: opt(z.string()),
    title: opt(z.string()),
    content: opt(z.array(ToolCallContent)),
    locations: opt(z.array(ToolCallLocation)),
    rawInput: json.optional(),
    rawOutput: json.optional(),
    _meta: meta,
  }),
);

const Plan = named(
  'AcpPlan',
  obj({
    sessionUpdate: z.literal('plan'),
    entries: z.array(
      obj({
        content: z.string(),
        priority: z.enum(['high', 'medium', 'low']),
        status: z.enum(['pending', 'in_progress', 'completed']),
        _meta: meta,
      }),
    ),
    _meta: meta,
  }),
);

const AvailableCommandsUpdate = named(
  'AcpAvailableCommandsUpdate',
  obj({
    sessionUpdate: z.literal('available_commands_update'),
    availableCommands: z.array(
      obj({
        name: z.string(),
        description: z.string(),
        input: opt(obj({ hint: z.string(), _meta: meta })),
        _meta: meta,
      }),
    ),
    _meta: meta,
  }),
);

const CurrentModeUpdate = named(
  'AcpCurrentModeUpdate',
  obj({ sessionUpdate: z.literal('current_mode_update'), currentModeId: z.string(), _meta: meta }),
);

const ConfigOptionUpdate = named(
  'AcpConfigOptionUpdate',
  obj({
    sessionUpdate: z.literal('config_option_update'),
    configOptions: z.array(obj({ id: z.string(), name: z.string(), type: z.string() })),
    _meta: meta,
  }),
);

const SessionInfoUpdate = named(
  'AcpSessionInfoUpdate',
  obj({
    sessionUpdate: z.literal('session_info_update'),
    title: opt(z.string()),
    updatedAt: opt(z.string()),
    _meta: meta,
  }),
);

const UsageUpdate = named(
  'AcpUsageUpdate',
  obj({
    sessionUpdate: z.literal('usage_update'),
    used: uint,
    size: uint,
    cost: opt(obj({ amount: z.number(), currency: z.string() })),
    _meta: meta,
  }),
);

export const ACP_VARIANTS = {
  user_message_chunk: chunk('user_message_chunk', 'AcpUserMessageChunk'),
  agent_message_chunk: chunk('agent_message_chunk', 'AcpAgentMessageChunk'),
  agent_thought_chunk: chunk('agent_thought_chunk', 'AcpAgentThoughtChunk'),
  tool_call: ToolCall,
  tool_call_update: ToolCallUpdate,
  plan: Plan,
  available_commands_update: AvailableCommandsUpdate,
  current_mode_update: CurrentModeUpdate,
  config_option_update: ConfigOptionUpdate,
  session_info_update: SessionInfoUpdate,
  usage_update: UsageUpdate,
} as const;

export const AcpUpdate = named(
  'AcpUpdate',
  z.discriminatedUnion(
    'sessionUpdate',
    Object.values(ACP_VARIANTS) as unknown as [typeof ToolCall, ...(typeof ToolCall)[]],
  ),
);

export const AcpNotification = named('AcpNotification', obj({ sessionId: z.string(), update: AcpUpdate, _meta: meta }));
