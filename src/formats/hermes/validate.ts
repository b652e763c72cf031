/**
 * Schema dispatch for Hermes records: a transcript line is checked against the variant its `role` names (unknown
 * roles are notes); the snapshot and the index against their whole schema.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaIssue } from '../types.js';
import { check, validator } from '../schema-runtime.js';
import { defName } from '../shared/zod.js';
import { MESSAGE_VARIANTS } from './models.js';
import { HERMES_SCHEMAS } from './schemas.js';

const violation = (pointer: string, message: string): SchemaIssue => ({ code: 'SCHEMA_VIOLATION', pointer, message });
const memo = new Map<string, ValidateFunction>();

function messageIssues(value: unknown): SchemaIssue[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [violation('', 'a transcript line must be a JSON object')];
  const role = (value as Record<string, unknown>).role;
  if (typeof role !== 'string') return [violation('/role', 'missing or non-string "role"')];
  if (!Object.hasOwn(MESSAGE_VARIANTS, role))
    return [
      {
        code: 'SCHEMA_UNKNOWN_TYPE',
        pointer: '/role',
        message: `unknown message role ${JSON.stringify(role)}: written by a newer Hermes (or another tool)`,
      },
    ];
  let v = memo.get(role);
  if (!v)
    memo.set(
      role,
      (v = validator(
        HERMES_SCHEMAS.transcript!.file,
        defName(MESSAGE_VARIANTS[role as keyof typeof MESSAGE_VARIANTS]),
      )),
    );
  const r = check(v, value);
  return r ? [violation(r.pointer, r.message)] : [];
}

export function validateHermes(kind: string, value: unknown): SchemaIssue[] {
  if (kind === 'transcript') return messageIssues(value);
  const entry = HERMES_SCHEMAS[kind];
  if (!entry) return [];
  let v = memo.get(`#${kind}`);
  if (!v) memo.set(`#${kind}`, (v = validator(entry.file)));
  const r = check(v, value);
  return r ? [violation(r.pointer, r.message)] : [];
}
