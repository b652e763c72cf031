/**
 * Whole-file JSON state: plan.json, plan_mode.json, signals.json, announcement_state.json, goal/state.json,
 * workflows/<run>/state.json (§2.6).
 */
import { z } from 'zod';
import { json, named, obj, opt, rfc3339, uint } from '../../shared/zod.js';

const int = z.number().int();

export const TodoState = named(
  'TodoState',
  obj({
    todos: z.record(
      z.string(),
      obj({
        content: z.string(),
        priority: z.enum(['high', 'medium', 'low']).optional(),
        status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']),
        meta: json.optional(),
      }),
    ),
  }),
  'plan.json: the TODO list (TodoState).',
);

const Locator = obj({
  route_ref: opt(z.string()),
  model_ref: opt(z.string()),
  model: z.string(),
  base_url: z.string(),
});

export const PlanModeSnapshot = named(
  'PlanModeSnapshot',
  obj({
    state: z.enum(['Inactive', 'Pending', 'Active', 'ExitPending']),
    was_previously_active: z.boolean(),
    reminder_count: uint,
    pending_exit_reminder: z.boolean(),
    awaiting_plan_approval: z.boolean().optional(),
    model_scope: opt(obj({ base: Locator, applied: Locator })),
    pending_model_scope: opt(obj({ base: Locator, applied: Locator })),
  }),
  'plan_mode.json: the plan-mode lifecycle (PlanModeSnapshot).',
);

/** Every field is optional on read (`#[serde(default)]` container); types are checked where present. */
export const SessionSignals = named(
  'SessionSignals',
  obj({
    turnCount: uint.optional(),
    userMessageCount: uint.optional(),
    assistantMessageCount: uint.optional(),
    errorCount: uint.optional(),
    toolFailureCount: uint.optional(),
    cancellationCount: uint.optional(),
    hasReverted: z.boolean().optional(),
    compactionCount: uint.optional(),
    contextWindowUsage: uint.max(255).optional(),
    toolCallCount: uint.optional(),
    toolsUsed: z.array(z.string()).optional(),
    modelsUsed: z.array(z.string()).optional(),
    primaryModelId: opt(z.string()),
    sessionDurationSeconds: uint.optional(),
    peakRssBytes: uint.optional(),
  }),
  'signals.json: telemetry counters (SessionSignals, camelCase, all optional).',
);

export const AnnouncementState = named(
  'AnnouncementState',
  obj({
    mcp_server_fingerprints: z
      .record(z.string(), obj({ tool_count: uint, description_hash: z.number(), tool_names_hash: z.number() }))
      .optional(),
    announced_skill_names: z.array(z.string()).optional(),
    announced_failed_servers: z.record(z.string(), z.string()).optional(),
  }),
  'announcement_state.json: MCP/skill announcement de-duplication.',
);

export const GoalOrchestration = named(
  'GoalOrchestration',
  obj({
    goal_id: z.string(),
    objective: z.string(),
    // Custom deserializer: any string is accepted (unknown values map to user_paused).
    status: z.string(),
    phase: z.enum(['Idle', 'Planning', 'Executing']),
    elapsed_ms: uint,
    created_at: rfc3339,
    history: z.array(
      obj({
        timestamp: rfc3339,
        event: z.string(),
        detail: opt(z.string()),
        round: opt(uint),
        tokens_used: opt(int),
        unmet: z.array(z.string()).optional(),
      }),
    ),
    token_budget: opt(int),
    current_subagent_id: opt(z.string()),
    current_subagent_role: opt(z.string()),
    total_worker_rounds: uint.optional(),
    total_verify_rounds: uint.optional(),
    verifier_id: z.string().optional(),
  }),
  'goal/state.json: goal-mode orchestration (GoalOrchestration).',
);

export const WORKFLOW_STATUSES = [
  'active',
  'user_paused',
  'back_off_paused',
  'no_progress_paused',
  'infra_paused',
  'blocked',
  'budget_limited',
  'interrupted',
  'complete',
  'failed',
  'cancelled',
] as const;

export const WorkflowRunManifest = named(
  'WorkflowRunManifest',
  obj({
    version: z.number().int().min(1).max(255),
    state: obj({
      run_id: z.string(),
      revision: uint.optional(),
      name: z.string(),
      objective: z.string(),
      status: z.enum(WORKFLOW_STATUSES),
      phases: z.array(json).optional(),
      current_phase: opt(z.string()),
      agent_budget: opt(uint),
      agents_used: uint.optional(),
      history: z.array(obj({ event: z.string(), detail: opt(z.string()), at: rfc3339 })).optional(),
      agents: z.array(obj({ agent_id: z.string(), label: z.string(), state: z.string() })).optional(),
    }),
    script_revision: uint,
  }),
  'workflows/<run_id>/state.json: a workflow run manifest (U2).',
);
