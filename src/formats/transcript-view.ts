/**
 * What an agent knows of its tools, for outputs that show what the agent did (`transcript`, `activity`): which tool
 * calls and results a record of its log holds, and what a call is (a shell command, a file edit, a patch, …) with
 * where its command line, cwd and path sit in the arguments. Each agent implements it in
 * `formats/<agent>/transcript-view.ts`; generic code sees only this shape. Plain data, strings as the session
 * wrote them.
 */

import type { ResultStatus, ToolCallSeen, ToolKind, ToolResultSeen, TranscriptView } from '../model/transcript-view.js';

export type { ResultStatus, ToolCallSeen, ToolKind, ToolResultSeen, TranscriptView };
export { patchFiles, type PatchFile } from '../model/transcript-view.js';

export interface TranscriptViewTrait {
  /** The calls a record of the authoritative log holds (none: []). */
  calls(record: unknown): ToolCallSeen[];
  /** The results a record holds. */
  results(record: unknown): ToolResultSeen[];
  /** The working directory a record sets for what follows (a turn's context, a line's own cwd). */
  cwd?(record: unknown): string | undefined;
  /**
   * What the model said in the record that holds its calls (an agent that writes a response whole, its reasoning and
   * text beside its calls): shown before the calls. Absent: the agent writes them as records of their own.
   */
  said?(record: unknown): { thinking?: string; text?: string };
  /**
   * The record repeats a message of the record before it, with the same kind (an agent that writes a message twice
   * and gives both copies one kind): a reader is shown it once.
   */
  echo?(record: unknown): boolean;
  /** What a call is; `cwd`: the session's working directory at the call, when known. */
  view(name: string, args: unknown, cwd?: string): TranscriptView;
}

type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Arguments written as a JSON string, parsed (the string itself when it is not JSON). */
export function parseArgs(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? {};
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** A command given as an argv array or a string, as one line. */
export function commandLine(v: unknown, quote: (s: string) => string): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
    const argv = v as string[];
    // `bash -lc "…"`: the script is the command.
    if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!)) return argv[2];
    return argv.map(quote).join(' ');
  }
  return undefined;
}

/**
 * The view most agents' tools share, by the usual argument names (`command`, `path`/`file_path`, `old_string`…),
 * for a tool of a kind the agent's own table gave.
 */
export function viewByArgs(kind: ToolKind, tool: string, args: unknown, cwd?: string): TranscriptView {
  const a = isObj(args) ? args : {};
  const path = str(a.file_path) ?? str(a.path) ?? str(a.filePath) ?? str(a.notebook_path);
  const v: TranscriptView = { kind, tool, args };
  if (kind === 'shell') {
    const command = commandLine(a.command ?? a.cmd, (s) => s) ?? (typeof args === 'string' ? args : undefined);
    if (command !== undefined) v.command = command;
    const dir = str(a.workdir) ?? str(a.cwd) ?? str(a.working_directory) ?? cwd;
    if (dir !== undefined) v.cwd = dir;
    if (command === undefined) v.kind = 'other';
    return v;
  }
  if (kind === 'fetch') {
    const url = str(a.url) ?? str(a.query) ?? str(a.uri);
    if (url !== undefined) v.url = url;
    return v;
  }
  if (kind === 'patch') {
    const patch = typeof args === 'string' ? args : (str(a.patch) ?? str(a.input) ?? str(a.diff));
    if (patch !== undefined) v.patch = patch;
    else v.kind = 'other';
    return v;
  }
  if (path !== undefined) v.path = path;
  if (kind === 'edit') {
    const old = str(a.old_string) ?? str(a.oldText) ?? str(a.old_str) ?? str(a.old_text);
    const neu = str(a.new_string) ?? str(a.newText) ?? str(a.new_str) ?? str(a.new_text);
    if (old !== undefined) v.old = old;
    if (neu !== undefined) v.new = neu;
  }
  if (kind === 'write') {
    const content = str(a.content) ?? str(a.text) ?? str(a.file_text);
    if (content !== undefined) v.content = content;
  }
  if ((kind === 'edit' || kind === 'write' || kind === 'read') && path === undefined) v.kind = 'other';
  return v;
}

/** A kind from a table of the agent's tool names (lower-cased), else `other`. */
export function kindByName(table: Readonly<Record<string, ToolKind>>, name: string): ToolKind {
  return table[name] ?? table[name.toLowerCase()] ?? 'other';
}
