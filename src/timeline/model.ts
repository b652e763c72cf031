/**
 * One event of a rebuilt timeline, as `timeline --format jsonl` prints it. Modelled in zod so its JSON Schema
 * (schemas/timeline-event.schema.json) comes from the same truth as the TypeScript type.
 */
import { z } from 'zod';
import { EVENT_KINDS } from '../model/events.js';

export const TimelineEventSchema = z
  .object({
    session: z.string().describe('Session id the event belongs to (a subagent child has its own).'),
    depth: z.number().int().nonnegative().describe('0 for the session asked for, 1 for its subagents, and so on.'),
    parent: z.string().optional().describe('For a nested event: the subagent id it runs under.'),
    file: z.string(),
    line: z.number().int().positive(),
    byteOffset: z.number().int().nonnegative(),
    time: z.string().nullable().describe('ISO 8601 (UTC) time of the event, or null when the line has none.'),
    timeMs: z.number().nullable(),
    timeSource: z
      .enum(['agentTimestampMs', 'envelope', 'line', 'none'])
      .describe(
        "agentTimestampMs: the agent's millisecond clock; envelope: the line's whole-second write time; line: the " +
          'ISO time the line carries.',
      ),
    eventId: z.string().optional(),
    counter: z.number().int().optional(),
    rail: z
      .string()
      .describe(
        "The stream of the agent's log the line belongs to, as its format names it (one name for an agent with one " +
          'stream).',
      ),
    kind: z.enum(EVENT_KINDS),
    tag: z.string().describe('The wire tag of the record, as the agent writes it.'),
    promptIndex: z.number().int().nonnegative().optional().describe('The prompt turn (0-based) on its branch.'),
    promptId: z.string().optional(),
    toolCallId: z.string().optional(),
    toolStatus: z.string().optional(),
    subagentId: z.string().optional(),
    summary: z.string().describe('Short human summary.'),
    text: z.string().describe('The full content (never truncated).'),
    rewound: z.boolean().describe('A later rewind removed this event from the live branch.'),
    compacted: z.boolean().describe('The event precedes the last compaction: the model now sees only its summary.'),
    displaced: z
      .boolean()
      .describe("Written to the file after events emitted later (a line the agent's writer held back)."),
    endsTurn: z
      .boolean()
      .optional()
      .describe(
        'The event ends its turn although it is no turn_completed (a message written when the user stopped it).',
      ),
    resume: z.string().optional().describe('A new process picked the session up here; the evidence.'),
    recalled: z
      .string()
      .optional()
      .describe(
        "Not from the session's log, which is gone: the agent's own file (a prompt history) that still holds the " +
          'event, as a path; `file` and `line` are in it.',
      ),
    row: z
      .string()
      .optional()
      .describe(
        'For an event recalled from a database, which has no lines: the table and row that hold it (`line` is then ' +
          '1 and means nothing).',
      ),
  })
  .meta({ id: 'TimelineEvent', description: 'One event of `session-audit timeline --format jsonl`.' });

export type TimelineEvent = z.infer<typeof TimelineEventSchema>;
