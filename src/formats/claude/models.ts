/**
 * Claude Code transcripts (formats/codex-claude.md §2): `~/.claude/projects/<encoded-cwd>/<session>.jsonl`, one
 * record per line tagged `type`, and the session's folder `<session>/` with `subagents/agent-<id>.jsonl` (sidechain
 * transcripts) and their `agent-<id>.meta.json`. The format is internal and changes often (Anthropic says so):
 * loose everywhere, only the chain fields (uuid, parentUuid) and the tool ids are required, unknown record types and
 * content blocks are notes. Shapes from oneryalcin/agent-schemas (v2.0.76 … v2.1.144) and real transcripts.
 */
import { z } from 'zod';
import { json, named, obj, opt, uint, unknownTag } from '../shared/zod.js';

const str = z.string();
const uuid = str;

/** Content blocks of the Anthropic Messages shape, plus Claude Code's own. */
export const BLOCK_VARIANTS = {
  text: named('ClaudeTextBlock', obj({ type: z.literal('text'), text: str })),
  thinking: named('ClaudeThinkingBlock', obj({ type: z.literal('thinking'), thinking: str, signature: opt(str) })),
  redacted_thinking: named(
    'ClaudeRedactedThinkingBlock',
    obj({ type: z.literal('redacted_thinking'), data: opt(str) }),
  ),
  tool_use: named(
    'ClaudeToolUseBlock',
    obj({ type: z.literal('tool_use'), id: str, name: str, input: json.optional() }),
  ),
  server_tool_use: named(
    'ClaudeServerToolUseBlock',
    obj({ type: z.literal('server_tool_use'), id: str, name: str, input: json.optional() }),
  ),
  tool_result: named(
    'ClaudeToolResultBlock',
    obj({
      type: z.literal('tool_result'),
      tool_use_id: str,
      content: z
        .union([str, z.array(obj({ type: str }))])
        .nullable()
        .optional(),
      is_error: opt(z.boolean()),
    }),
  ),
  image: named('ClaudeImageBlock', obj({ type: z.literal('image') })),
  document: named('ClaudeDocumentBlock', obj({ type: z.literal('document') })),
} as const;

const OtherBlock = named(
  'ClaudeOtherBlock',
  obj({ type: unknownTag(Object.keys(BLOCK_VARIANTS)) }),
  'A content block of a type this model does not know (web_search_tool_result, tool_reference, …).',
);
export const ContentBlock = named('ClaudeContentBlock', z.union([...Object.values(BLOCK_VARIANTS), OtherBlock]));

/** Fields every record of the conversation chain carries. */
const chain = {
  uuid,
  parentUuid: uuid.nullable(),
  logicalParentUuid: opt(uuid),
  sessionId: opt(str),
  timestamp: str,
  isSidechain: opt(z.boolean()),
  agentId: opt(str),
  userType: opt(str),
  cwd: opt(str),
  version: opt(str),
  gitBranch: opt(str),
  isMeta: opt(z.boolean()),
};

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions', 'auto'] as const;

export const RECORD_VARIANTS = {
  user: named(
    'ClaudeUser',
    obj({
      type: z.literal('user'),
      ...chain,
      message: obj({ role: z.literal('user'), content: z.union([str, z.array(ContentBlock)]) }),
      permissionMode: opt(str).describe(
        `the permission mode the prompt was sent under: ${PERMISSION_MODES.join(' | ')}`,
      ),
      toolUseResult: json.optional(),
      isCompactSummary: opt(z.boolean()),
    }),
  ),
  assistant: named(
    'ClaudeAssistant',
    obj({
      type: z.literal('assistant'),
      ...chain,
      message: obj({
        id: opt(str),
        role: z.literal('assistant'),
        content: z.array(ContentBlock),
        model: opt(str),
        stop_reason: opt(str),
      }),
      requestId: opt(str),
    }),
  ),
  system: named(
    'ClaudeSystem',
    obj({
      type: z.literal('system'),
      ...chain,
      subtype: opt(str),
      content: json.optional(),
      compactMetadata: opt(obj({ trigger: opt(str), preTokens: opt(uint) })),
    }),
  ),
  progress: named(
    'ClaudeProgress',
    obj({
      type: z.literal('progress'),
      ...chain,
      data: obj({ type: str }),
      toolUseID: opt(str),
      parentToolUseID: opt(str),
    }),
  ),
  attachment: named(
    'ClaudeAttachment',
    obj({ type: z.literal('attachment'), uuid: opt(uuid), parentUuid: uuid.nullable().optional() }),
  ),
  summary: named('ClaudeSummary', obj({ type: z.literal('summary'), summary: str, leafUuid: uuid })),
  'file-history-snapshot': named(
    'ClaudeFileHistorySnapshot',
    obj({
      type: z.literal('file-history-snapshot'),
      messageId: str,
      snapshot: obj({}),
      isSnapshotUpdate: opt(z.boolean()),
    }),
  ),
  'queue-operation': named(
    'ClaudeQueueOperation',
    obj({ type: z.literal('queue-operation'), operation: str, timestamp: opt(str), sessionId: opt(str) }),
  ),
  'permission-mode': named(
    'ClaudePermissionMode',
    obj({ type: z.literal('permission-mode'), permissionMode: str, sessionId: opt(str) }),
  ),
  'custom-title': named('ClaudeCustomTitle', obj({ type: z.literal('custom-title') })),
  'ai-title': named('ClaudeAiTitle', obj({ type: z.literal('ai-title') })),
  'agent-name': named('ClaudeAgentName', obj({ type: z.literal('agent-name') })),
  'agent-setting': named('ClaudeAgentSetting', obj({ type: z.literal('agent-setting') })),
  'last-prompt': named('ClaudeLastPrompt', obj({ type: z.literal('last-prompt') })),
  'pr-link': named('ClaudePrLink', obj({ type: z.literal('pr-link') })),
  'bridge-session': named('ClaudeBridgeSession', obj({ type: z.literal('bridge-session') })),
  'worktree-state': named('ClaudeWorktreeState', obj({ type: z.literal('worktree-state') })),
  mode: named('ClaudeMode', obj({ type: z.literal('mode') })),
  'cost-state': named('ClaudeCostState', obj({ type: z.literal('cost-state') })),
  'file-history-delta': named('ClaudeFileHistoryDelta', obj({ type: z.literal('file-history-delta') })),
  turn_end: named('ClaudeTurnEnd', obj({ type: z.literal('turn_end') })),
} as const;

export const TranscriptLine = named(
  'ClaudeTranscriptLine',
  z.union([
    ...Object.values(RECORD_VARIANTS),
    named('ClaudeUnknownRecord', obj({ type: unknownTag(Object.keys(RECORD_VARIANTS)) })),
  ]),
  'One line of a Claude Code transcript (or of a sub-agent transcript): a record tagged "type".',
);

/** `subagents/agent-<id>.meta.json`. */
export const SubagentMeta = named(
  'ClaudeSubagentMeta',
  obj({ toolUseId: opt(str), agentType: opt(str), description: opt(str) }),
  'The metadata Claude Code writes next to a sub-agent transcript.',
);
