/**
 * GitHub Copilot CLI records (formats/copilot-cli.md §2, Appendix A; the CLI's own session-events.schema.json):
 * every line of `events.jsonl` (and of a flat `session-state/<id>.jsonl`) is an envelope
 * `{type, data, id, timestamp, parentId}` whose `data` is the payload of its `type`. The fields the schema marks
 * required are required here; every object is loose, because the CLI adds fields from version to version (1.0.59
 * lines carry fields the 1.0.48 schema does not know): an unknown field is drift, never damage. Types the schema
 * marks ephemeral are listed (they are never written by the CLI). The legacy `history-session-state/*.json`
 * document and `rewind-snapshots/index.json` are modelled loosely.
 */
import { z } from 'zod';
import { json, named, obj, opt } from '../shared/zod.js';

const str = z.string();
const num = z.number();
const bool = z.boolean();

const data = <S extends z.core.$ZodLooseShape>(type: string, shape: S) =>
  named(
    `Copilot_${type.replace(/[^A-Za-z0-9]+/g, '_')}`,
    obj({
      type: z.literal(type),
      data: obj(shape),
      id: str,
      timestamp: str,
      parentId: z.string().nullable(),
      agentId: str.optional(),
    }),
  );

const toolRequest = obj({ toolCallId: str, name: str, arguments: json.optional() });

/** The persisted types with the fields the CLI's schema requires of their `data`. */
export const EVENT_VARIANTS = {
  'session.start': data('session.start', {
    sessionId: str,
    version: num,
    producer: str,
    copilotVersion: str,
    startTime: str,
    context: obj({ cwd: str }).optional(),
  }),
  'session.resume': data('session.resume', { resumeTime: str, eventCount: num }),
  'session.shutdown': data('session.shutdown', {
    shutdownType: str,
    sessionStartTime: num,
    totalApiDurationMs: num,
    codeChanges: obj({}),
    modelMetrics: obj({}),
  }),
  'session.model_change': data('session.model_change', { newModel: str }),
  'session.mode_changed': data('session.mode_changed', { newMode: str }),
  'session.info': data('session.info', { infoType: str, message: str }),
  'session.warning': data('session.warning', { warningType: str, message: str }),
  'session.error': data('session.error', { errorType: str, message: str }),
  'session.truncation': data('session.truncation', { tokenLimit: num }),
  'session.compaction_start': data('session.compaction_start', {}),
  'session.compaction_complete': data('session.compaction_complete', { success: bool }),
  'session.task_complete': data('session.task_complete', {}),
  'session.plan_changed': data('session.plan_changed', {}),
  'session.workspace_file_changed': data('session.workspace_file_changed', {}),
  'session.handoff': data('session.handoff', {}),
  'session.usage_checkpoint': data('session.usage_checkpoint', {}),
  'session.context_changed': data('session.context_changed', {}),
  'session.context_cleared': data('session.context_cleared', {}),
  'session.remote_steerable_changed': data('session.remote_steerable_changed', {}),
  'session.permissions_changed': data('session.permissions_changed', {}),
  'session.session_limits_changed': data('session.session_limits_changed', {}),
  'session.autopilot_objective_changed': data('session.autopilot_objective_changed', {}),
  'session.schedule_created': data('session.schedule_created', {}),
  'session.schedule_cancelled': data('session.schedule_cancelled', {}),
  'session.schedule_rearmed': data('session.schedule_rearmed', {}),
  'session.binary_asset': data('session.binary_asset', {}),
  'session.auto_mode_resolved': data('session.auto_mode_resolved', {}),
  'session.canvas.recorded': data('session.canvas.recorded', {}),
  'session.canvas.removed': data('session.canvas.removed', {}),
  'system.message': data('system.message', { content: str, role: str }),
  'system.notification': data('system.notification', { content: str }),
  'user.message': data('user.message', { content: str }),
  'assistant.turn_start': data('assistant.turn_start', { turnId: str }),
  'assistant.turn_end': data('assistant.turn_end', { turnId: str }),
  'assistant.reasoning': data('assistant.reasoning', { content: str }),
  'assistant.message': data('assistant.message', {
    messageId: str,
    content: str,
    toolRequests: z.array(toolRequest).optional(),
  }),
  abort: data('abort', { reason: str }),
  'tool.user_requested': data('tool.user_requested', { toolCallId: str, toolName: str }),
  'tool.execution_start': data('tool.execution_start', { toolCallId: str, toolName: str, arguments: json.optional() }),
  'tool.execution_complete': data('tool.execution_complete', {
    toolCallId: str,
    success: bool,
    result: obj({ content: str }).optional(),
    error: obj({ message: str }).optional(),
  }),
  'tool_search.activated': data('tool_search.activated', {}),
  'skill.invoked': data('skill.invoked', { name: str }),
  'subagent.started': data('subagent.started', { toolCallId: str, agentName: str }),
  'subagent.completed': data('subagent.completed', { toolCallId: str, agentName: str }),
  'subagent.failed': data('subagent.failed', { toolCallId: str, agentName: str, error: str }),
  'subagent.selected': data('subagent.selected', {}),
  'subagent.deselected': data('subagent.deselected', {}),
  'hook.start': data('hook.start', { hookInvocationId: str, hookType: str }),
  'hook.end': data('hook.end', { hookInvocationId: str, hookType: str, success: bool }),
  'permission.requested': data('permission.requested', { requestId: str, permissionRequest: obj({ kind: str }) }),
  'permission.completed': data('permission.completed', { requestId: str, result: obj({ kind: str }) }),
  'external_tool.requested': data('external_tool.requested', { requestId: str }),
  'external_tool.completed': data('external_tool.completed', { requestId: str }),
} as const;

