/** Grok Build's tools as `activity` and `transcript` read them: run_command, the file tools, task, the searches. */
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

const READ_ONLY = new Set(['grep', 'list_dir', 'glob', 'find', 'search', 'todo_read', 'compact', 'rewind']);

export function grokToolView(name: string, input: unknown): ToolView {
  const a = argsObject(input);
  switch (name) {
    case 'run_command':
    case 'run_terminal_cmd':
    case 'bash': {
      const command = strArg(a, 'command', 'cmd');
      const cwd = strArg(a, 'cwd', 'workdir');
      return shellView(command, cwd);
    }
    case 'read_file':
      return fileView('read', strArg(a, 'path', 'file_path', 'target_file'), 'read');
    case 'write_file':
    case 'create_file':
      return fileView(
        'write',
        strArg(a, 'path', 'file_path', 'target_file'),
        name === 'create_file' ? 'create' : 'write',
      );
    case 'search_replace':
    case 'edit_file':
    case 'edit':
      return fileView('edit', strArg(a, 'path', 'file_path', 'target_file'), 'edit');
    case 'delete_file':
      return { ...fileView('edit', strArg(a, 'path', 'file_path', 'target_file'), 'delete'), kind: 'other' };
    case 'apply_patch':
    case 'patch': {
      const files = patchFiles(strArg(a, 'patch', 'input') ?? '');
      return { kind: 'patch', ...(files.length ? { files } : {}), mutating: true };
    }
    case 'task':
      return { kind: 'other', reach: 'subagent', mutating: true };
    case 'web_search':
    case 'x_search':
    case 'web_fetch': {
      const url = strArg(a, 'url', 'query');
      return { kind: 'fetch', ...(url !== undefined ? { url } : {}), reach: 'web', mutating: false };
    }
    default:
      return otherView(!READ_ONLY.has(name));
  }
}

export const GROK_RESULT_VIEW: ToolResultView = {
  exitCode(text) {
    const m = /exit(?:ed with)? code:? (-?\d+)/i.exec(text);
    return m ? Number(m[1]) : undefined;
  },
  rejected: (text) => /rejected|denied by the user|not approved/i.test(text),
};
