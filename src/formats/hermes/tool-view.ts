/**
 * Hermes's tools as `activity` and `transcript` read them: `terminal` (command, workdir), the file tools
 * (`read_file`, `write_file`, `patch`), the web tools, `delegate_task`, and MCP tools (`mcp_<server>_<tool>`).
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

const READ_ONLY = new Set(['search_files', 'session_search', 'todo', 'skills_list', 'skill_view', 'clarify']);

export function hermesToolView(name: string, input: unknown): ToolView {
  const a = argsObject(input);
  switch (name) {
    case 'terminal': {
      const command = strArg(a, 'command');
      const cwd = strArg(a, 'workdir', 'cwd');
      return shellView(command, cwd);
    }
    case 'read_file':
      return fileView('read', strArg(a, 'path', 'file_path'), 'read');
    case 'write_file':
      return fileView('write', strArg(a, 'path', 'file_path'), 'write');
    case 'patch': {
      const path = strArg(a, 'path', 'file_path');
      if (path !== undefined || strArg(a, 'mode') === 'replace')
        return { ...fileView('edit', path, 'edit'), kind: 'patch' };
      const files = patchFiles(strArg(a, 'patch') ?? '');
      return { kind: 'patch', ...(files.length ? { files } : {}), mutating: true };
    }
    case 'web_search':
    case 'web_extract':
    case 'web_crawl': {
      const url =
        strArg(a, 'url', 'query') ??
        (Array.isArray(a.urls) ? a.urls.filter((u) => typeof u === 'string').join(' ') : undefined);
      return { kind: 'fetch', ...(url ? { url } : {}), reach: 'web', mutating: false };
    }
    case 'delegate_task':
      return { kind: 'other', reach: 'subagent', mutating: true };
    default: {
      const m = /^mcp_([^_]+)_/.exec(name);
      if (m) return { kind: 'other', reach: 'mcp', server: m[1]!, mutating: true };
      if (name.startsWith('browser_')) return { kind: 'fetch', reach: 'web', mutating: false };
      return otherView(!READ_ONLY.has(name));
    }
  }
}

/** Hermes's terminal results are JSON with `exit_code`; an approval refused is `status: blocked`. */
export const HERMES_RESULT_VIEW: ToolResultView = {
  exitCode(text) {
    const m = /"exit_code":\s*(-?\d+)/.exec(text);
    return m ? Number(m[1]) : undefined;
  },
  rejected: (text) => /"status":\s*"blocked"|denied|rejected/i.test(text),
};
