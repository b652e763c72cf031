/**
 * Gemini CLI's tools for readers: a gemini message holds its calls and, in each toolCalls entry, the result; a user
 * message of functionResponse parts holds results alone (the loader marks the copies of results already shown).
 */
import {
  isObj,
  kindByName,
  str,
  viewByArgs,
  type ToolKind,
  type ToolResultSeen,
  type TranscriptViewTrait,
} from '../transcript-view.js';
import { CANCELLED, callsOf, contentText, contextCwd, responses, thoughtsText } from './parts.js';

const KINDS: Record<string, ToolKind> = {
  run_shell_command: 'shell',
  replace: 'edit',
  edit: 'edit',
  write_file: 'write',
  read_file: 'read',
  web_fetch: 'fetch',
  google_web_search: 'fetch',
};

const STATUS: Record<string, ToolResultSeen['status']> = {
  success: 'completed',
  error: 'failed',
  cancelled: 'cancelled',
};

const message = (v: unknown): Record<string, unknown> | undefined =>
  isObj(v) && typeof v.id === 'string' ? v : undefined;

export const geminiTranscriptView: TranscriptViewTrait = {
  calls(v) {
    const m = message(v);
    if (m?.type !== 'gemini') return [];
    return callsOf(m).map((c) => ({ id: c.id, name: c.name, args: c.args }));
  },
  results(v) {
    const m = message(v);
    if (m?.type === 'user')
      return responses(m.content).map((r) => ({ id: r.id, status: r.error ? 'failed' : 'completed', output: r.text }));
    if (m?.type !== 'gemini') return [];
    return callsOf(m).flatMap((c): ToolResultSeen[] => {
      if (!c.entry) return [];
      const r = responses(c.entry.result).find((x) => x.id === c.id) ?? responses(c.entry.result)[0];
      if (!r) return [];
      const status = str(c.entry.status) ?? '';
      const rejected = /User denied execution/.test(r.text);
      return [
        {
          id: c.id,
          status: rejected ? 'rejected' : r.text.startsWith(CANCELLED) ? 'cancelled' : (STATUS[status] ?? 'completed'),
          output: r.text,
        },
      ];
    });
  },
  said(v) {
    const m = message(v);
    if (m?.type !== 'gemini') return {};
    const thinking = thoughtsText(m);
    const text = contentText(m.content);
    return { ...(thinking ? { thinking } : {}), ...(text ? { text } : {}) };
  },
  cwd: (v) => {
    const m = message(v);
    return m?.type === 'user' ? contextCwd(contentText(m.content)) : undefined;
  },
  view: (name, args, cwd) => {
    const v = viewByArgs(kindByName(KINDS, name), name, args, cwd);
    const a = isObj(args) ? args : {};
    if (v.kind === 'shell' && v.cwd === cwd && str(a.dir_path) !== undefined) v.cwd = str(a.dir_path)!;
    return v;
  },
};
