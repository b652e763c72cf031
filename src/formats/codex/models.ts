/**
 * Codex CLI rollouts (formats/codex-claude.md §1): `sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`, one
 * `RolloutLine {timestamp, #[serde(flatten)] item: RolloutItem}` per line, `RolloutItem` tagged `type` with its
 * content in `payload` (openai/codex protocol.rs), plus `ordinal` in paginated rollouts (rollout/src/ordinal.rs).
 *
 * Loose on purpose: Codex adds fields and variants often, so unknown keys are accepted everywhere and only the
 * fields the audit relies on (ids, call ids, the tag) are required. Unknown tags are notes, not violations.
 */
import { z } from 'zod';
import { json, named, obj, opt, rfc3339, uint, unknownTag } from '../shared/zod.js';

const str = z.string();

/** `SessionMetaLine`: identity, written first (and copied from the parent at the head of a fork). */
export const SessionMeta = named(
  'CodexSessionMeta',
  obj({
    id: str,
    timestamp: str,
    cwd: str,
    originator: opt(str),
    cli_version: opt(str),
    instructions: opt(str),
    base_instructions: opt(obj({ text: opt(str) })),
    source: json.optional().describe('SessionSource: "cli" | "vscode" | "exec" | "mcp" | {"subagent": …} | …'),
    model_provider: opt(str),
    forked_from_id: opt(str),
    parent_thread_id: opt(str),
    history_mode: opt(str).describe('"paginated": every line carries an ordinal'),
    git: opt(obj({ commit_hash: opt(str), branch: opt(str), repository_url: opt(str) })),
  }),
);

/** `FunctionCallOutputPayload`: a plain string, or content items (newer builds), or an object from old ones. */
const CallOutput = z.union([str, z.array(obj({ type: str })), obj({})]);

export const RESPONSE_ITEM_VARIANTS = {
  message: named(
    'CodexMessage',
    obj({ type: z.literal('message'), role: str, content: z.array(obj({ type: str })), phase: opt(str) }),
  ),
  reasoning: named(
    'CodexReasoning',
    obj({
      type: z.literal('reasoning'),
      summary: z.array(obj({ type: str })),
      content: opt(z.array(obj({ type: str }))),
      encrypted_content: opt(str),
    }),
  ),
  local_shell_call: named(
    'CodexLocalShellCall',
    obj({
      type: z.literal('local_shell_call'),
      call_id: opt(str),
      id: opt(str),
      status: str,
      action: obj({ type: str }),
    }),
  ),
  function_call: named(
    'CodexFunctionCall',
    obj({ type: z.literal('function_call'), name: str, arguments: str, call_id: str }),
  ),
  function_call_output: named(
    'CodexFunctionCallOutput',
    obj({ type: z.literal('function_call_output'), call_id: str, output: CallOutput }),
  ),
  custom_tool_call: named(
    'CodexCustomToolCall',
    obj({ type: z.literal('custom_tool_call'), call_id: str, name: str, input: str, status: opt(str) }),
  ),
  custom_tool_call_output: named(
    'CodexCustomToolCallOutput',
    obj({ type: z.literal('custom_tool_call_output'), call_id: str, output: CallOutput }),
  ),
  tool_search_call: named('CodexToolSearchCall', obj({ type: z.literal('tool_search_call'), call_id: opt(str) })),
  tool_search_output: named('CodexToolSearchOutput', obj({ type: z.literal('tool_search_output'), call_id: opt(str) })),
  web_search_call: named(
    'CodexWebSearchCall',
    obj({ type: z.literal('web_search_call'), status: opt(str), action: json.optional() }),
  ),
  image_generation_call: named('CodexImageGenerationCall', obj({ type: z.literal('image_generation_call') })),
  ghost_snapshot: named('CodexGhostSnapshot', obj({ type: z.literal('ghost_snapshot') })),
  compaction: named('CodexCompaction', obj({ type: z.literal('compaction'), encrypted_content: str })),
  compaction_summary: named(
    'CodexCompactionSummary',
    obj({ type: z.literal('compaction_summary'), encrypted_content: str }),
  ),
  other: named('CodexOtherItem', obj({ type: z.literal('other') })),
} as const;

const OtherResponseItem = named(
  'CodexUnknownResponseItem',
  obj({ type: unknownTag(Object.keys(RESPONSE_ITEM_VARIANTS)) }),
  'A response item of a type this model does not know (Codex reads it as Other).',
);

export const ResponseItem = named(
  'CodexResponseItem',
  z.union([...Object.values(RESPONSE_ITEM_VARIANTS), OtherResponseItem]),
);

