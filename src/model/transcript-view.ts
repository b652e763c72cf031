/**
 * A tool call seen for what it does, and how its result ended: the shapes of `formats/transcript-view.ts` (the
 * trait each agent implements), here so that renderers may know them without knowing any agent.
 */

/** What a tool call is, for a reader. */
export type ToolKind = 'shell' | 'edit' | 'write' | 'read' | 'patch' | 'fetch' | 'other';

/** One call seen for what it does: the fields its kind has, `args` always (the arguments as parsed). */
export interface TranscriptView {
  kind: ToolKind;
  /** The tool's name as the agent wrote it. */
  tool: string;
  /** shell: the command line as one string. */
  command?: string;
  /** shell: the working directory the call names, else the session's at the time (when known). */
  cwd?: string;
  /** edit, write, read: the file. */
  path?: string;
  /** edit: the text replaced and its replacement. */
  old?: string;
  new?: string;
  /** write: the content written. */
  content?: string;
  /** patch: the patch text (see `patchFiles`). */
  patch?: string;
  /** fetch: the address or the query. */
  url?: string;
  /** The arguments as parsed (a string when they are not JSON). */
  args: unknown;
}

/** A tool call a record holds. */
export interface ToolCallSeen {
  id: string;
  name: string;
  args: unknown;
}

/** How a result ended, in plain words. `placeholder`: a result the agent wrote itself, not the tool's. */
export type ResultStatus = 'completed' | 'failed' | 'rejected' | 'cancelled' | 'placeholder';

/** A tool result a record holds. */
export interface ToolResultSeen {
  id: string;
  status: ResultStatus;
  /** The output as the model got it. */
  output: string;
  /** The exit code, when the agent records one. */
  exitCode?: number;
}

/** A file of a patch and its hunks (`*** Begin Patch` envelopes and unified diffs). */
export interface PatchFile {
  path: string;
  action: 'add' | 'update' | 'delete' | 'move';
  /** Lines of the hunks, as written (`@@`, `+`, `-`, ` `). */
  lines: string[];
}

const ENVELOPE = /^\*\*\* (Add|Update|Delete) File: (.+)$/;
const MOVE = /^\*\*\* Move to: (.+)$/;
const DIFF = /^\+\+\+ (?:b\/)?(.+)$/;

/** The files of a patch, in order, with their hunk lines. */
export function patchFiles(text: string): PatchFile[] {
  const files: PatchFile[] = [];
  let cur: PatchFile | undefined;
  for (const line of text.split('\n')) {
    const env = ENVELOPE.exec(line);
    const diff = env ? null : DIFF.exec(line);
    if (env || diff) {
      const action = env ? (env[1]!.toLowerCase() as PatchFile['action']) : 'update';
      cur = { path: (env ? env[2]! : diff![1]!).trim(), action, lines: [] };
      files.push(cur);
      continue;
    }
    const move = MOVE.exec(line);
    if (move && cur) {
      cur.action = 'move';
      cur.path = `${cur.path} → ${move[1]!.trim()}`;
      continue;
    }
    if (!cur || line.startsWith('*** ') || line.startsWith('--- ') || line.startsWith('diff --git')) continue;
    if (/^[-+ @]/.test(line) || line === '') cur.lines.push(line);
  }
  return files;
}
