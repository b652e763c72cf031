/**
 * Schema dispatch for opencode records: a message against the variant its `role` names, a part against the variant
 * its `type` names (an unknown role or type is a note: a newer or older opencode), a JSON-tree session whole.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaIssue } from '../types.js';
import { check, validator } from '../schema-runtime.js';
import { defName } from '../shared/zod.js';
import { MESSAGE_VARIANTS, PART_VARIANTS } from './models.js';
import { OPENCODE_SCHEMAS } from './schemas.js';

const memo = new Map<string, ValidateFunction>();
const violation = (pointer: string, message: string): SchemaIssue => ({ code: 'SCHEMA_VIOLATION', pointer, message });

function variantIssues(kind: 'message' | 'part', value: unknown): SchemaIssue[] {
  const tag = kind === 'message' ? 'role' : 'type';
  const variants: Record<string, unknown> = kind === 'message' ? MESSAGE_VARIANTS : PART_VARIANTS;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [violation('', `a ${kind} must be a JSON object`)];
  const t = (value as Record<string, unknown>)[tag];
  if (typeof t !== 'string') return [violation(`/${tag}`, `missing or non-string "${tag}"`)];
  if (!Object.hasOwn(variants, t))
    return [
      {
        code: 'SCHEMA_UNKNOWN_TYPE',
        pointer: `/${tag}`,
        message: `unknown ${kind} ${tag} ${JSON.stringify(t)}: written by another opencode version (or another tool)`,
      },
    ];
  const key = `${kind}:${t}`;
  let v = memo.get(key);
  if (!v) {
    const schema = (variants as Record<string, Parameters<typeof defName>[0]>)[t]!;
    memo.set(key, (v = validator(OPENCODE_SCHEMAS[kind]!.file, defName(schema))));
  }
  const r = check(v, value);
  return r ? [violation(r.pointer, r.message)] : [];
}

export function validateOpencode(kind: string, value: unknown): SchemaIssue[] {
  if (kind === 'message' || kind === 'part') return variantIssues(kind, value);
  const entry = OPENCODE_SCHEMAS[kind];
  if (!entry) return [];
  let v = memo.get(`#${kind}`);
  if (!v) memo.set(`#${kind}`, (v = validator(entry.file)));
  const r = check(v, value);
  return r ? [violation(r.pointer, r.message)] : [];
}
