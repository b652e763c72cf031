/** Building blocks of the formats' zod models (serde and JSON conventions mapped to zod). */
import { z } from 'zod';

/** A Rust struct without `deny_unknown_fields`: unknown keys are accepted and ignored. */
export const obj = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);

/** `Option<T>`: serde accepts the key missing or `null`. */
export const opt = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** u64 / usize / u32: a non-negative integer (JSON numbers above 2^53 lose precision anyway). */
export const uint = z.number().int().nonnegative();

/**
 * Any JSON value (serde_json::Value): the input is parsed JSON already, so no recursive schema is needed. Always wrap
 * in `.optional()` or use in arrays/records: a bare required `unknown` would let zod and JSON Schema disagree on a
 * missing key.
 */
export const json = z.unknown();

/** Name a schema so it lands in `$defs` under that name, and so the runtime can find its validator. */
export function named<T extends z.ZodType>(id: string, schema: T, description?: string): T {
  return schema.meta(description ? { id, description } : { id });
}

/** chrono `DateTime<Utc>` serialized as RFC 3339 (e.g. `2026-07-10T21:02:04.137856Z`, `…+00:00`). */
export const rfc3339 = named(
  'Rfc3339',
  z.iso.datetime({ offset: true }),
  'RFC 3339 date-time as chrono writes it, e.g. 2026-07-10T21:02:04.137856Z',
);

/** The `$defs` name a schema was registered under. */
export function defName(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (typeof id !== 'string') throw new Error('schema has no id');
  return id;
}

/**
 * A tag string that is none of `known`: the catch-all branch of an enum with `#[serde(other)]`.
 * The refinement is zod's half, the `not` keyword the JSON Schema's half of the same rule.
 */
export const unknownTag = (known: readonly string[]) =>
  z
    .string()
    .refine((t) => !known.includes(t), { message: 'a known tag must match its variant' })
    .meta({ not: { enum: [...known] } });