/** The persisted `EventMsg` variants the audit reads (rollout/src/policy.rs keeps a subset on disk). */
export const EVENT_MSG_VARIANTS = {
  user_message: named('CodexUserMessage', obj({ type: z.literal('user_message'), message: str })),
  agent_message: named('CodexAgentMessage', obj({ type: z.literal('agent_message'), message: str })),
  agent_reasoning: named('CodexAgentReasoning', obj({ type: z.literal('agent_reasoning'), text: str })),
  agent_reasoning_raw_content: named(
    'CodexAgentReasoningRaw',
    obj({ type: z.literal('agent_reasoning_raw_content'), text: str }),
  ),
  token_count: named('CodexTokenCount', obj({ type: z.literal('token_count'), info: opt(obj({})) })),
  task_started: named('CodexTaskStarted', obj({ type: z.literal('task_started'), turn_id: opt(str) })),
  task_complete: named(
    'CodexTaskComplete',
    obj({ type: z.literal('task_complete'), turn_id: opt(str), last_agent_message: opt(str) }),
  ),
  turn_aborted: named('CodexTurnAborted', obj({ type: z.literal('turn_aborted'), reason: json.optional() })),
  context_compacted: named('CodexContextCompacted', obj({ type: z.literal('context_compacted') })),
  thread_rolled_back: named('CodexThreadRolledBack', obj({ type: z.literal('thread_rolled_back'), num_turns: uint })),
  exec_command_end: named(
    'CodexExecCommandEnd',
    obj({ type: z.literal('exec_command_end'), call_id: str, exit_code: opt(z.number().int()), status: opt(str) }),
  ),
  patch_apply_end: named(
    'CodexPatchApplyEnd',
    obj({ type: z.literal('patch_apply_end'), call_id: str, success: opt(z.boolean()) }),
  ),
  mcp_tool_call_end: named('CodexMcpToolCallEnd', obj({ type: z.literal('mcp_tool_call_end'), call_id: str })),
  web_search_end: named('CodexWebSearchEnd', obj({ type: z.literal('web_search_end'), call_id: opt(str) })),
  view_image_tool_call: named(
    'CodexViewImageToolCall',
    obj({ type: z.literal('view_image_tool_call'), call_id: opt(str) }),
  ),
  error: named('CodexError', obj({ type: z.literal('error'), message: str })),
  warning: named('CodexWarning', obj({ type: z.literal('warning'), message: str })),
  stream_error: named('CodexStreamError', obj({ type: z.literal('stream_error'), message: str })),
  entered_review_mode: named('CodexEnteredReviewMode', obj({ type: z.literal('entered_review_mode') })),
  exited_review_mode: named('CodexExitedReviewMode', obj({ type: z.literal('exited_review_mode') })),
  plan_update: named('CodexPlanUpdate', obj({ type: z.literal('plan_update') })),
  turn_diff: named('CodexTurnDiff', obj({ type: z.literal('turn_diff') })),
  item_completed: named('CodexItemCompleted', obj({ type: z.literal('item_completed') })),
  undo_completed: named('CodexUndoCompleted', obj({ type: z.literal('undo_completed') })),
  background_event: named('CodexBackgroundEvent', obj({ type: z.literal('background_event') })),
} as const;

const OtherEventMsg = named(
  'CodexUnknownEventMsg',
  obj({ type: unknownTag(Object.keys(EVENT_MSG_VARIANTS)) }),
  'An event of a type this model does not know.',
);

export const EventMsg = named('CodexEventMsg', z.union([...Object.values(EVENT_MSG_VARIANTS), OtherEventMsg]));

/** `SandboxPolicy` (tag `type`): danger-full-access | read-only | external-sandbox | workspace-write. */
export const SandboxPolicy = named(
  'CodexSandboxPolicy',
  obj({
    type: str,
    writable_roots: opt(z.array(str)),
    network_access: z.union([z.boolean(), str]).nullable().optional(),
    exclude_tmpdir_env_var: opt(z.boolean()),
    exclude_slash_tmp: opt(z.boolean()),
  }),
);

/** `TurnContextItem`, old and new: the approval and sandbox policy a turn runs under. */
export const TurnContext = named(
  'CodexTurnContext',
  obj({
    cwd: str,
    approval_policy: opt(str).describe('AskForApproval: untrusted | on-failure | on-request | never'),
    sandbox_policy: opt(SandboxPolicy),
    permission_profile: json
      .optional()
      .describe(
        'PermissionProfile (newer builds): {type: managed, file_system, network} | {type: disabled} | {type: ' +
          'external, network}',
      ),
    network: json.optional(),
    model: opt(str),
    effort: opt(str),
    turn_id: opt(str),
  }),
);

export const Compacted = named('CodexCompacted', obj({ message: str, replacement_history: opt(z.array(json)) }));

const line = <T extends z.ZodType>(id: string, type: string, payload: T) =>
  named(id, obj({ timestamp: rfc3339, type: z.literal(type), payload, ordinal: opt(uint) }));

/** Type → line variant: the one table the union and the runtime dispatch are built from. */
export const LINE_VARIANTS = {
  session_meta: line('CodexSessionMetaLine', 'session_meta', SessionMeta),
  response_item: line('CodexResponseItemLine', 'response_item', ResponseItem),
  event_msg: line('CodexEventMsgLine', 'event_msg', EventMsg),
  turn_context: line('CodexTurnContextLine', 'turn_context', TurnContext),
  compacted: line('CodexCompactedLine', 'compacted', Compacted),
  inter_agent_communication: line('CodexInterAgentLine', 'inter_agent_communication', obj({})),
  inter_agent_communication_metadata: line('CodexInterAgentMetaLine', 'inter_agent_communication_metadata', obj({})),
  world_state: line('CodexWorldStateLine', 'world_state', obj({})),
} as const;

export const RolloutLine = named(
  'CodexRolloutLine',
  z.union([
    ...Object.values(LINE_VARIANTS),
    named(
      'CodexUnknownLine',
      obj({
        timestamp: rfc3339,
        type: unknownTag(Object.keys(LINE_VARIANTS)),
        payload: json.optional(),
        ordinal: opt(uint),
      }),
    ),
  ]),
  'One line of a Codex CLI rollout: {timestamp, type, payload, ordinal?}. Response items and events are checked ' +
    'against CodexResponseItem and CodexEventMsg.',
);
