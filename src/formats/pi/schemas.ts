/** The Pi artifact kind that has a schema: the zod model and the JSON Schema file generated from it into schemas/. */
import type { SchemaEntry } from '../types.js';
import { SessionLine } from './models.js';

export const PI_SCHEMAS: Record<string, SchemaEntry> = {
  session: { file: 'pi/session-line.schema.json', schema: SessionLine },
};
