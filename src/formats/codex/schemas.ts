/**
 * The Codex artifact kinds that have a schema: the zod model and the JSON Schema file generated from it into schemas/.
 */
import type { SchemaEntry } from '../types.js';
import { RolloutLine } from './models.js';

export const CODEX_SCHEMAS: Record<string, SchemaEntry> = {
  rollout: { file: 'codex/rollout-line.schema.json', schema: RolloutLine },
};
