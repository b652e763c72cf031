/**
 * Gemini CLI session records (formats/gemini-cli.md §3, `core/services/chatRecordingTypes.ts`): the metadata line,
 * message records (user, gemini, info, error, warning), `{"$set": …}` metadata patches and `{"$rewindTo": id}` of the
 * JSONL recording (v0.39+), and the legacy single-JSON conversation (v0.4-v0.38). Loose everywhere: the loader keeps
 * whatever JSON.parse gives, and the writer spreads TypeScript objects.
 */
import { z } from 'zod';
import { json, named, obj, opt } from '../shared/zod.js';

const str = z.string();
const int = z.number().int();

/** What `content` may be: a string, a Part, or a list of strings and Parts (`PartListUnion`). */
const content = z.union([str, z.record(z.string(), json), z.array(z.union([str, z.record(z.string(), json)]))]);

export const TOOL_STATUSES = [
  'success',
  'error',
  'cancelled',
  'validating',
  'scheduled',
  'executing',
  'awaiting_approval',
] as const;
/** The statuses the CLI writes: it records completed calls only (§2.5). */
export const TERMINAL_STATUSES: readonly string[] = ['success', 'error', 'cancelled'];

export const ToolCallRecord = named(
  'GeminiToolCall',
  obj({
    id: str,
    name: str,
    args: z.record(z.string(), json),
    result: z.array(json).nullable().optional(),
    status: z.enum(TOOL_STATUSES),
    timestamp: str,
    agentId: opt(str).describe('the subagent session an agent tool ran (v0.39+)'),
    displayName: opt(str),
    description: opt(str),
    resultDisplay: json.optional(),
    renderOutputAsMarkdown: opt(z.boolean()),
  }),
  'One entry of a gemini message: the call (args) and its result (functionResponse parts) together.',
);

export const Tokens = named(
  'GeminiTokens',
  obj({
    input: int,
    output: int,
    cached: int,
    thoughts: int.optional(),
    tool: int.optional(),
    total: int,
  }),
);

export const Thought = named('GeminiThought', obj({ subject: str, description: str, timestamp: opt(str) }));

export const MESSAGE_TYPES = ['user', 'gemini', 'info', 'error', 'warning'] as const;

export const MessageRecord = named(
  'GeminiMessage',
  obj({
    id: str,
    timestamp: str,
    type: z.enum(MESSAGE_TYPES),
    content,
    displayContent: content.optional(),
    model: opt(str),
    thoughts: z.array(Thought).nullable().optional(),
    tokens: Tokens.nullable().optional(),
    toolCalls: z.array(ToolCallRecord).optional(),
  }),
  'A message record: appended whole again under the same id when it changes (the last copy wins).',
);

export const MetadataLine = named(
  'GeminiMetadata',
  obj({
    sessionId: str,
    projectHash: str,
    startTime: str.optional(),
    lastUpdated: str.optional(),
    kind: z.enum(['main', 'subagent']).optional(),
    directories: z.array(str).optional(),
    summary: str.optional(),
    messages: z.array(MessageRecord).optional().describe('a legacy conversation squeezed onto one line'),
  }),
  'Line 1 of a JSONL session (also written again by a resume in the same minute).',
);

export const MemoryScratchpad = named(
  'GeminiScratchpad',
  obj({
    version: int,
    workflowSummary: str.optional(),
    toolSequence: z.array(str).optional(),
    touchedPaths: z.array(str).optional(),
    validationStatus: z.enum(['passed', 'failed', 'unknown']).optional(),
  }),
);

export const SetRecord = named(
  'GeminiSet',
  obj({
    $set: obj({
      sessionId: str.optional(),
      projectHash: str.optional(),
      startTime: str.optional(),
      lastUpdated: str.optional(),
      kind: z.enum(['main', 'subagent']).optional(),
      directories: z.array(str).optional(),
      summary: str.optional(),
      memoryScratchpad: MemoryScratchpad.optional(),
      messages: z.array(MessageRecord).optional().describe('a history snapshot: replaces the whole conversation'),
    }),
  }),
  'A metadata patch, merged shallowly into the metadata; with messages, a checkpoint of the conversation.',
);

export const RewindRecord = named(
  'GeminiRewind',
  obj({ $rewindTo: str }),
  '/rewind: removes the message with this id and every message after it (an unknown id empties the conversation).',
);

export const SessionLine = named(
  'GeminiSessionLine',
  z.union([RewindRecord, MessageRecord, SetRecord, MetadataLine]),
  'One line of a Gemini CLI .jsonl session file.',
);

export const LegacyConversation = named(
  'GeminiLegacyConversation',
  obj({
    sessionId: str,
    projectHash: str,
    startTime: str,
    lastUpdated: str,
    messages: z.array(MessageRecord),
    summary: str.optional(),
    directories: z.array(str).optional(),
    kind: z.enum(['main', 'subagent']).optional(),
    memoryScratchpad: MemoryScratchpad.optional(),
    userMessageCount: int.optional().describe('written only by a newer CLI rewriting the file at startup'),
    hasResumableContent: z.boolean().optional().describe('written only by a newer CLI rewriting the file at startup'),
  }),
  'A legacy .json session (v0.4-v0.38): one pretty-printed object, rewritten whole on every change.',
);
