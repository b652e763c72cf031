/**
 * Reading Grok's per-cwd permission store `sessions/<encoded-cwd>/permission*.toml` (home-artifacts.md §1.6), once
 * for the check that judges it and the views that show it: each file of the home's inventory with its cwd group,
 * read up to `MAX_BYTES` through the strict TOML subset reader, and its grants (the keys that allow something) said
 * in words. A value comes from the user's file: each string is cut short with every secret redacted first.
 */
import { excerpt } from '../../../checks/excerpt.js';
import type { SessionSource } from '../../../model/source.js';
import { readTomlSubset, type TomlEntry } from './toml-subset.js';

export const PERMISSION_FILES = 'sessions/*/permission*.toml';
const FILE_RE = /^sessions\/([^/]+)\/permission(?:_[^/]*)?\.toml$/;
export const MAX_BYTES = 1024 * 1024;
/** The strings of a list shown, and the length each is cut to. */
const ITEMS = 5;
const ITEM_CHARS = 80;

/** The keys whose value grants something: a boolean allowed, or a list of what is allowed. */
const GRANTS = new Set([
  'allow_bash_execute',
  'allowed_bash_commands',
  'allowed_bash_globs',
  'allowed_web_fetch_domains',
  'allowed_mcp_tools',
  'allowed_mcp_servers',
]);

export const isGrant = (e: TomlEntry): boolean =>
  GRANTS.has(e.key) && (e.value === true || (Array.isArray(e.value) && e.value.length > 0));

/** The permission stores of the home, each with the name of its cwd group. */
export function permissionFiles(source: SessionSource): Array<{ file: string; group: string }> {
  const out: Array<{ file: string; group: string }> = [];
  for (const e of source.inventory) {
    const m = e.type === 'file' ? FILE_RE.exec(e.path) : null;
    if (m) out.push({ file: e.path, group: m[1]! });
  }
  return out;
}

export type StoreRead =
  | { ok: true; entries: TomlEntry[] }
  | { ok: false; why: string; line?: number; byteOffset?: number };

/** A store's entries, or why they are not read (it cannot be read, is too large, or is outside the subset). */
export function readPermissionStore(source: SessionSource, file: string): StoreRead {
  const read = source.readFile(file, MAX_BYTES);
  if (!read.ok) return { ok: false, why: `cannot be read (${read.error})` };
  if (read.value.truncated) return { ok: false, why: `is larger than ${MAX_BYTES} bytes` };
  const toml = readTomlSubset(read.value.bytes);
  if (!toml.ok)
    return {
      ok: false,
      why: `holds ${toml.why} at line ${toml.line}, outside the TOML Grok writes`,
      line: toml.line,
      byteOffset: toml.byteOffset,
    };
  return { ok: true, entries: toml.entries };
}

/** A grant's value as shown: a boolean as it is, a list's first strings cut short and redacted, and how many more. */
export function grantValue(e: TomlEntry): { value: boolean | string | string[]; more: number } {
  if (typeof e.value === 'string') return { value: excerpt(e.value, ITEM_CHARS + 1), more: 0 };
  if (!Array.isArray(e.value)) return { value: e.value, more: 0 };
  return {
    value: e.value.slice(0, ITEMS).map((v) => excerpt(v, ITEM_CHARS + 1)),
    more: Math.max(0, e.value.length - ITEMS),
  };
}

/** A grant in words: `key = value`, a list as its first strings quoted and how many more it holds. */
export function shown(e: TomlEntry): string {
  const { value, more } = grantValue(e);
  if (!Array.isArray(value)) return `${e.key} = ${String(value)}`;
  const items = value.map((v) => JSON.stringify(v));
  return `${e.key} = [${items.join(', ')}${more ? `, and ${more} more` : ''}]`;
}
