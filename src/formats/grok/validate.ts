/**
 * Schema dispatch for Grok Build records: pick the variant by its tag (and, in updates.jsonl, by its rail),
 * so a violation is reported against the one shape the record claims to be, with a precise JSON Pointer.
 */
import type { SchemaIssue } from '../types.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { z } from 'zod';
import { check, clipped, validator } from '../schema-runtime.js';
import { defName } from '../shared/zod.js';
import { CHAT_VARIANTS, LegacyChatMessage } from './models/chat.js';
import { ACP_VARIANTS } from './models/acp.js';
import { XAI_NOT_PERSISTED, XAI_VARIANTS } from './models/xai.js';
import { XAI_METHOD } from './models/updates.js';
import { GROK_SCHEMAS } from './schemas.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

const CHAT_FILE = GROK_SCHEMAS.chat!.file;
const UPDATES_FILE = GROK_SCHEMAS.updates!.file;
const NOT_PERSISTED = new Set<string>(XAI_NOT_PERSISTED);

function violation(pointer: string, message: string): SchemaIssue {
  return { code: 'SCHEMA_VIOLATION', pointer, message };
}

function against(v: ValidateFunction, value: unknown, prefix = ''): SchemaIssue[] {
  const r = check(v, value, prefix);
  return r ? [violation(r.pointer, r.message)] : [];
}

/** Tag → compiled validator of that variant's `$defs` entry, compiled on first use, then a map lookup. */
function variantTable(
  file: string,
  variants: Record<string, z.ZodType>,
): (tag: string) => ValidateFunction | undefined {
  const memo = new Map<string, ValidateFunction>();
  return (tag) => {
    let v = memo.get(tag);
    if (v === undefined && Object.hasOwn(variants, tag)) {
      v = validator(file, defName(variants[tag]!));
      memo.set(tag, v);
    }
    return v;
  };
}

const chatVariant = variantTable(CHAT_FILE, CHAT_VARIANTS);
const xaiVariant = variantTable(UPDATES_FILE, XAI_VARIANTS);
const acpVariant = variantTable(UPDATES_FILE, ACP_VARIANTS);
const whole = new Map<string, ValidateFunction>();

function chatLine(value: unknown): SchemaIssue[] {
  if (!isObj(value)) return [violation('', `a chat line must be a JSON object, found ${kindOf(value)}`)];
  if ('type' in value) {
    const tag = value.type;
    if (typeof tag !== 'string') return [violation('/type', `expected a string tag, found ${kindOf(tag)}`)];
    const variant = chatVariant(tag);
    if (!variant) {
      return [
        {
          code: 'SCHEMA_UNKNOWN_TYPE',
          pointer: '/type',
          message:
            `unknown ConversationItem type ${JSON.stringify(tag)}: Grok cannot decode this line and skips ` +
            `it on load`,
        },
      ];
    }
    return against(variant, value);
  }
  if ('role' in value) {
    return [
      {
        code: 'SCHEMA_LEGACY_RECORD',
        pointer: '',
        message: 'legacy format-0 chat message (role/content); Grok upgrades it in memory on load',
      },
      ...against(validator(CHAT_FILE, defName(LegacyChatMessage)), value),
    ];
  }
  return [violation('', 'neither a ConversationItem (no "type") nor a legacy format-0 message (no "role")')];
}

function updateOf(params: Obj, rail: 'acp' | 'xai', prefix: string): SchemaIssue[] {
  if (typeof params.sessionId !== 'string') {
    return [
      violation(
        `${prefix}/sessionId`,
        'sessionId' in params
          ? `expected a string, found ${kindOf(params.sessionId)}`
          : 'missing required property "sessionId"',
      ),
    ];
  }
  const update = params.update;
  if (!isObj(update))
    return [
      violation(`${prefix}/update`, `expected an object, found ${'update' in params ? kindOf(update) : 'nothing'}`),
    ];
  const tag = update.sessionUpdate;
  if (typeof tag !== 'string')
    return [violation(`${prefix}/update/sessionUpdate`, `expected a string tag, found ${kindOf(tag)}`)];
  const at = `${prefix}/update`;
  if (rail === 'xai') {
    const variant = xaiVariant(tag);
    if (!variant) {
      const acp = Object.hasOwn(ACP_VARIANTS, tag) ? ' (an ACP tag sent on the xAI rail)' : '';
      return [
        {
          code: 'SCHEMA_UNKNOWN_TYPE',
          pointer: `${at}/sessionUpdate`,
          message: `unknown xAI update ${JSON.stringify(tag)}${acp}: Grok decodes it as Unknown and ignores its fields`,
        },
      ];
    }
    const issues = against(variant, update, at);
    if (NOT_PERSISTED.has(tag)) {
      issues.unshift({
        code: 'SCHEMA_NOT_PERSISTED',
        pointer: `${at}/sessionUpdate`,
        message:
          `xAI update ${JSON.stringify(tag)} is documented as never persisted, yet it is on disk: written ` +
          `by a different build or another tool`,
      });
    }
    return issues;
  }
  const variant = acpVariant(tag);
  if (!variant) {
    const xai = Object.hasOwn(XAI_VARIANTS, tag) ? ' (an xAI tag sent on the ACP rail)' : '';
    return [
      {
        code: 'SCHEMA_UNKNOWN_TYPE',
        pointer: `${at}/sessionUpdate`,
        message:
          `unknown ACP update ${JSON.stringify(tag)}${xai}: Grok's ACP decoder rejects it, so replay skips ` +
          `this line`,
      },
    ];
  }
  return against(variant, update, at);
}

function updatesLine(value: unknown): SchemaIssue[] {
  if (!isObj(value)) return [violation('', `an updates line must be a JSON object, found ${kindOf(value)}`)];
  if ('params' in value || 'method' in value) {
    const issues: SchemaIssue[] = [];
    const { timestamp, method, params } = value;
    if (timestamp !== undefined && !(typeof timestamp === 'number' && Number.isInteger(timestamp) && timestamp >= 0)) {
      issues.push(
        violation(
          '/timestamp',
          `expected integer seconds since the epoch, found ` +
            `${clipped(JSON.stringify(timestamp)) ?? kindOf(timestamp)}`,
        ),
      );
    }
    if (method !== undefined && method !== null && typeof method !== 'string')
      issues.push(violation('/method', `expected a string, found ${kindOf(method)}`));
    if (!isObj(params))
      return [
        ...issues,
        violation('/params', `expected an object, found ${'params' in value ? kindOf(params) : 'nothing'}`),
      ];
    return [...issues, ...updateOf(params, method === XAI_METHOD ? 'xai' : 'acp', '/params')];
  }
  if ('sessionId' in value || 'update' in value) {
    const issues = updateOf(value, 'acp', '');
    const legacy: SchemaIssue = {
      code: 'SCHEMA_LEGACY_RECORD',
      pointer: '',
      message:
        'legacy line without the {timestamp, method, params} envelope (a bare ACP notification); Grok still reads it',
    };
    return [legacy, ...issues];
  }
  return [
    violation('', 'neither an update envelope (no "params") nor a legacy notification (no "sessionId"/"update")'),
  ];
}

/** Validate one record or document of a Grok artifact kind; kinds without a schema yield nothing. */
export function validateGrok(kind: string, value: unknown): SchemaIssue[] {
  if (kind === 'chat') return chatLine(value);
  if (kind === 'updates') return updatesLine(value);
  let v = whole.get(kind);
  if (v === undefined) {
    const entry = GROK_SCHEMAS[kind];
    if (!entry) return [];
    v = validator(entry.file);
    whole.set(kind, v);
  }
  return against(v, value);
}
