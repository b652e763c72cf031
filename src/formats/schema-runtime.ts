/**
 * Runtime JSON Schema validation with ajv, against the checked-in files in schemas/ (generated from the zod
 * models; one truth). Each schema file is compiled once, lazily; validators for `$defs` entries are looked
 * up by fragment. Errors become one readable sentence with a JSON Pointer.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, formats: string[]) => void;

export const SCHEMA_BASE = 'https://session-audit.invalid/schemas/';

export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the session-audit package root (schemas/ missing)');
    dir = up;
  }
}

let ajv: Ajv2020 | undefined;
const loaded = new Set<string>();
const cache = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: false, verbose: true, strict: true, allowUnionTypes: true });
    addFormats(ajv, ['date-time']);
  }
  return ajv;
}

/** Validator for a schema file (relative to schemas/), or one of its `$defs` entries. */
export function validator(file: string, def?: string): ValidateFunction {
  const key = def ? `${file}#/$defs/${def}` : file;
  let v = cache.get(key);
  if (v) return v;
  const a = instance();
  if (!loaded.has(file)) {
    const schema = JSON.parse(readFileSync(join(packageRoot(), 'schemas', file), 'utf8')) as object;
    a.addSchema(schema);
    loaded.add(file);
  }
  v = a.getSchema(SCHEMA_BASE + key);
  if (!v) throw new Error(`schema ${key} not found`);
  cache.set(key, v);
  return v;
}

export interface Violation {
  pointer: string;
  message: string;
}

/** Validate; on failure return the most useful error as pointer + message. Never throws on deep input. */
export function check(v: ValidateFunction, value: unknown, prefix = ''): Violation | undefined {
  let ok: boolean;
  try {
    ok = v(value) as boolean;
  } catch (e) {
    if (e instanceof RangeError) return { pointer: prefix, message: 'nested too deeply to validate' };
    throw e;
  }
  if (ok) return undefined;
  const errors = v.errors ?? [];
  const best = errors.find((e) => !['const', 'oneOf', 'anyOf', 'if', 'not', 'discriminator'].includes(e.keyword)) ?? errors[errors.length - 1];
  if (!best) return { pointer: prefix, message: 'does not match the schema' };
  return { pointer: prefix + best.instancePath, message: describe(best) };
}

const show = (x: unknown): string => {
  const s = JSON.stringify(x);
  if (s === undefined) return String(x);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

const typeOf = (x: unknown): string => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x === 'number' && Number.isInteger(x) ? 'integer' : typeof x);

function describe(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const ps = e.parentSchema as Record<string, unknown> | undefined;
  switch (e.keyword) {
    case 'required':
      return `missing required property "${String(p.missingProperty)}"`;
    case 'type':
      return `expected ${String(p.type).replace(',', ' or ')}, found ${typeOf(e.data)}`;
    case 'const':
      return `expected ${show(p.allowedValue)}, found ${show(e.data)}`;
    case 'enum':
      return `expected one of ${(p.allowedValues as unknown[]).map(show).join(', ')}, found ${show(e.data)}`;
    case 'format':
    case 'pattern':
      if (ps?.format === 'date-time') return `expected an RFC 3339 date-time, found ${show(e.data)}`;
      return `${e.message ?? 'does not match'}, found ${show(e.data)}`;
    case 'minimum':
    case 'maximum':
      return `expected a number ${String(p.comparison)} ${String(p.limit)}, found ${show(e.data)}`;
    case 'oneOf':
    case 'anyOf':
      return `matches none of the allowed shapes (found ${typeOf(e.data)}${tagOf(e.data)})`;
    case 'not':
      return `is not allowed here, found ${show(e.data)}`;
    default:
      return `${e.message ?? 'does not match the schema'}`;
  }
}

function tagOf(x: unknown): string {
  if (typeof x !== 'object' || x === null) return '';
  for (const k of ['type', 'sessionUpdate', 'tool_type', 'status']) {
    const t = (x as Record<string, unknown>)[k];
    if (typeof t === 'string') return ` with ${k} ${show(t)}`;
  }
  return '';
}
