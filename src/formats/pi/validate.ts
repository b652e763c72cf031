/**
 * Schema dispatch for Pi session lines: the variant the entry's `type` names (and, for a message entry, the variant
 * its `message.role` names), so a violation points at the field that is wrong. Unknown entry types and roles are
 * notes: Pi's loader keeps them, and its context builder skips what it does not know.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { SchemaIssue } from '../types.js';
import { check, validator } from '../schema-runtime.js';
import { defName } from '../shared/zod.js';
import { ENTRY_VARIANTS, ROLE_VARIANTS } from './models.js';
import { PI_SCHEMAS } from './schemas.js';

const FILE = PI_SCHEMAS.session!.file;
const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : v === undefined ? 'nothing' : `a ${typeof v}`;
const violation = (pointer: string, message: string): SchemaIssue => ({ code: 'SCHEMA_VIOLATION', pointer, message });
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const memo = new Map<string, ValidateFunction>();
const run = (name: string, value: unknown, prefix = ''): SchemaIssue[] => {
  let v = memo.get(name);
  if (!v) memo.set(name, (v = validator(FILE, name)));
  const r = check(v, value);
  return r ? [violation(prefix + r.pointer, r.message)] : [];
};

export function validateSessionLine(value: unknown): SchemaIssue[] {
  if (!isObj(value)) return [violation('', `a session line must be a JSON object, found ${kindOf(value)}`)];
  const tag = value.type;
  if (typeof tag !== 'string')
    return [
      violation(
        '/type',
        'type' in value ? `expected a string tag, found ${kindOf(tag)}` : 'missing required property "type"',
      ),
    ];
  if (!Object.hasOwn(ENTRY_VARIANTS, tag))
    return [
      {
        code: 'SCHEMA_UNKNOWN_TYPE',
        pointer: '/type',
        message:
          `unknown entry type ${JSON.stringify(tag)}: written by a newer Pi or an extension; Pi keeps it in the ` +
          'tree but puts nothing of it in the model context',
      },
    ];
  if (tag === 'message' && isObj(value.message) && typeof value.message.role === 'string') {
    const role = value.message.role;
    if (!Object.hasOwn(ROLE_VARIANTS, role))
      return [
        {
          code: 'SCHEMA_UNKNOWN_TYPE',
          pointer: '/message/role',
          message: `unknown message role ${JSON.stringify(role)}: written by a newer Pi or an extension`,
        },
      ];
    // The role's variant first (its pointer is precise), then the entry around a message that is now known good.
    const inner = run(defName(ROLE_VARIANTS[role as keyof typeof ROLE_VARIANTS]), value.message, '/message');
    if (inner.length) return inner;
  }
  return run(defName(ENTRY_VARIANTS[tag as keyof typeof ENTRY_VARIANTS]), value);
}

/** Validate one record of a Pi artifact kind; kinds without a schema yield nothing. */
export function validatePi(kind: string, value: unknown): SchemaIssue[] {
  return kind === 'session' ? validateSessionLine(value) : [];
}
