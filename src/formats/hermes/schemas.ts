/** The Hermes artifact kinds that have a schema: the zod model and the JSON Schema file generated into schemas/. */
import type { SchemaEntry } from '../types.js';
import { Message, SessionsIndex, Snapshot } from './models.js';

export const HERMES_SCHEMAS: Record<string, SchemaEntry> = {
  transcript: { file: 'hermes/message.schema.json', schema: Message },
  snapshot: { file: 'hermes/snapshot.schema.json', schema: Snapshot },
  index: { file: 'hermes/sessions-index.schema.json', schema: SessionsIndex },
};