/** Types the CLI's schema marks `ephemeral: true`: emitted in memory, never written to events.jsonl (§2.3). */
export const EPHEMERAL_TYPES: ReadonlySet<string> = new Set([
  'session.idle',
  'session.title_changed',
  'session.todos_changed',
  'session.snapshot_rewind',
  'session.usage_info',
  'pending_messages.modified',
  'assistant.intent',
  'assistant.server_tool_progress',
  'assistant.reasoning_delta',
  'assistant.tool_call_delta',
  'assistant.streaming_delta',
  'assistant.message_start',
  'assistant.message_delta',
  'assistant.idle',
  'assistant.usage',
  'model.call_failure',
  'tool.execution_partial_result',
  'tool.execution_progress',
  'hook.progress',
  'user_input.requested',
  'user_input.completed',
  'elicitation.requested',
  'elicitation.completed',
  'sampling.requested',
  'sampling.completed',
  'mcp.oauth_required',
  'mcp.oauth_completed',
  'command.queued',
  'command.execute',
  'command.completed',
  'session.managed_settings_resolved',
  'session.managed_settings_enforced',
  'session.tools_updated',
  'session.skills_loaded',
  'session.mcp_servers_loaded',
]);

/** A line of a type this audit does not model (a newer CLI's, or an ephemeral one found on disk). */
export const OtherEvent = named(
  'CopilotOtherEvent',
  obj({ type: str, data: obj({}), id: str, timestamp: str, parentId: z.string().nullable() }),
);

export const EventLine = named(
  'CopilotEventLine',
  z.union([...Object.values(EVENT_VARIANTS), OtherEvent]),
  'One line of a Copilot CLI events.jsonl (or of a flat session-state/<id>.jsonl).',
);

/** The legacy (CLI 0.0.34x and before) `history-session-state/session_<id>_<ms>.json`, one object rewritten whole. */
export const LegacySession = named(
  'CopilotLegacySession',
  obj({
    sessionId: str,
    startTime: str,
    chatMessages: z.array(
      obj({
        role: str,
        content: opt(json),
        tool_calls: z.array(obj({ id: str, function: obj({ name: str, arguments: opt(str) }) })).optional(),
        tool_call_id: str.optional(),
      }),
    ),
    timeline: z.array(obj({ type: str })),
    selectedModel: opt(str),
  }),
  'A legacy Copilot CLI history-session-state file (pretty-printed JSON, rewritten whole).',
);

/** `rewind-snapshots/index.json`: the file snapshots taken at each user message, for /rewind (§1.6). */
export const RewindIndex = named(
  'CopilotRewindIndex',
  obj({
    version: num,
    snapshots: z.array(obj({ snapshotId: str, eventId: str, timestamp: str, backupHashes: z.array(str).optional() })),
    filePathMap: z.record(str, str).optional(),
  }),
  'The rewind snapshot index of a Copilot CLI session.',
);
