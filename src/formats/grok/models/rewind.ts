/** `rewind_points.jsonl` — one `RewindPoint` per line (§2.4, file_state.rs:276-297). */
import { z } from 'zod';
import { named, obj, opt, rfc3339, uint } from '../../shared/zod.js';

export const FileSnapshot = named(
  'FileSnapshot',
  obj({
    path: z.string(),
    /** null = the file did not exist. */
    content: opt(z.string()),
    captured_at: rfc3339,
  }),
);

export const RewindPoint = named(
  'RewindPoint',
  obj({
    prompt_index: uint,
    created_at: rfc3339,
    file_snapshots: z.record(z.string(), FileSnapshot),
    after_snapshots: z.record(z.string(), FileSnapshot).optional(),
  }),
  'One line of Grok Build rewind_points.jsonl: file contents before (and after) one prompt.',
);
