/**
 * Pi session files (formats/pi-hermes.md §1.3, badlogic/pi-mono `session-manager.ts`): line 1 is the header
 * `type:"session"` (`version` absent = v1, then 2 and 3), every later line one entry tagged `type`. v1 entries have no
 * `id`/`parentId` (the file is linear, compactions name `firstKeptEntryIndex`); v2 and v3 entries form a tree by
 * `id`/`parentId` (the tree checks require them there). Loose everywhere, as Pi writes whatever its TypeScript
 * objects hold; unknown entry types, message roles and content blocks are notes.
 */
import { z } from 'zod';
import { json, named, obj, opt, unknownTag } from '../shared/zod.js';

const str = z.string();
const num = z.number();

export const PiHeader = named(
  'PiHeader',
  obj({
    type: z.literal('session'),
    version: opt(z.number().int()).describe('absent: v1; 2 adds the id/parentId tree; 3 renames hookMessage'),
    id: str,
    timestamp: str,
    cwd: str,
    parentSession: opt(str).describe('file path of the session this one was forked from (v2+)'),
    branchedFrom: opt(str).describe('v1 name of parentSession (renamed in 0.31.0)'),
    provider: opt(str),
    modelId: opt(str),
    thinkingLevel: opt(str),
  }),
  'Line 1 of a Pi session file.',
);

export const BLOCK_VARIANTS = {
  text: named('PiTextBlock', obj({ type: z.literal('text'), text: str, textSignature: json.optional() })),
  thinking: named(
    'PiThinkingBlock',
    obj({ type: z.literal('thinking'), thinking: str, thinkingSignature: opt(str), redacted: opt(z.boolean()) }),
  ),
  image: named('PiImageBlock', obj({ type: z.literal('image'), data: str, mimeType: str })),
  toolCall: named(
    'PiToolCallBlock',
    obj({
      type: z.literal('toolCall'),
      id: str,
      name: str,
      arguments: json.optional(),
      partialJson: opt(str).describe('a streaming leftover older Pi versions wrote'),
      thoughtSignature: opt(str),
    }),
  ),
} as const;

const OtherBlock = named('PiOtherBlock', obj({ type: unknownTag(Object.keys(BLOCK_VARIANTS)) }));
export const ContentBlock = named('PiContentBlock', z.union([...Object.values(BLOCK_VARIANTS), OtherBlock]));
const content = z.union([str, z.array(ContentBlock)]);

export const STOP_REASONS = ['stop', 'length', 'toolUse', 'error', 'aborted'] as const;

export const ROLE_VARIANTS = {
  user: named('PiUserMessage', obj({ role: z.literal('user'), content, timestamp: opt(num) })),
  assistant: named(
    'PiAssistantMessage',
    obj({
      role: z.literal('assistant'),
      content: z.array(ContentBlock),
      api: opt(str),
      provider: opt(str),
      model: opt(str),
      usage: json.optional(),
      stopReason: opt(str).describe(STOP_REASONS.join(' | ')),
      errorMessage: opt(str),
      timestamp: opt(num),
    }),
  ),
  toolResult: named(
    'PiToolResultMessage',
    obj({
      role: z.literal('toolResult'),
      toolCallId: str,
      toolName: opt(str),
      content,
      details: json.optional(),
      isError: opt(z.boolean()),
      timestamp: opt(num),
    }),
  ),
  bashExecution: named(
    'PiBashExecutionMessage',
    obj({
      role: z.literal('bashExecution'),
      command: str,
      output: opt(str),
      exitCode: opt(num),
      cancelled: opt(z.boolean()),
      truncated: opt(z.boolean()),
      fullOutputPath: opt(str),
      excludeFromContext: opt(z.boolean()),
      timestamp: opt(num),
    }),
  ),
  custom: named(
    'PiCustomMessage',
    obj({ role: z.literal('custom'), customType: opt(str), content: content.optional(), display: opt(z.boolean()) }),
  ),
  hookMessage: named(
    'PiHookMessage',
    obj({ role: z.literal('hookMessage') }),
    'v2 name of the custom role (migrated to custom in v3)',
  ),
} as const;

const OtherMessage = named('PiOtherMessage', obj({ role: unknownTag(Object.keys(ROLE_VARIANTS)) }));
export const AgentMessage = named('PiAgentMessage', z.union([...Object.values(ROLE_VARIANTS), OtherMessage]));

/** Fields every entry carries: v1 has only the time; v2+ adds the tree (checked by the tree checks). */
const base = { id: opt(str), parentId: str.nullable().optional(), timestamp: str };

export const ENTRY_VARIANTS = {
  session: PiHeader,
  message: named('PiMessageEntry', obj({ type: z.literal('message'), ...base, message: AgentMessage })),
  thinking_level_change: named(
    'PiThinkingLevelChange',
    obj({ type: z.literal('thinking_level_change'), ...base, thinkingLevel: str }),
  ),
  model_change: named(
    'PiModelChange',
    obj({ type: z.literal('model_change'), ...base, provider: opt(str), modelId: str }),
  ),
  compaction: named(
    'PiCompaction',
    obj({
      type: z.literal('compaction'),
      ...base,
      summary: str,
      firstKeptEntryId: opt(str).describe('v2+: the first entry kept after the summary'),
      firstKeptEntryIndex: opt(z.number().int()).describe('v1: index of the first kept entry (the header is 0)'),
      tokensBefore: opt(num),
      details: json.optional(),
      fromHook: opt(z.boolean()),
    }),
  ),
  branch_summary: named(
    'PiBranchSummary',
    obj({
      type: z.literal('branch_summary'),
      ...base,
      fromId: str,
      summary: str,
      details: json.optional(),
      fromHook: opt(z.boolean()),
    }),
  ),
  custom: named('PiCustomEntry', obj({ type: z.literal('custom'), ...base, customType: str, data: json.optional() })),
  custom_message: named(
    'PiCustomMessageEntry',
    obj({
      type: z.literal('custom_message'),
      ...base,
      customType: str,
      content,
      display: opt(z.boolean()),
      details: json.optional(),
    }),
  ),
  label: named('PiLabel', obj({ type: z.literal('label'), ...base, targetId: str, label: opt(str) })),
  session_info: named('PiSessionInfo', obj({ type: z.literal('session_info'), ...base, name: opt(str) })),
} as const;

export const SessionLine = named(
  'PiSessionLine',
  z.union([
    ...Object.values(ENTRY_VARIANTS),
    named('PiUnknownEntry', obj({ type: unknownTag(Object.keys(ENTRY_VARIANTS)) })),
  ]),
  'One line of a Pi session file: the header (line 1) or an entry tagged "type".',
);
