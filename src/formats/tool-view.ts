/**
 * What a tool call does, in the agent's own terms: each format module knows its tools' names and where a command, a
 * working directory or a file path sits in their arguments, and says it here in one shape for every agent (the
 * `toolView` trait). `activity` and `transcript` read calls only through it, so a new agent that implements it gets
 * both. Pure: a view is made from the call's name and its arguments as recorded (an object, or a JSON string).
 */

/** What kind of thing a call does. */
export type ToolViewKind = 'shell' | 'edit' | 'write' | 'read' | 'patch' | 'fetch' | 'other';

/** What a file tool or a patch does to a file. */
export type FileAction = 'read' | 'write' | 'edit' | 'create' | 'delete' | 'patch';

/** A call that reaches outside the machine's files: the web, an MCP server, a subagent. */
export type Reach = 'web' | 'mcp' | 'subagent';

export interface ToolView {
  kind: ToolViewKind;
  /** A shell call's command line, as the agent ran it. */
  command?: string;
  /** The working directory the call names in its arguments. */
  cwd?: string;
  /** The one file a file tool names. */
  path?: string;
  /** Every file the call touches, with what it does (a patch lists several). */
  files?: Array<{ path: string; action: FileAction }>;
  /** The address a fetch reaches, or the query of a web search. */
  url?: string;
  /** The call reaches outside: the web, an MCP server (named in `server`), a subagent. */
  reach?: Reach;
  server?: string;
  /** Whether the call can change files or run commands, by the agent's own knowledge of the tool. */
  mutating: boolean;
}

/** A tool's view from its name and its arguments as recorded (an object, or a JSON string; undefined if unknown). */
export type ToolViewFn = (name: string, input: unknown) => ToolView;

/** What a tool's result says about its call, in the agent's words. */
export interface ToolResultView {
  /** The exit code a shell result records in its text, when it records one. */
  exitCode?(text: string): number | undefined;
  /** Whether a result the harness wrote in place of a real one is the user's refusal (else a cancellation). */
  rejected?(text: string): boolean;
  /** The working directory a record of the log sets from its line on (e.g. a cwd field on every line). */
  recordCwd?(kind: string, value: unknown): string | undefined;
  /**
   * What a record's results say a file tool did, by call id, when the result says more than the call (a write that
   * created its file).
   */
  resultActions?(kind: string, value: unknown): Array<{ id: string; action: FileAction }>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The arguments as an object: a JSON string parsed (anything else, or a string that does not parse: empty). */
export function argsObject(input: unknown): Obj {
  if (isObj(input)) return input;
  if (typeof input === 'string' && input.trimStart().startsWith('{')) {
    try {
      const v: unknown = JSON.parse(input);
      return isObj(v) ? v : {};
    } catch {
      return {};
    }
  }
  return {};
}

/** The first of the keys whose value is a non-empty string. */
export function strArg(a: Obj, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = a[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

/** A command given as a string, or as an argv array (joined, each word quoted when the shell would need it). */
export function commandArg(v: unknown): string | undefined {
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (Array.isArray(v) && v.length && v.every((w) => typeof w === 'string')) {
    const words = v as string[];
    // `bash -lc "<script>"`: the script is the command line.
    if (words.length === 3 && /^(?:\/\S*\/)?(?:ba|z|da)?sh$/.test(words[0]!) && /^-l?c$/.test(words[1]!))
      return words[2]!;
    return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`)).join(' ');
  }
  return undefined;
}

/** The files a patch in the `*** Begin Patch` envelope names, with what it does to each. */
export function patchFiles(patch: string): Array<{ path: string; action: FileAction }> {
  const out: Array<{ path: string; action: FileAction }> = [];
  for (const m of patch.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$/gm)) {
    if (m[3] !== undefined) out.push({ path: m[3], action: 'create' });
    else out.push({ path: m[2]!, action: m[1] === 'Add' ? 'create' : m[1] === 'Delete' ? 'delete' : 'patch' });
  }
  if (!out.length)
    for (const m of patch.matchAll(/^\+\+\+ (?:b\/)?(.+?)\s*$/gm))
      if (m[1] !== '/dev/null') out.push({ path: m[1]!, action: 'patch' });
  return out;
}

/** A file tool's view: kind, the path and the action on it. */
export function fileView(kind: 'read' | 'write' | 'edit', path: string | undefined, action: FileAction): ToolView {
  return {
    kind,
    ...(path !== undefined ? { path, files: [{ path, action }] } : {}),
    mutating: kind !== 'read',
  };
}

/** A shell command, with the directory it ran in when the call names one: it can change the world. */
export function shellView(command: string | undefined, cwd?: string): ToolView {
  return {
    kind: 'shell',
    ...(command !== undefined ? { command } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    mutating: true,
  };
}

/** An MCP tool named `mcp__<server>__<tool>` (Claude, Codex) or `mcp_<server>_<tool>` (Hermes). */
export function mcpView(name: string): ToolView | undefined {
  const m = /^mcp__(.+?)__/.exec(name);
  if (!m) return undefined;
  return { kind: 'other', reach: 'mcp', server: m[1]!, mutating: true };
}

/** A tool the agent does not describe: unknown tools are assumed to change the world. */
export const otherView = (mutating = true): ToolView => ({ kind: 'other', mutating });
