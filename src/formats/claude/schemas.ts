/**
 * The Claude Code artifact kinds that have a schema: the zod model and the JSON Schema file generated from it into
 * schemas/.
 */
import type { SchemaEntry } from '../types.js';
import { SubagentMeta, TranscriptLine } from './models.js';

export const CLAUDE_SCHEMAS: Record<string, SchemaEntry> = {
  transcript: { file: 'claude/transcript-line.schema.json', schema: TranscriptLine },
  'subagent-meta': { file: 'claude/subagent-meta.schema.json', schema: SubagentMeta },
};
