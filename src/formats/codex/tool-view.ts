/**
 * Codex's tools as `activity` and `transcript` read them: `exec_command` (`cmd` and `workdir`), `shell` (`command`
 * an argv array, `workdir`), a `local_shell_call`'s action, `apply_patch` (the patch's files), and MCP tools.
 */
import {
  argsObject,
  commandArg,
  fileView,
  mcpView,
  otherView,
  patchFiles,
  shellView,
  strArg,
  type ToolResultView,
  type ToolView,
} from '../tool-view.js';

const READ_ONLY = new Set(['update_plan', 'read_mcp_resource', 'list_mcp_resources', 'list_mcp_resource_templates']);

function shell(a: Record<string, unknown>, key: string, cwdKey: string): ToolView {
  const command = commandArg(a[key]);
  const cwd = strArg(a, cwdKey);
  return shellView(command, cwd);
}

export function codexToolView(name: string, input: unknown): ToolView {
  if (name === 'apply_patch') {
    const text =
      typeof input === 'string' && !input.trimStart().startsWith('{')
        ? input
        : strArg(argsObject(input), 'input', 'patch');
    const files = text !== undefined ? patchFiles(text) : [];
    return { kind: 'patch', ...(files.length ? { files } : {}), mutating: true };
  }
  const a = argsObject(input);
  if (name === 'exec_command') return shell(a, 'cmd', 'workdir');
  if (name === 'shell' || name === 'container.exec' || name === 'shell_command') return shell(a, 'command', 'workdir');
  if (name.startsWith('local_shell')) return shell(a, 'command', 'working_directory');
  if (name === 'view_image') return fileView('read', strArg(a, 'path'), 'read');
  if (name === 'web_search') return { kind: 'fetch', reach: 'web', mutating: false };
  if (name === 'spawn_agent' || name === 'send_input') return { kind: 'other', reach: 'subagent', mutating: true };
  if (READ_ONLY.has(name)) return otherView(false);
  return mcpView(name) ?? otherView(true);
}

/** Codex writes a command's exit code in its output text (and in the exec_command_end line). */
export const CODEX_RESULT_VIEW: ToolResultView = {
  exitCode(text) {
    const m = /(?:Process exited with code|Exit code:?|"exit_code":)\s*(-?\d+)/.exec(text);
    return m ? Number(m[1]) : undefined;
  },
  rejected: (text) => /rejected by (?:the )?user|user denied|declined/i.test(text),
  recordCwd(_kind, value) {
    if (typeof value !== 'object' || value === null) return undefined;
    const v = value as Record<string, unknown>;
    if (v.type !== 'turn_context' && v.type !== 'session_meta') return undefined;
    const p = v.payload;
    const cwd = typeof p === 'object' && p !== null ? (p as Record<string, unknown>).cwd : undefined;
    return typeof cwd === 'string' && cwd !== '' ? cwd : undefined;
  },
};
