/** zod → JSON Schema (draft 2020-12), the one conversion used by the generator and by the drift test. */
import { z } from 'zod';
import { SCHEMA_BASE } from './schema-runtime.js';

export function toJsonSchema(schema: z.ZodType, file: string): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'throw' }) as Record<string, unknown>;
  const { $schema, ...rest } = js;
  return { $schema, $id: SCHEMA_BASE + file, ...rest };
}

/** Canonical text of a generated schema file (stable key order from zod, 2-space indent, final newline). */
export const schemaText = (schema: z.ZodType, file: string): string =>
  `${JSON.stringify(toJsonSchema(schema, file), null, 2)}\n`;
