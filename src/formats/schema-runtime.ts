/**
 * Runtime JSON Schema validation with ajv, against the checked-in files in schemas/ (generated from the zod
 * models; one truth). Each schema file is compiled once, lazily; validators for `$defs` entries are looked
 * up by fragment. Errors become one readable sentence with a JSON Pointer.
 */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';

/** ajv and ajv-formats are loaded only when a schema must be compiled here (the build precompiles them all). */
const load = createRequire(import.meta.url);
const addFormats = (a: Ajv2020, formats: string[]): void =>
  (load('ajv-formats') as { default: (a: Ajv2020, f: string[]) => void }).default(a, formats);

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

/** The options every validator is compiled with (here at run time, or in the build by gen-validators). */
export const AJV_OPTIONS = { allErrors: false, verbose: true, strict: true, allowUnionTypes: true } as const;
export const addSchemaFormats = (a: Ajv2020): void => addFormats(a, ['date-time']);

let ajv: Ajv2020 | undefined;
const loaded = new Set<string>();
const cache = new Map<string, ValidateFunction>();

function instance(): Ajv2020 {
  if (!ajv) {
    const { Ajv2020: Ajv } = load('ajv/dist/2020.js') as { Ajv2020: new (o: object) => Ajv2020 };
    ajv = new Ajv(AJV_OPTIONS);
    addSchemaFormats(ajv);
  }
  return ajv;
}

/** dist/validators/index.json: for each schema key, its module in dist/validators/ and the export's name. */
type PrecompiledIndex = Record<string, [string, string]>;
let precompiled: { dir: string; index: PrecompiledIndex } | null | undefined;
const modules = new Map<string, Record<string, ValidateFunction> | null>();

/** The build's precompiled validators (null when they are not there, or SESSION_AUDIT_COMPILE_SCHEMAS is set). */
function standalone(): { dir: string; index: PrecompiledIndex } | null {
  if (precompiled === undefined) {
    const dir = join(packageRoot(), 'dist', 'validators');
    try {
      precompiled =
        !process.env.SESSION_AUDIT_COMPILE_SCHEMAS && existsSync(join(dir, 'index.json'))
          ? { dir, index: JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as PrecompiledIndex }
          : null;
    } catch {
      precompiled = null;
    }
  }
  return precompiled;
}

function precompiledValidator(key: string): ValidateFunction | undefined {
  const pre = standalone();
  const at = pre?.index[key];
  if (!pre || !at) return undefined;
  const [file, name] = at;
  let mod = modules.get(file);
  if (mod === undefined) {
    try {
      mod = load(join(pre.dir, file)) as Record<string, ValidateFunction>;
    } catch {
      mod = null;
    }
    modules.set(file, mod);
  }
  return mod?.[name];
}

/** Validator for a schema file (relative to schemas/), or one of its `$defs` entries. */
export function validator(file: string, def?: string): ValidateFunction {
  const key = def ? `${file}#/$defs/${def}` : file;
  let v = cache.get(key);
  if (v) return v;
  v = precompiledValidator(key);
  if (v) {
    cache.set(key, v);
    return v;
  }
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
  const best =
    errors.find((e) => !['const', 'oneOf', 'anyOf', 'if', 'not', 'discriminator'].includes(e.keyword)) ??
    errors[errors.length - 1];
  if (!best) return { pointer: prefix, message: 'does not match the schema' };
  return { pointer: prefix + best.instancePath, message: describe(best) };
}

/**
 * A value a message quotes, kept to 40 characters, the cut marked `…` (the index and the HTML page redact a secret
 * reaching it: secrets/cut.ts).
 */
export const clipped = (s: string | undefined): string | undefined =>
  s !== undefined && s.length > 40 ? `${s.slice(0, 39)}\u2026` : s;

const show = (x: unknown): string => {
  const s = JSON.stringify(x);
  if (s === undefined) return String(x);
  // The cut marked `…`: the index and the HTML page redact a secret reaching it (secrets/cut.ts).
  return s.length > 60 ? `${s.slice(0, 59)}\u2026` : s;
};

const typeOf = (x: unknown): string =>
  x === null
    ? 'null'
    : Array.isArray(x)
      ? 'array'
      : typeof x === 'number' && Number.isInteger(x)
        ? 'integer'
        : typeof x;

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
