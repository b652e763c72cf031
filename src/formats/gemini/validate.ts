/**
 * Schema dispatch for Gemini CLI records: the variant the CLI's loader would take the line for (fold.ts
 * `recordKind`), so a violation points at the field that is wrong. A line the loader does not classify is a note:
 * the CLI ignores it.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaIssue } from '../types.js';
import { check, validator } from '../schema-runtime.js';
import { defName } from '../shared/zod.js';
import { isObj } from '../shared/events.js';
import { recordKind } from './fold.js';
import { LegacyConversation, MESSAGE_TYPES, MessageRecord, MetadataLine, RewindRecord, SetRecord } from './models.js';
import { GEMINI_SCHEMAS } from './schemas.js';

const memo = new Map<string, ValidateFunction>();
const run = (file: string, name: string, value: unknown): SchemaIssue[] => {
  const key = `${file}#${name}`;
  let v = memo.get(key);
  if (!v) memo.set(key, (v = validator(file, name)));
  const r = check(v, value);
  return r ? [{ code: 'SCHEMA_VIOLATION', pointer: r.pointer, message: r.message }] : [];
};
const LINE = GEMINI_SCHEMAS.session!.file;
const LEGACY = GEMINI_SCHEMAS.legacy!.file;

function message(file: string, value: Record<string, unknown>): SchemaIssue[] {
  const type = value.type;
  if (typeof type === 'string' && !(MESSAGE_TYPES as readonly string[]).includes(type))
    return [
      {
        code: 'SCHEMA_UNKNOWN_TYPE',
        pointer: '/type',
        message: `message type ${JSON.stringify(type)} is not one the CLI writes (user, gemini, info, error, warning)`,
      },
    ];
  const issues = run(file, defName(MessageRecord), value);
  if (issues.length) return issues;
  if (type !== 'gemini')
    for (const k of ['toolCalls', 'thoughts', 'tokens', 'model'])
      if (k in value)
        return [{ code: 'SCHEMA_VIOLATION', pointer: `/${k}`, message: `${k} on a ${String(type)} message` }];
  return [];
}

export function validateGemini(kind: string, value: unknown): SchemaIssue[] {
  if (kind === 'legacy') {
    if (!isObj(value))
      return [{ code: 'SCHEMA_VIOLATION', pointer: '', message: 'a legacy session must be a JSON object' }];
    return run(LEGACY, defName(LegacyConversation), { ...value, messages: [] });
  }
  if (kind === 'legacy-message') return isObj(value) ? message(LEGACY, value) : [];
  if (kind !== 'session') return [];
  switch (recordKind(value)) {
    case 'rewind':
      return run(LINE, defName(RewindRecord), value);
    case 'message':
      return message(LINE, value as Record<string, unknown>);
    case 'set':
      return run(LINE, defName(SetRecord), value);
    case 'meta':
      return run(LINE, defName(MetadataLine), value);
    default:
      return [
        {
          code: 'SCHEMA_UNKNOWN_TYPE',
          pointer: '',
          message:
            'not a record the CLI knows (no $rewindTo, id, $set, or sessionId with projectHash): its loader ignores it',
        },
      ];
  }
}
