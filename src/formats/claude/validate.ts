/**
 * Schema dispatch for Claude Code records: the variant the record's `type` names, so a violation points at the
 * field that is wrong. Unknown record types are notes (the format changes often; Claude Code skips what it does
 * not know); unknown content blocks are accepted by the model's catch-all.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaIssue } from '../types.js';
import { check, validator } from '../schema-runtime.js';
import { defName } from '../shared/zod.js';
import { RECORD_VARIANTS } from './models.js';
import { CLAUDE_SCHEMAS } from './schemas.js';

const FILE = CLAUDE_SCHEMAS.transcript!.file;
const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : v === undefined ? 'nothing' : `a ${typeof v}`;
const violation = (pointer: string, message: string): SchemaIssue => ({ code: 'SCHEMA_VIOLATION', pointer, message });

const memo = new Map<string, ValidateFunction>();
let meta: ValidateFunction | undefined;

export function validateTranscriptLine(value: unknown): SchemaIssue[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [violation('', `a transcript line must be a JSON object, found ${kindOf(value)}`)];
  const tag = (value as Record<string, unknown>).type;
  if (typeof tag !== 'string')
    return [
      violation(
        '/type',
        'type' in value ? `expected a string tag, found ${kindOf(tag)}` : 'missing required property "type"',
      ),
    ];
  if (!Object.hasOwn(RECORD_VARIANTS, tag)) {
    return [
      {
        code: 'SCHEMA_UNKNOWN_TYPE',
        pointer: '/type',
        message:
          `unknown record type ${JSON.stringify(tag)}: written by a newer Claude Code (or another tool); it ` +
          `takes no part in the conversation chain here`,
      },
    ];
  }
  let v = memo.get(tag);
  if (!v) memo.set(tag, (v = validator(FILE, defName(RECORD_VARIANTS[tag as keyof typeof RECORD_VARIANTS]))));
  const r = check(v, value);
  return r ? [violation(r.pointer, r.message)] : [];
}

/** Validate one record or document of a Claude Code artifact kind; kinds without a schema yield nothing. */
export function validateClaude(kind: string, value: unknown): SchemaIssue[] {
  if (kind === 'transcript' || kind === 'subagent') return validateTranscriptLine(value);
  if (kind === 'subagent-meta') {
    meta ??= validator(CLAUDE_SCHEMAS['subagent-meta']!.file);
    const r = check(meta, value);
    return r ? [violation(r.pointer, r.message)] : [];
  }
  return [];
}
