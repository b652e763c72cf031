/**
 * Copilot CLI's tools for readers: the calls an `assistant.message` asks for (`toolRequests`) and those a user
 * ran (`tool.user_requested`), the results of `tool.execution_complete`, and a call the user denied at the
 * permission prompt (`permission.completed` "denied-interactively-by-user", which no completion follows).
 */
import {
  isObj,
  kindByName,
  parseArgs,
  str,
  viewByArgs,
  type ToolCallSeen,
  type ToolKind,
  type TranscriptViewTrait,
} from '../transcript-view.js';
import { resultText } from './normalize.js';
import { COPILOT_RESULT_VIEW } from './tool-view.js';

const KINDS: Record<string, ToolKind> = {
  bash: 'shell',
  powershell: 'shell',
  view: 'read',
  create: 'write',
  edit: 'edit',
  apply_patch: 'patch',
  web_fetch: 'fetch',
  web_search: 'fetch',
};

const data = (v: unknown, type: string): Record<string, unknown> | undefined =>
  isObj(v) && v.type === type && isObj(v.data) ? v.data : undefined;

export const copilotTranscriptView: TranscriptViewTrait = {
  calls(v) {
    const user = data(v, 'tool.user_requested');
    if (user)
      return [{ id: str(user.toolCallId) ?? '', name: str(user.toolName) ?? '?', args: parseArgs(user.arguments) }];
    const m = data(v, 'assistant.message');
    if (!m || !Array.isArray(m.toolRequests)) return [];
    return m.toolRequests
      .filter(isObj)
      .map(
        (q): ToolCallSeen => ({ id: str(q.toolCallId) ?? '', name: str(q.name) ?? '?', args: parseArgs(q.arguments) }),
      );
  },
  results(v) {
    const c = data(v, 'tool.execution_complete');
    if (c) {
      const output = resultText(c);
      const exit = COPILOT_RESULT_VIEW.exitCode?.(output);
      return [
        {
          id: str(c.toolCallId) ?? '',
          status: c.success === true ? 'completed' : 'failed',
          output,
          ...(exit !== undefined ? { exitCode: exit } : {}),
        },
      ];
    }
    const p = data(v, 'permission.completed');
    if (p && isObj(p.result) && p.result.kind === 'denied-interactively-by-user' && str(p.toolCallId) !== undefined)
      return [{ id: str(p.toolCallId)!, status: 'rejected', output: 'denied interactively by the user' }];
    return [];
  },
  said(v) {
    const m = data(v, 'assistant.message');
    if (!m) return {};
    const text = str(m.content)?.trim();
    const thinking = str(m.reasoningText)?.trim();
    return { ...(thinking ? { thinking } : {}), ...(text ? { text } : {}) };
  },
  cwd(v) {
    const d = data(v, 'session.start') ?? data(v, 'session.resume');
    return d && isObj(d.context) ? str(d.context.cwd) : undefined;
  },
  view(name, args, cwd) {
    if (name === 'str_replace_editor' && isObj(args)) {
      const cmd = str(args.command);
      return viewByArgs(cmd === 'view' ? 'read' : cmd === 'create' ? 'write' : 'edit', name, args, cwd);
    }
    return viewByArgs(kindByName(KINDS, name), name, args, cwd);
  },
};
