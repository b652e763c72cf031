/** The Copilot CLI artifact kinds that have a schema: the zod model and the JSON Schema file generated from it. */
import type { SchemaEntry } from '../types.js';
import { EventLine, LegacySession, RewindIndex } from './models.js';

export const COPILOT_SCHEMAS: Record<string, SchemaEntry> = {
  events: { file: 'copilot/event-line.schema.json', schema: EventLine },
  legacy: { file: 'copilot/legacy-session.schema.json', schema: LegacySession },
  'rewind-index': { file: 'copilot/rewind-index.schema.json', schema: RewindIndex },
};
