/**
 * xAI `SessionUpdate` variants, the `_x.ai/session/update` rail of updates.jsonl (notification.rs,
 * `#[serde(rename_all="snake_case", tag="sessionUpdate")]`). Variant fields keep their snake_case Rust names.
 * Unknown tags decode as `Unknown` (serde(other)); a known tag with a bad payload fails.
 */
import { z } from 'zod';
import { json, named, obj, opt, uint, unknownTag } from '../../shared/zod.js';

const int = z.number().int();
const str = z.string();

/** Tags documented as never persisted (formats/grok-build.md §2.3): seeing one on disk is a warning. */
export const XAI_NOT_PERSISTED = [
  'session_status',
  'last_turn_summary',
  'pending_interaction',
  'interaction_resolved',
  'tool_call_delta_chunk',
  'subagent_progress',
] as const;

const PromptUsageModel = {
  inputTokens: uint.optional(),
  outputTokens: uint.optional(),
  totalTokens: uint.optional(),
  cachedReadTokens: uint.optional(),
  cacheCreationTokens: uint.optional(),
  cacheWrite5mInputTokens: uint.optional(),
  cacheWrite1hInputTokens: uint.optional(),
  reasoningTokens: uint.optional(),
  modelCalls: uint.optional(),
  apiDurationMs: uint.optional(),
  costUsdTicks: opt(int),
  costIsPartial: z.boolean().optional(),
};

export const PromptUsage = named(
  'XaiPromptUsage',
  obj({
    ...PromptUsageModel,
    modelUsage: z.record(str, obj(PromptUsageModel)).optional(),
    numTurns: uint.optional(),
    usageIsIncomplete: z.boolean().optional(),
  }),
);

const Diff = obj({ type: z.literal('diff').optional(), path: str, oldText: opt(str), newText: str });

const v = <S extends z.core.$ZodLooseShape>(tag: string, id: string, shape: S) =>
  named(id, obj({ sessionUpdate: z.literal(tag), ...shape }));

