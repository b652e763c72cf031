/** Hermes's tools for readers: `tool_calls` of assistant messages (OpenAI style), `tool` messages. */
import {
  isObj,
  kindByName,
  parseArgs,
  str,
  viewByArgs,
  type ResultStatus,
  type ToolKind,
  type TranscriptViewTrait,
} from '../transcript-view.js';
import { approvalMarker, contentText, isSynthetic, toolCalls } from './normalize.js';

const KINDS: Record<string, ToolKind> = {
  terminal: 'shell',
  patch: 'patch',
  write_file: 'write',
  read_file: 'read',
  web_search: 'fetch',
  web_extract: 'fetch',
};

export const hermesTranscriptView: TranscriptViewTrait = {
  calls(v) {
    if (!isObj(v) || v.role !== 'assistant') return [];
    const row = typeof v.tool_calls === 'string' ? { tool_calls: parseArgs(v.tool_calls) } : v;
    // A state.db row read for the audit keeps the calls' ids and names only: no arguments, `{}`.
    return toolCalls(row).map((c) => ({ id: c.id, name: c.name, args: c.args === '' ? {} : parseArgs(c.args) }));
  },
  said(v) {
    if (!isObj(v) || v.role !== 'assistant') return {};
    const text = contentText(v.content).trim();
    const thinking = str(v.reasoning)?.trim();
    return { ...(thinking ? { thinking } : {}), ...(text ? { text } : {}) };
  },
  results(v) {
    if (!isObj(v) || v.role !== 'tool') return [];
    const output = contentText(v.content);
    const parsed = parseArgs(output);
    const exit = isObj(parsed) && typeof parsed.exit_code === 'number' ? parsed.exit_code : undefined;
    const error = isObj(parsed) && typeof parsed.error === 'string' && parsed.error !== '' ? parsed.error : undefined;
    const status: ResultStatus = isSynthetic(output)
      ? 'placeholder'
      : approvalMarker(output) === 'blocked'
        ? 'rejected'
        : /"status":\s*"error"/.test(output) || error !== undefined || (exit !== undefined && exit !== 0)
          ? 'failed'
          : 'completed';
    // The tool's JSON envelope: its output (or content) as the text, the error after it.
    const text = isObj(parsed) ? (str(parsed.output) ?? str(parsed.content)) : undefined;
    const shown = text !== undefined ? `${text}${error !== undefined ? `\nerror: ${error}` : ''}` : output;
    return [
      { id: str(v.tool_call_id) ?? '', status, output: shown, ...(exit !== undefined ? { exitCode: exit } : {}) },
    ];
  },
  view(name, args, cwd) {
    const v = viewByArgs(kindByName(KINDS, name), name, args, cwd);
    // Hermes's patch tool: a V4A patch in `patch`, or a replace of `old_string` by `new_string` in `path`.
    if (name === 'patch' && v.kind === 'other' && isObj(args) && str(args.path) !== undefined)
      return { ...viewByArgs('edit', name, args, cwd) };
    return v;
  },
};
