/** The small append-only logs: feedback.jsonl, btw_history.jsonl (§2.7) and the telemetry events.jsonl. */
import { z } from 'zod';
import { json, named, obj, opt, rfc3339, uint } from '../../shared/zod.js';

export const FeedbackLine = named(
  'FeedbackLine',
  z.discriminatedUnion('type', [
    obj({
      type: z.literal('user_feedback'),
      submittedAt: rfc3339,
      sessionId: z.string(),
      turnNumber: opt(z.number().int()),
      solicited: z.boolean(),
      requestId: opt(z.string()),
      dismissed: z.boolean().optional(),
      submission: json.optional(),
    }),
  ]),
  'One line of feedback.jsonl (LocalFeedbackEntry, tag "user_feedback").',
);

export const BtwEntry = named(
  'BtwEntry',
  obj({
    btwSessionId: z.string(),
    parentSessionId: z.string(),
    askedAt: rfc3339,
    question: z.string(),
    answer: z.string(),
    model: z.string(),
    success: z.boolean(),
    error: opt(z.string()),
    attempts: uint.optional(),
  }),
  'One line of btw_history.jsonl (a /btw side question).',
);

export const EventsLine = named(
  'EventsLine',
  obj({ ts: rfc3339, type: z.string() }),
  'One line of events.jsonl (per-turn telemetry; written raw, without torn-tail healing).',
);
