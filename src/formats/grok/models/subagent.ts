/** `subagents/<id>/meta.json` and `output.json` (§2.8, agent/subagent/mod.rs:2228-2449). */
import { z } from 'zod';
import { named, obj, opt, rfc3339, uint } from '../../shared/zod.js';

export const SUBAGENT_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;

export const SubagentMeta = named(
  'SubagentMeta',
  obj({
    subagent_id: z.string(),
    parent_session_id: z.string(),
    child_session_id: z.string(),
    subagent_type: z.string(),
    description: z.string(),
    prompt: z.string(),
    status: z.string(),
    started_at: rfc3339,
    completed_at: opt(rfc3339),
    duration_ms: opt(uint),
    tool_calls: opt(uint),
    turns: opt(uint),
    error: opt(z.string()),
    effective_context_source: opt(z.string()),
    context_normalized: z.boolean().optional(),
    fork_copy_error: opt(z.string()),
    persona: opt(z.string()),
    resumed_from: opt(z.string()),
    child_cwd: opt(z.string()),
    worktree_path: opt(z.string()),
    snapshot_ref: opt(z.string()),
    effective_model_id: opt(z.string()),
  }),
  'subagents/<subagent_id>/meta.json: the parent-side record of a subagent (SubagentMeta).',
);

export const SubagentOutput = named(
  'SubagentOutput',
  obj({ schema_version: z.literal(1), output: z.string() }),
  'subagents/<subagent_id>/output.json: the subagent final output.',
);
