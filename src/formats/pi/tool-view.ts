/** Pi's tools as `activity` and `transcript` read them: bash, read, edit, write and the read-only finders. */
import {
  argsObject,
  fileView,
  otherView,
  shellView,
  strArg,
  type ToolResultView,
  type ToolView,
} from '../tool-view.js';

const READ_ONLY = new Set(['ls', 'find', 'grep', 'glob']);

export function piToolView(name: string, input: unknown): ToolView {
  const a = argsObject(input);
  switch (name) {
    case 'bash': {
      const command = strArg(a, 'command');
      const cwd = strArg(a, 'cwd');
      return shellView(command, cwd);
    }
    case 'read':
      return fileView('read', strArg(a, 'path', 'file_path'), 'read');
    case 'write':
      return fileView('write', strArg(a, 'path', 'file_path'), 'write');
    case 'edit':
      return fileView('edit', strArg(a, 'path', 'file_path'), 'edit');
    default:
      return otherView(!READ_ONLY.has(name));
  }
}

/** Pi's bash results end with the exit code when it is not zero. */
export const PI_RESULT_VIEW: ToolResultView = {
  exitCode(text) {
    const m = /(?:Command exited with code|exit code:?) (\d+)\s*$/i.exec(text.trimEnd());
    return m ? Number(m[1]) : undefined;
  },
  rejected: (text) => /rejected|denied|blocked by/i.test(text),
};
