/** Compaction and recap artifacts (§2.5, notification.rs:1319-1460). */
import { z } from 'zod';
import { json, named, obj, opt, rfc3339, uint } from '../../shared/zod.js';
import { ConversationItem } from './chat.js';

export const CompactionCheckpointFile = named(
  'CompactionCheckpointFile',
  obj({
    checkpoint_id: z.string(),
    prompt_index_at_compaction: uint,
    compacted_history: z.array(ConversationItem),
    schema_version: uint,
    created_at: rfc3339,
    original_user_info: opt(z.string()),
    reread_file_paths: z.array(z.string()).optional(),
  }),
  'compaction_checkpoints/<checkpoint_id>.json: the full compacted history of one compaction.',
);

export const CompactionRequestFile = named(
  'CompactionRequestFile',
  obj({
    schema_version: uint,
    request_id: z.string(),
    created_at: rfc3339,
    trigger: z.string(),
    prompt_variant: z.string(),
    model: z.string(),
    user_context: opt(z.string()),
    chat_history: z.array(ConversationItem),
    tools: z.array(json).optional(),
    summary: opt(z.string()),
    error: opt(z.string()),
    attempts: uint,
    attempt_details: z
      .array(
        obj({
          attempt: uint,
          outcome: z.string(),
          summary_chars: uint,
          summary: opt(z.string()),
          error: opt(z.string()),
        }),
      )
      .optional(),
  }),
  'compaction_requests/<request_id>.json: one compaction request and its response.',
);

export const RecapRequestFile = named(
  'RecapRequestFile',
  obj({
    schema_version: uint,
    request_id: z.string(),
    created_at: rfc3339,
    trigger: z.string(),
    model: z.string(),
    x_grok_req_id: z.string(),
    x_grok_conv_id: z.string(),
    strip_reasoning: z.boolean(),
    reminder_tag: z.string(),
    chat_history: z.array(ConversationItem),
    summary: opt(z.string()),
    raw_response: opt(z.string()),
    error: opt(z.string()),
  }),
  'recap_requests/<request_id>.json: one recap request and its response.',
);
