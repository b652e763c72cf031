/**
 * Schema dispatch for Codex rollout lines: the envelope ({timestamp, type, payload, ordinal?}) by hand, then the
 * payload against the one variant its tag names, so a violation points at the field that is wrong. Unknown tags
 * are notes: Codex adds variants often, and reads unknown response items as `Other`.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { z } from 'zod';
import type { SchemaIssue } from '../types.js';
import { check, clipped, validator } from '../schema-runtime.js';
import { defName } from '../shared/zod.js';
import {
  Compacted,
  EVENT_MSG_VARIANTS,
  LINE_VARIANTS,
  RESPONSE_ITEM_VARIANTS,
  SessionMeta,
  TurnContext,
} from './models.js';
import { CODEX_SCHEMAS } from './schemas.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : v === undefined ? 'nothing' : `a ${typeof v}`;
const FILE = CODEX_SCHEMAS.rollout!.file;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const violation = (pointer: string, message: string): SchemaIssue => ({ code: 'SCHEMA_VIOLATION', pointer, message });

const memo = new Map<z.ZodType, ValidateFunction>();
function against(schema: z.ZodType, value: unknown, prefix: string): SchemaIssue[] {
  let v = memo.get(schema);
  if (!v) memo.set(schema, (v = validator(FILE, defName(schema))));
  const r = check(v, value, prefix);
  return r ? [violation(r.pointer, r.message)] : [];
}

const PAYLOAD: Record<string, z.ZodType> = {
  session_meta: SessionMeta,
  turn_context: TurnContext,
  compacted: Compacted,
};

export function validateRolloutLine(value: unknown): SchemaIssue[] {
  if (!isObj(value)) return [violation('', `a rollout line must be a JSON object, found ${kindOf(value)}`)];
  const issues: SchemaIssue[] = [];
  const { timestamp, type, payload, ordinal } = value;
  if (typeof timestamp !== 'string')
    issues.push(
      violation(
        '/timestamp',
        'timestamp' in value
          ? `expected an RFC 3339 string, found ${kindOf(timestamp)}`
          : 'missing required property "timestamp"',
      ),
    );
  else if (!RFC3339.test(timestamp))
    issues.push(violation('/timestamp', `expected an RFC 3339 date-time, found ${clipped(JSON.stringify(timestamp))}`));
  if (
    ordinal !== undefined &&
    ordinal !== null &&
    !(typeof ordinal === 'number' && Number.isSafeInteger(ordinal) && ordinal >= 0)
  ) {
    issues.push(
      violation(
        '/ordinal',
        `expected a non-negative integer, found ${clipped(JSON.stringify(ordinal)) ?? kindOf(ordinal)}`,
      ),
    );
  }
  if (typeof type !== 'string')
    return [
      ...issues,
      violation(
        '/type',
        'type' in value ? `expected a string tag, found ${kindOf(type)}` : 'missing required property "type"',
      ),
    ];
  if (!Object.hasOwn(LINE_VARIANTS, type)) {
    return [
      ...issues,
      {
        code: 'SCHEMA_UNKNOWN_TYPE',
        pointer: '/type',
        message:
          `unknown rollout item type ${JSON.stringify(type)}: written by a newer Codex; this build's loader ` +
          `cannot deserialize it and skips the line (counted as a parse error)`,
      },
    ];
  }
  if (!isObj(payload)) return [...issues, violation('/payload', `expected an object, found ${kindOf(payload)}`)];
  if (type === 'response_item' || type === 'event_msg') {
    const tag = payload.type;
    if (typeof tag !== 'string')
      return [...issues, violation('/payload/type', `expected a string tag, found ${kindOf(tag)}`)];
    const table: Record<string, z.ZodType> = type === 'response_item' ? RESPONSE_ITEM_VARIANTS : EVENT_MSG_VARIANTS;
    if (!Object.hasOwn(table, tag)) {
      const what =
        type === 'response_item'
          ? `unknown response item type ${JSON.stringify(tag)}: Codex reads it as Other and leaves it out of the ` +
            `model's history`
          : `event ${JSON.stringify(tag)} is not in this tool's model of the persisted events (a newer or ` +
            `extended-mode event); it is kept in the timeline`;
      return [...issues, { code: 'SCHEMA_UNKNOWN_TYPE', pointer: '/payload/type', message: what }];
    }
    return [...issues, ...against(table[tag]!, payload, '/payload')];
  }
  const schema = PAYLOAD[type];
  return schema ? [...issues, ...against(schema, payload, '/payload')] : issues;
}

/** Validate one record of a Codex artifact kind; kinds without a schema yield nothing. */
export function validateCodex(kind: string, value: unknown): SchemaIssue[] {
  return kind === 'rollout' ? validateRolloutLine(value) : [];
}
