/**
 * `~/.claude.json` (home-artifacts.md §3.2): Claude Code's global configuration, kept beside `~/.claude/`, not in it
 * (so the home lists it as `../.claude.json`, read/home-files.ts). It holds secrets (`oauthAccount`, `userID`, the
 * `env` of `mcpServers`): only `projects` is taken from it, and of each project only `lastSessionId` (the last
 * session that exited there) and how many `allowedTools` it grants; no other value is kept or ever quoted.
 */
import type { HomeCheckContext } from '../../../checks/define-home.js';
import { tooDeep } from '../../../read/json-depth.js';

export const CONFIG_FILE = '../.claude.json';
/** A larger file is not read (a real one is a few hundred kilobytes; old versions kept the prompt history in it). */
export const MAX_CONFIG_BYTES = 64 * 1024 * 1024;

export interface ProjectEntry {
  /** The key: the project's absolute path. */
  path: string;
  lastSessionId?: string;
  /** How many tools `allowedTools` grants (0: none, or not a list). */
  allowedTools: number;
}

export type ConfigRead =
  | { ok: true; projects: ProjectEntry[] }
  /** Not judged, and why (in words that quote nothing of the file). */
  | { ok: false; why: string };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The projects of `~/.claude.json`; undefined when the home has none beside it. */
export function readConfig(ctx: HomeCheckContext): ConfigRead | undefined {
  const entry = ctx.source.entry(CONFIG_FILE);
  if (!entry) return undefined;
  if (entry.type !== 'file') return { ok: false, why: `it is a ${entry.type}: recorded, never followed or opened` };
  if (entry.size !== undefined && entry.size > MAX_CONFIG_BYTES)
    return { ok: false, why: `it is ${entry.size} bytes, more than the ${MAX_CONFIG_BYTES} this audit reads` };
  const r = ctx.source.readFile(CONFIG_FILE, MAX_CONFIG_BYTES);
  if (!r.ok) return { ok: false, why: `it cannot be read (${r.error})` };
  if (r.value.truncated) return { ok: false, why: `it is more than the ${MAX_CONFIG_BYTES} bytes this audit reads` };
  const deep = tooDeep(r.value.bytes);
  if (deep) return { ok: false, why: 'it is nested deeper than this audit parses' };
  let doc: unknown;
  try {
    doc = JSON.parse(r.value.bytes.toString('utf8'));
  } catch {
    return { ok: false, why: 'it is not JSON' };
  }
  if (!isObj(doc)) return { ok: false, why: 'it is not a JSON object' };
  const projects = doc.projects;
  if (projects === undefined) return { ok: true, projects: [] };
  if (!isObj(projects)) return { ok: false, why: 'its projects is not an object' };
  const out: ProjectEntry[] = [];
  for (const [path, v] of Object.entries(projects)) {
    if (!isObj(v)) continue;
    const p: ProjectEntry = { path, allowedTools: Array.isArray(v.allowedTools) ? v.allowedTools.length : 0 };
    if (typeof v.lastSessionId === 'string' && v.lastSessionId !== '') p.lastSessionId = v.lastSessionId;
    out.push(p);
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, projects: out };
}

/** RFC 6901: a key as one token of a JSON Pointer. */
export const pointerToken = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Claude Code's folder of a project under projects/: every character but a letter or a digit becomes `-`. */
export const projectFolder = (path: string): string => path.replace(/[^a-zA-Z0-9]/g, '-');
