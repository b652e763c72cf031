/** The Gemini CLI artifact kinds that have a schema: the zod models and the JSON Schema files generated from them. */
import type { SchemaEntry } from '../types.js';
import { LegacyConversation, SessionLine } from './models.js';

export const GEMINI_SCHEMAS: Record<string, SchemaEntry> = {
  session: { file: 'gemini/session-line.schema.json', schema: SessionLine },
  legacy: { file: 'gemini/legacy-conversation.schema.json', schema: LegacyConversation },
};
