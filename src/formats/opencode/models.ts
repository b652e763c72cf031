/**
 * opencode's records (formats/opencode.md §2.3-2.6): a message (`role` user or assistant) and a part (discriminated
 * by `type`), as the database's `data` column holds them with their ids put back (`id`, `sessionID`, `messageID`),
 * which is also what a JSON file of the E0/E1 trees holds; and a session of the JSON trees. Loose everywhere
 * (opencode adds fields in most releases, reads without validation); required are the fields pairing and order use.
 */
import { z } from 'zod';
import { json, named, obj, opt } from '../shared/zod.js';

const str = z.string();
const ms = z.number();

const ErrorShape = obj({ name: str, data: opt(json) });

export const MESSAGE_VARIANTS = {
  user: named('OpencodeUserMessage', obj({ role: z.literal('user'), time: obj({ created: ms }) })),
  assistant: named(
    'OpencodeAssistantMessage',
    obj({
      role: z.literal('assistant'),
      time: obj({ created: ms, completed: opt(ms) }),
      parentID: opt(str),
      modelID: opt(str),
      providerID: opt(str),
      error: opt(ErrorShape),
      finish: opt(str),
      summary: opt(json),
    }),
    'An assistant message; E0 (to 0.5.x) writes no parentID.',
  ),
};

export const Message = named('OpencodeMessage', z.union([MESSAGE_VARIANTS.user, MESSAGE_VARIANTS.assistant]));

const ToolTime = obj({ start: ms, end: opt(ms), compacted: opt(ms) });

export const ToolState = named(
  'OpencodeToolState',
  z.discriminatedUnion('status', [
    obj({ status: z.literal('pending'), input: opt(json), raw: opt(str) }),
    obj({ status: z.literal('running'), input: opt(json), title: opt(str), metadata: opt(json), time: opt(ToolTime) }),
    obj({
      status: z.literal('completed'),
      input: opt(json),
      output: str,
      title: opt(str),
      metadata: opt(json),
      time: obj({ start: ms, end: ms, compacted: opt(ms) }),
    }),
    obj({ status: z.literal('error'), input: opt(json), error: str, metadata: opt(json), time: opt(ToolTime) }),
  ]),
  'A tool part moves pending → running → completed | error, rewritten in place; only the last state is kept.',
);

export const PART_VARIANTS = {
  text: named('OpencodeTextPart', obj({ type: z.literal('text'), text: str, synthetic: opt(z.boolean()) })),
  reasoning: named('OpencodeReasoningPart', obj({ type: z.literal('reasoning'), text: str })),
  file: named('OpencodeFilePart', obj({ type: z.literal('file'), mime: opt(str), url: opt(str) })),
  tool: named('OpencodeToolPart', obj({ type: z.literal('tool'), callID: str, tool: str, state: ToolState })),
  'step-start': named('OpencodeStepStart', obj({ type: z.literal('step-start'), snapshot: opt(str) })),
  'step-finish': named('OpencodeStepFinish', obj({ type: z.literal('step-finish'), reason: opt(str) })),
  patch: named('OpencodePatchPart', obj({ type: z.literal('patch'), hash: opt(str), files: opt(z.array(str)) })),
  snapshot: named('OpencodeSnapshotPart', obj({ type: z.literal('snapshot'), snapshot: opt(str) })),
  agent: named('OpencodeAgentPart', obj({ type: z.literal('agent'), name: str })),
  subtask: named(
    'OpencodeSubtaskPart',
    obj({ type: z.literal('subtask'), prompt: opt(str), description: opt(str), agent: str }),
  ),
  retry: named('OpencodeRetryPart', obj({ type: z.literal('retry'), attempt: opt(z.number()) })),
  compaction: named('OpencodeCompactionPart', obj({ type: z.literal('compaction'), auto: opt(z.boolean()) })),
};

export const Part = named(
  'OpencodePart',
  z.union(Object.values(PART_VARIANTS) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]),
);

export const TreeSession = named(
  'OpencodeTreeSession',
  obj({
    id: str,
    version: opt(str),
    title: opt(str),
    projectID: opt(str),
    parentID: opt(str),
    directory: opt(str),
    time: obj({ created: ms, updated: opt(ms) }),
  }),
  'A session file of the JSON trees: E0 writes id, version, title and time only.',
);
