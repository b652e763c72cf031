/**
 * Gemini CLI's tools as `activity` and `transcript` read them (`core/tools/*`): run_shell_command, the file tools
 * (read_file, read_many_files, write_file, replace), the finders, the web tools, and subagents (agent tools carry
 * the subagent's id). MCP tools are named `mcp_<server>_<tool>`.
 */
import {
  argsObject,
  fileView,
  otherView,
  shellView,
  strArg,
  type ToolResultView,
  type ToolView,
} from '../tool-view.js';

const READ_ONLY = new Set([
  'list_directory',
  'glob',
  'search_file_content',
  'grep_search',
  'read_many_files',
  'ask_user',
  'write_todos',
  'update_topic',
  'complete_task',
  'enter_plan_mode',
  'exit_plan_mode',
  'activate_skill',
]);
const SUBAGENTS = new Set(['codebase_investigator', 'cli_help', 'generalist', 'delegate_to_agent']);

export function geminiToolView(name: string, input: unknown): ToolView {
  const a = argsObject(input);
  switch (name) {
    case 'run_shell_command': {
      const command = strArg(a, 'command');
      const cwd = strArg(a, 'dir_path', 'directory');
      return shellView(command, cwd);
    }
    case 'read_file':
      return fileView('read', strArg(a, 'file_path', 'absolute_path', 'path'), 'read');
    case 'write_file':
      return fileView('write', strArg(a, 'file_path', 'absolute_path', 'path'), 'write');
    case 'replace':
    case 'edit':
      return fileView('edit', strArg(a, 'file_path', 'absolute_path', 'path'), 'edit');
    case 'google_web_search': {
      const q = strArg(a, 'query');
      return { kind: 'fetch', ...(q !== undefined ? { url: q } : {}), reach: 'web', mutating: false };
    }
    case 'web_fetch': {
      const url = /https?:\/\/\S+/.exec(strArg(a, 'url', 'prompt') ?? '')?.[0];
      return { kind: 'fetch', ...(url !== undefined ? { url } : {}), reach: 'web', mutating: false };
    }
    case 'save_memory':
      return otherView(true);
    default: {
      const mcp = /^mcp_([^_]+)_/.exec(name);
      if (mcp) return { kind: 'other', reach: 'mcp', server: mcp[1]!, mutating: true };
      if (SUBAGENTS.has(name)) return { kind: 'other', reach: 'subagent', mutating: true };
      return otherView(!READ_ONLY.has(name));
    }
  }
}

/** Shell results say `Exit Code: N`; cancellations and refusals are the CLI's own texts. */
export const GEMINI_RESULT_VIEW: ToolResultView = {
  exitCode(text) {
    // The last one: the output before it may hold the words too (and a result cut to one line has no newlines).
    const all = [...text.matchAll(/\bExit Code: (\d+)/g)];
    const m = all.at(-1);
    return m ? Number(m[1]) : undefined;
  },
  rejected: (text) => /User denied execution|denied by policy/i.test(text),
};
