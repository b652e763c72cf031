/**
 * opencode's tools as `activity` and `transcript` read them (packages/opencode/src/tool/ @P): `bash` (command,
 * workdir), the file tools with camelCase arguments (`read`, `write`, `edit`, `multiedit`: `filePath`; `patch` /
 * `apply_patch`: `patchText`), the searches (`glob`, `grep`, `list`), the web (`webfetch`, `websearch`,
 * `codesearch`), `task` (a subagent, in a child session), and MCP tools (`<server>_<tool>`).
 */
import {
  argsObject,
  fileView,
  otherView,
  patchFiles,
  shellView,
  strArg,
  type ToolResultView,
  type ToolView,
} from '../tool-view.js';

/** opencode's own tools that change nothing. */
const READ_ONLY = new Set(['glob', 'grep', 'list', 'ls', 'todoread', 'todowrite', 'question', 'skill', 'lsp', 'read']);
/** Built-in names: anything else with an underscore is an MCP tool (`<server>_<tool>`). */
const BUILTIN = new Set([
  'bash',
  'read',
  'write',
  'edit',
  'multiedit',
  'patch',
  'apply_patch',
  'glob',
  'grep',
  'list',
  'ls',
  'webfetch',
  'websearch',
  'codesearch',
  'task',
  'todowrite',
  'todoread',
  'question',
  'skill',
  'lsp',
  'batch',
  'invalid',
]);

export function opencodeToolView(name: string, input: unknown): ToolView {
  const a = argsObject(input);
  switch (name) {
    case 'bash': {
      const command = strArg(a, 'command');
      const cwd = strArg(a, 'workdir', 'cwd');
      return shellView(command, cwd);
    }
    case 'read':
      return fileView('read', strArg(a, 'filePath', 'file_path', 'path'), 'read');
    case 'write':
      return fileView('write', strArg(a, 'filePath', 'file_path', 'path'), 'write');
    case 'edit':
    case 'multiedit':
      return fileView('edit', strArg(a, 'filePath', 'file_path', 'path'), 'edit');
    case 'patch':
    case 'apply_patch': {
      const files = patchFiles(strArg(a, 'patchText', 'patch', 'input') ?? '');
      return { kind: 'patch', ...(files.length ? { files } : {}), mutating: true };
    }
    case 'webfetch':
    case 'websearch':
    case 'codesearch': {
      const url = strArg(a, 'url', 'query');
      return { kind: 'fetch', ...(url ? { url } : {}), reach: 'web', mutating: false };
    }
    case 'task':
      return { kind: 'other', reach: 'subagent', mutating: true };
    default: {
      const m = /^([^_]+)_./.exec(name);
      if (m && !BUILTIN.has(name)) return { kind: 'other', reach: 'mcp', server: m[1]!, mutating: true };
      return otherView(!READ_ONLY.has(name));
    }
  }
}

/**
 * opencode's bash output carries no exit code in its text (it is in the part's metadata, `metadata.exit`); a
 * permission refused is the part's error "The user rejected permission to use this specific tool call."
 */
export const OPENCODE_RESULT_VIEW: ToolResultView = {
  recordCwd: (_kind, v) =>
    typeof v === 'object' && v !== null && (v as Record<string, unknown>).role === 'assistant'
      ? strArg(argsObject((v as Record<string, unknown>).path), 'cwd')
      : undefined,
  rejected: (text) => /rejected permission to use|DeniedError|denied by|prevents you from using/i.test(text),
};
