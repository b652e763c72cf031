/** `summary.json` — `struct Summary` (formats/grok-build.md §2.1, persistence.rs:816-951). */
import { z } from 'zod';
import { named, obj, opt, rfc3339, uint } from '../../shared/zod.js';

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

/** Values of `session_kind` set by Grok's code; the field is a free string, other values are notes. */
export const SESSION_KINDS = ['fork', 'worktree', 'subagent', 'subagent_fork', 'subagent_resume'] as const;

export const PendingCwdSwitchReminder = named(
  'PendingCwdSwitchReminder',
  obj({
    cwd_generation: uint,
    previous_cwd: z.string(),
    // serde alias "cwd" for destination_cwd: one of the two must be present.
    destination_cwd: z.string().optional(),
    cwd: z.string().optional(),
    content: z.string(),
    destination_project_instructions: opt(z.string()),
  }),
);

export const Summary = named(
  'Summary',
  obj({
    info: obj({ id: z.string(), cwd: z.string() }),
    session_summary: z.string(),
    created_at: rfc3339,
    updated_at: rfc3339,
    num_messages: uint,
    current_model_id: z.string(),
    num_chat_messages: uint.optional(),
    cwd_generation: uint.optional(),
    previous_cwd: opt(z.string()),
    pending_cwd_switch_reminder: opt(PendingCwdSwitchReminder),
    cwd_switch_bookkeeping_generation: uint.optional(),
    parent_session_id: opt(z.string()),
    forked_at: opt(rfc3339),
    collection_id: opt(z.string()),
    next_trace_turn: uint.optional(),
    chat_format_version: z.number().int().min(0).max(255).optional(),
    prompt_display_cwd: opt(z.string()),
    session_kind: opt(z.string()),
    fork_context_source: opt(z.string()),
    fork_parent_prompt_id: opt(z.string()),
    inherited_prefix_len: opt(uint),
    hidden: opt(z.boolean()),
    source_workspace_dir: opt(z.string()),
    git_root_dir: opt(z.string()),
    git_remotes: z.array(z.string()).optional(),
    head_commit: opt(z.string()),
    head_branch: opt(z.string()),
    request_id: opt(z.string()),
    grok_home: opt(z.string()),
    last_active_at: opt(rfc3339),
    generated_title: opt(z.string()),
    title_is_manual: z.boolean().optional(),
    worktree_label: opt(z.string()),
    agent_name: opt(z.string()),
    sandbox_profile: opt(z.string()),
    reasoning_effort: opt(z.enum(REASONING_EFFORTS)),
    last_turn_summary: opt(z.string()),
    last_turn_summary_prompt_id: opt(z.string()),
    last_recap: opt(z.string()),
  }),
  'Grok Build summary.json (struct Summary): the index record that makes a directory a session.',
);
export type Summary = z.infer<typeof Summary>;
