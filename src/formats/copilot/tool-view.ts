/**
 * Copilot CLI's tools as `activity` and `transcript` read them (formats/copilot-cli.md §2.5; the names and arguments
 * of the real files): `bash` / `powershell` (command), `view`, `create`, `edit`, the older `str_replace_editor`
 * (a `command` of view, create, str_replace), `apply_patch` (a patch envelope as a string), `web_fetch` and
 * `web_search`, `task` (a sub-agent), GitHub's MCP tools `github-mcp-server-<tool>`, and the read-only helpers.
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

/** Tools that neither change files nor run commands. */
const READ_ONLY = new Set([
  'glob',
  'grep',
  'rg',
  'report_intent',
  'think',
  'ask_user',
  'read_bash',
  'read_powershell',
  'read_agent',
  'list_bash',
  'list_powershell',
  'task_complete',
  'skill',
  'update_todo',
]);

export const SHELLS = new Set(['bash', 'powershell']);

export function copilotToolView(name: string, input: unknown): ToolView {
  const a = argsObject(input);
  if (SHELLS.has(name)) {
    const command = strArg(a, 'command');
    return shellView(command);
  }
  switch (name) {
    case 'view':
      return fileView('read', strArg(a, 'path'), 'read');
    case 'create':
      return { ...fileView('write', strArg(a, 'path'), 'create') };
    case 'edit':
      return fileView('edit', strArg(a, 'path'), 'edit');
    case 'str_replace_editor': {
      const cmd = strArg(a, 'command');
      const path = strArg(a, 'path');
      if (cmd === 'view') return fileView('read', path, 'read');
      if (cmd === 'create') return fileView('write', path, 'create');
      return fileView('edit', path, 'edit');
    }
    case 'apply_patch': {
      const text = typeof input === 'string' ? input : (strArg(a, 'patch', 'input') ?? '');
      const files = patchFiles(text);
      return { kind: 'patch', ...(files.length ? { files } : {}), mutating: true };
    }
    case 'web_fetch':
    case 'web_search': {
      const url = strArg(a, 'url', 'query');
      return { kind: 'fetch', ...(url !== undefined ? { url } : {}), reach: 'web', mutating: false };
    }
    case 'task':
      return { kind: 'other', reach: 'subagent', mutating: true };
    default: {
      const m = /^(github-mcp-server)-/.exec(name);
      if (m) return { kind: 'other', reach: 'mcp', server: m[1]!, mutating: !/-(get|list|search)_/.test(name) };
      return otherView(!READ_ONLY.has(name));
    }
  }
}

/** A shell result ends with `<exited with exit code N>`; a denial or refusal says so. */
export const COPILOT_RESULT_VIEW: ToolResultView = {
  exitCode(text) {
    const m = /<exited with exit code (-?\d+)>\s*$/.exec(text.slice(-200));
    return m ? Number(m[1]) : undefined;
  },
  rejected: (text) => /denied|rejected|refused/i.test(text),
};
