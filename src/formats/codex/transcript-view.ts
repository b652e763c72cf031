/**
 * Codex's tools for readers: `function_call`, `custom_tool_call` (apply_patch's grammar input) and
 * `local_shell_call` response items, and their `*_output` items; `turn_context` sets the cwd.
 */
import {
  commandLine,
  isObj,
  kindByName,
  parseArgs,
  str,
  viewByArgs,
  type ResultStatus,
  type ToolKind,
  type TranscriptViewTrait,
} from '../transcript-view.js';
import { shellQuote } from '../shared/shell.js';
import { ABORTED, contentText } from './normalize.js';

const KINDS: Record<string, ToolKind> = {
  shell: 'shell',
  shell_command: 'shell',
  exec_command: 'shell',
  local_shell: 'shell',
  container_exec: 'shell',
  apply_patch: 'patch',
  web_search: 'fetch',
  view_image: 'read',
};

const payload = (v: unknown): Record<string, unknown> | undefined =>
  isObj(v) && v.type === 'response_item' && isObj(v.payload) ? v.payload : undefined;

export const codexTranscriptView: TranscriptViewTrait = {
  calls(v) {
    const p = payload(v);
    if (!p) return [];
    const id = str(p.call_id) ?? str(p.id) ?? '';
    if (p.type === 'function_call') return [{ id, name: str(p.name) ?? '?', args: parseArgs(p.arguments) }];
    if (p.type === 'custom_tool_call') return [{ id, name: str(p.name) ?? '?', args: str(p.input) ?? '' }];
    if (p.type === 'local_shell_call') {
      const a = isObj(p.action) ? p.action : {};
      return [{ id, name: 'local_shell', args: { command: a.command, workdir: a.working_directory } }];
    }
    return [];
  },
  results(v) {
    const p = payload(v);
    if (!p || (p.type !== 'function_call_output' && p.type !== 'custom_tool_call_output')) return [];
    const raw = contentText(p.output);
    const parsed = parseArgs(raw);
    const meta = isObj(parsed) && isObj(parsed.metadata) ? parsed.metadata : undefined;
    const exit = typeof meta?.exit_code === 'number' ? meta.exit_code : exitLine(raw);
    const output = isObj(parsed) && typeof parsed.output === 'string' ? parsed.output : raw;
    const status: ResultStatus =
      raw.trim() === ABORTED
        ? 'placeholder'
        : /rejected by user|user rejected/i.test(raw)
          ? 'rejected'
          : (isObj(p.output) && p.output.success === false) || (exit !== undefined && exit !== 0)
            ? 'failed'
            : 'completed';
    return [{ id: str(p.call_id) ?? '', status, output, ...(exit !== undefined ? { exitCode: exit } : {}) }];
  },
  cwd(v) {
    if (!isObj(v) || !isObj(v.payload)) return undefined;
    return v.type === 'turn_context' || v.type === 'session_meta' ? str(v.payload.cwd) : undefined;
  },
  view(name, args, cwd) {
    const v = viewByArgs(kindByName(KINDS, name), name, args, cwd);
    if (v.kind === 'shell' && isObj(args)) {
      const line = commandLine(args.command ?? args.cmd, shellQuote);
      if (line !== undefined) v.command = line;
    }
    return v;
  },
};

/** `Exit code: N` on the first line of a shell output (the text form Codex writes). */
function exitLine(s: string): number | undefined {
  const m = /^Exit code: (-?\d+)/m.exec(s.slice(0, 200));
  return m ? Number(m[1]) : undefined;
}
