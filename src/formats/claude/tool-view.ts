/** Claude Code's tools as `activity` and `transcript` read them: names and argument shapes of its tool_use blocks. */
import {
  argsObject,
  fileView,
  mcpView,
  otherView,
  shellView,
  strArg,
  type ToolResultView,
  type ToolView,
} from '../tool-view.js';

const READ_ONLY = new Set([
  'Glob',
  'Grep',
  'LS',
  'NotebookRead',
  'TodoRead',
  'BashOutput',
  'ExitPlanMode',
  'TodoWrite',
]);

export function claudeToolView(name: string, input: unknown): ToolView {
  const a = argsObject(input);
  switch (name) {
    case 'Bash': {
      const command = strArg(a, 'command');
      return shellView(command);
    }
    case 'Read':
      return fileView('read', strArg(a, 'file_path', 'path'), 'read');
    case 'Write':
      return fileView('write', strArg(a, 'file_path', 'path'), 'write');
    case 'Edit':
    case 'MultiEdit':
      return fileView('edit', strArg(a, 'file_path', 'path'), 'edit');
    case 'NotebookEdit': {
      const mode = strArg(a, 'edit_mode');
      const v = fileView('edit', strArg(a, 'notebook_path', 'file_path'), mode === 'delete' ? 'edit' : 'edit');
      return v;
    }
    case 'WebFetch': {
      const url = strArg(a, 'url');
      return { kind: 'fetch', ...(url !== undefined ? { url } : {}), reach: 'web', mutating: false };
    }
    case 'WebSearch':
    // Server tools the API runs (server_tool_use).
    case 'web_search':
    case 'web_fetch': {
      const url = strArg(a, 'query', 'url');
      return { kind: 'fetch', ...(url !== undefined ? { url } : {}), reach: 'web', mutating: false };
    }
    case 'Task':
    case 'Agent':
      return { kind: 'other', reach: 'subagent', mutating: true };
    case 'KillShell':
    case 'KillBash':
      return otherView(true);
    default:
      if (READ_ONLY.has(name)) return otherView(false);
      return mcpView(name) ?? otherView(true);
  }
}

/** Claude's rejection and its exit codes, as its tool results word them. */
export const CLAUDE_RESULT_VIEW: ToolResultView = {
  exitCode(text) {
    const m = /^Exit code (\d+)/.exec(text);
    return m ? Number(m[1]) : undefined;
  },
  rejected: (text) => /doesn't want to proceed|user rejected|permission.*denied|was rejected/i.test(text),
  resultActions(_kind, value) {
    // A Write's result records whether it created the file or replaced it (toolUseResult.type "create" / "update").
    if (typeof value !== 'object' || value === null) return [];
    const v = value as Record<string, unknown>;
    const tur = v.toolUseResult as Record<string, unknown> | undefined;
    if (v.type !== 'user' || typeof tur !== 'object' || tur === null || tur.type !== 'create') return [];
    const message = v.message as Record<string, unknown> | undefined;
    const content = Array.isArray(message?.content) ? (message.content as unknown[]) : [];
    const ids = content
      .map((b) => (typeof b === 'object' && b !== null ? (b as Record<string, unknown>) : {}))
      .filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string')
      .map((b) => b.tool_use_id as string);
    return ids.length === 1 ? [{ id: ids[0]!, action: 'create' }] : [];
  },
  recordCwd(_kind, value) {
    if (typeof value !== 'object' || value === null) return undefined;
    const cwd = (value as Record<string, unknown>).cwd;
    return typeof cwd === 'string' && cwd !== '' ? cwd : undefined;
  },
};
