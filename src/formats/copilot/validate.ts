/**
 * Schema dispatch for Copilot CLI lines: the variant the envelope's `type` names, so a violation points at the field
 * that is wrong. A type the CLI marks ephemeral is SCHEMA_NOT_PERSISTED (the CLI never writes one); a type this audit
 * does not model is a note (a newer CLI, CLI 1.0.81 already has more than a hundred types).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaIssue } from '../types.js';
import { check, validator } from '../schema-runtime.js';
import { defName } from '../shared/zod.js';
import { EPHEMERAL_TYPES, EVENT_VARIANTS, LegacySession, OtherEvent, RewindIndex } from './models.js';
import { COPILOT_SCHEMAS } from './schemas.js';

const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : v === undefined ? 'nothing' : `a ${typeof v}`;
const violation = (pointer: string, message: string): SchemaIssue => ({ code: 'SCHEMA_VIOLATION', pointer, message });
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const memo = new Map<string, ValidateFunction>();
const run = (file: string, name: string, value: unknown): SchemaIssue[] => {
  const key = `${file}#${name}`;
  let v = memo.get(key);
  if (!v) memo.set(key, (v = validator(file, name)));
  const r = check(v, value);
  return r ? [violation(r.pointer, r.message)] : [];
};

export function validateEventLine(value: unknown): SchemaIssue[] {
  const file = COPILOT_SCHEMAS.events!.file;
  if (!isObj(value)) return [violation('', `an event line must be a JSON object, found ${kindOf(value)}`)];
  const tag = value.type;
  if (typeof tag !== 'string')
    return [
      violation(
        '/type',
        'type' in value ? `expected a string type, found ${kindOf(tag)}` : 'missing required property "type"',
      ),
    ];
  if (Object.hasOwn(EVENT_VARIANTS, tag))
    return run(file, defName(EVENT_VARIANTS[tag as keyof typeof EVENT_VARIANTS]), value);
  const envelope = run(file, defName(OtherEvent), value);
  if (envelope.length) return envelope;
  if (EPHEMERAL_TYPES.has(tag))
    return [
      {
        code: 'SCHEMA_NOT_PERSISTED',
        pointer: '/type',
        message:
          `${JSON.stringify(tag)} is an ephemeral event in the CLI's schema, never written to events.jsonl by the ` +
          'CLI: an SDK client, a log tool or an edit wrote this line',
      },
    ];
  return [
    {
      code: 'SCHEMA_UNKNOWN_TYPE',
      pointer: '/type',
      message:
        `unknown event type ${JSON.stringify(tag)}: written by a newer Copilot CLI (or an extension); the CLI ` +
        'resumes sessions with types it does not know',
    },
  ];
}

/** Validate one record of a Copilot CLI artifact kind; kinds without a schema yield nothing. */
export function validateCopilot(kind: string, value: unknown): SchemaIssue[] {
  if (kind === 'events') return validateEventLine(value);
  if (kind === 'legacy') return run(COPILOT_SCHEMAS.legacy!.file, defName(LegacySession), value);
  if (kind === 'rewind-index') return run(COPILOT_SCHEMAS['rewind-index']!.file, defName(RewindIndex), value);
  return [];
}
