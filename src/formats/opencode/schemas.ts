/** The opencode record kinds that have a schema: the zod model and the JSON Schema file generated into schemas/. */
import type { SchemaEntry } from '../types.js';
import { Message, Part, TreeSession } from './models.js';

export const OPENCODE_SCHEMAS: Record<string, SchemaEntry> = {
  message: { file: 'opencode/message.schema.json', schema: Message },
  part: { file: 'opencode/part.schema.json', schema: Part },
  'tree-session': { file: 'opencode/session.schema.json', schema: TreeSession },
};