export const XAI_VARIANTS = {
  diff_review: v('diff_review', 'XaiDiffReview', { content: z.array(Diff) }),
  retry_state: named(
    'XaiRetryState',
    z.discriminatedUnion('type', [
      obj({
        sessionUpdate: z.literal('retry_state'),
        type: z.literal('retrying'),
        attempt: uint,
        max_retries: uint,
        reason: str,
      }),
      obj({
        sessionUpdate: z.literal('retry_state'),
        type: z.literal('exhausted'),
        attempts: uint,
        reason: str,
        is_rate_limited: z.boolean().optional(),
      }),
      obj({ sessionUpdate: z.literal('retry_state'), type: z.literal('failed'), error_type: str, message: str }),
    ]),
  ),
  auto_compact_started: v('auto_compact_started', 'XaiAutoCompactStarted', {
    tokens_used: uint,
    context_window: uint,
    percentage: uint,
    reason: str,
  }),
  auto_compact_completed: v('auto_compact_completed', 'XaiAutoCompactCompleted', {
    tokens_before: opt(uint),
    tokens_after: uint,
    elapsed_ms: opt(int),
    summary_preview: opt(str),
  }),
  auto_compact_failed: v('auto_compact_failed', 'XaiAutoCompactFailed', { error: str }),
  memory_flush_started: v('memory_flush_started', 'XaiMemoryFlushStarted', {}),
  memory_flush_completed: v('memory_flush_completed', 'XaiMemoryFlushCompleted', { result: str, path: opt(str) }),
  memory_dream_completed: v('memory_dream_completed', 'XaiMemoryDreamCompleted', { result: str, path: opt(str) }),
  memory_session_saved: v('memory_session_saved', 'XaiMemorySessionSaved', { path: str }),
  auto_compact_cancelled: v('auto_compact_cancelled', 'XaiAutoCompactCancelled', { reason: str }),
  auto_continue_completed: v('auto_continue_completed', 'XaiAutoContinueCompleted', { total_tokens: uint }),
  feedback_request: v('feedback_request', 'XaiFeedbackRequest', { request_id: str, prompt: str }),
  relay_sync_status: v('relay_sync_status', 'XaiRelaySyncStatus', {
    status: z.enum(['connected', 'disconnected', 'reconnecting']),
  }),
  auto_recovery_started: v('auto_recovery_started', 'XaiAutoRecoveryStarted', {
    attempt: uint,
    max_retries: uint,
    error: str,
    delay_ms: uint,
  }),
  auto_recovery_exhausted: v('auto_recovery_exhausted', 'XaiAutoRecoveryExhausted', { attempts: uint, error: str }),
  hook_annotation: v('hook_annotation', 'XaiHookAnnotation', { message: str }),
  hook_execution: v('hook_execution', 'XaiHookExecution', {
    event_name: str,
    tool_name: opt(str),
    prompt_id: opt(str),
    runs: z.array(obj({ name: str, status: obj({ status: str }), output: opt(str) })),
  }),
  hooks_changed: v('hooks_changed', 'XaiHooksChanged', {
    hooks: z.array(obj({ name: str })),
    project_trusted: z.boolean(),
    load_errors: z.array(str).optional(),
  }),
  plugins_changed: v('plugins_changed', 'XaiPluginsChanged', { plugins: z.array(obj({ name: str, id: str })) }),
  plugin_updates_installed: v('plugin_updates_installed', 'XaiPluginUpdatesInstalled', {
    updates: z.array(z.tuple([str, str, str])),
  }),
  session_status: v('session_status', 'XaiSessionStatus', {}),
  session_summary_generated: v('session_summary_generated', 'XaiSessionSummaryGenerated', { session_summary: str }),
  session_recap: v('session_recap', 'XaiSessionRecap', { summary: str, auto: z.boolean().optional() }),
  session_recap_unavailable: v('session_recap_unavailable', 'XaiSessionRecapUnavailable', {}),
  last_turn_summary: v('last_turn_summary', 'XaiLastTurnSummary', {}),
  compaction_checkpoint: v('compaction_checkpoint', 'XaiCompactionCheckpoint', {
    checkpoint_id: str,
    prompt_index_at_compaction: uint,
    checkpoint_file: str,
    auto_continue: opt(obj({ prompt_text: str })),
    schema_version: uint,
    created_at: str,
  }),
  rewind_marker: v('rewind_marker', 'XaiRewindMarker', { target_prompt_index: uint, created_at: str }),
  task_completed: v('task_completed', 'XaiTaskCompleted', {
    task_snapshot: obj({ task_id: str }),
    will_wake: z.boolean().optional(),
  }),
  subagent_spawned: v('subagent_spawned', 'XaiSubagentSpawned', {
    subagent_id: str,
    parent_session_id: str,
    parent_prompt_id: opt(str),
    child_session_id: str,
    subagent_type: str,
    description: str,
    effective_context_source: opt(str),
    context_normalized: z.boolean().optional(),
    capability_mode: opt(str),
    persona: opt(str),
    role: opt(str),
    model: opt(str),
    resumed_from: opt(str),
    workflow_run_id: opt(str),
  }),
  subagent_progress: v('subagent_progress', 'XaiSubagentProgress', { subagent_id: str, child_session_id: str }),
  subagent_finished: v('subagent_finished', 'XaiSubagentFinished', {
    subagent_id: str,
    child_session_id: str,
    status: str,
    error: opt(str),
    tool_calls: uint,
    turns: uint,
    duration_ms: uint,
    tokens_used: uint.optional(),
    output: opt(str),
    will_wake: z.boolean().optional(),
  }),
  task_backgrounded: v('task_backgrounded', 'XaiTaskBackgrounded', {
    tool_call_id: str,
    task_id: str,
    command: str,
    cwd: str,
    output_file: str,
    monitor_description: opt(str),
    description: opt(str),
  }),
  scheduled_task_created: v('scheduled_task_created', 'XaiScheduledTaskCreated', {
    task_id: str,
    prompt: str,
    human_schedule: str,
    next_fire_at: opt(str),
  }),
  scheduled_task_fired: v('scheduled_task_fired', 'XaiScheduledTaskFired', {
    task_id: str,
    prompt: str,
    human_schedule: str,
    next_fire_at: opt(str),
    subagent_id: opt(str),
  }),
  scheduled_task_deleted: v('scheduled_task_deleted', 'XaiScheduledTaskDeleted', { task_id: str }),
  monitor_event: v('monitor_event', 'XaiMonitorEvent', { task_id: str, description: str, event_text: str }),
  model_auto_switched: v('model_auto_switched', 'XaiModelAutoSwitched', {
    previous_model_id: str,
    new_model_id: str,
    reason: str,
  }),
  model_changed: v('model_changed', 'XaiModelChanged', { model_id: str, reasoning_effort: opt(str) }),
  tool_call_delta_chunk: v('tool_call_delta_chunk', 'XaiToolCallDeltaChunk', {
    tool_call_id: opt(str),
    tool_index: uint,
    name: opt(str),
    arguments_delta: opt(str),
  }),
  image_compressed: v('image_compressed', 'XaiImageCompressed', { images: z.array(json), message: str }),
  image_dropped: v('image_dropped', 'XaiImageDropped', { notes: z.array(str) }),
  memory_files: v('memory_files', 'XaiMemoryFiles', {
    files: z.array(obj({ path: str, source: str, size_bytes: uint })),
  }),
  workflow_updated: v('workflow_updated', 'XaiWorkflowUpdated', {
    run_id: str,
    name: str,
    objective: str,
    status: str,
    elapsed_ms: uint,
  }),
  goal_updated: v('goal_updated', 'XaiGoalUpdated', {
    goal_id: str,
    objective: str,
    status: str,
    phase: str,
    elapsed_ms: uint,
    total_deliverables: uint,
    completed_deliverables: uint,
    total_worker_rounds: uint,
    total_verify_rounds: uint,
  }),
  pending_interaction: v('pending_interaction', 'XaiPendingInteraction', { tool_call_id: str, kind: str }),
  interaction_resolved: v('interaction_resolved', 'XaiInteractionResolved', { tool_call_id: str }),
  turn_completed: v('turn_completed', 'XaiTurnCompleted', {
    prompt_id: str,
    stop_reason: str,
    agent_result: opt(str),
    usage: opt(PromptUsage),
  }),
  response_started: v('response_started', 'XaiResponseStarted', {}),
  reasoning_completed: v('reasoning_completed', 'XaiReasoningCompleted', {}),
  response_completed: v('response_completed', 'XaiResponseCompleted', {}),
} as const;

export const XAI_TAGS = Object.keys(XAI_VARIANTS);

export const XaiUnknownUpdate = named(
  'XaiUnknownUpdate',
  obj({ sessionUpdate: unknownTag(XAI_TAGS) }),
  'A tag this model does not know: Grok decodes it as Unknown and ignores its fields.',
);

export const XaiUpdate = named(
  'XaiUpdate',
  z.union([...(Object.values(XAI_VARIANTS) as z.ZodType[]), XaiUnknownUpdate] as unknown as [
    z.ZodType,
    z.ZodType,
    ...z.ZodType[],
  ]),
);

export const XaiNotification = named(
  'XaiNotification',
  obj({ sessionId: str, update: XaiUpdate, _meta: json.optional() }),
);
