/** Claude Code's tools for readers: `tool_use` blocks of assistant lines, `tool_result` blocks of user lines. */
import {
  isObj,
  kindByName,
  str,
  viewByArgs,
  type ResultStatus,
  type ToolCallSeen,
  type ToolKind,
  type ToolResultSeen,
  type TranscriptViewTrait,
} from '../transcript-view.js';
import { blockText } from './normalize.js';

const KINDS: Record<string, ToolKind> = {
  Bash: 'shell',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Write: 'write',
  Read: 'read',
  WebFetch: 'fetch',
  WebSearch: 'fetch',
};
const REJECTED = /^The user doesn't want to (proceed with this tool use|take this action right now)/;
const INTERRUPTED = /^\[Request interrupted by user( for tool use)?\]/;

const blocks = (v: unknown): Array<Record<string, unknown>> => {
  const m = isObj(v) && isObj(v.message) ? v.message : undefined;
  return m && Array.isArray(m.content) ? m.content.filter(isObj) : [];
};

export const claudeTranscriptView: TranscriptViewTrait = {
  calls(v) {
    if (!isObj(v) || v.type !== 'assistant') return [];
    return blocks(v)
      .filter((b) => b.type === 'tool_use')
      .map((b): ToolCallSeen => ({ id: str(b.id) ?? '', name: str(b.name) ?? '?', args: b.input ?? {} }));
  },
  results(v) {
    if (!isObj(v) || v.type !== 'user') return [];
    return blocks(v)
      .filter((b) => b.type === 'tool_result')
      .map((b): ToolResultSeen => {
        const output = blockText(b.content);
        const t = output.trim();
        const status: ResultStatus = REJECTED.test(t)
          ? 'rejected'
          : INTERRUPTED.test(t)
            ? 'cancelled'
            : b.is_error === true
              ? 'failed'
              : 'completed';
        return { id: str(b.tool_use_id) ?? '', status, output };
      });
  },
  cwd: (v) => (isObj(v) ? str(v.cwd) : undefined),
  view(name, args, cwd) {
    const v = viewByArgs(kindByName(KINDS, name), name, args, cwd);
    // MultiEdit: the edits one after the other.
    if (name === 'MultiEdit' && isObj(args) && Array.isArray(args.edits)) {
      const edits = args.edits.filter(isObj);
      v.old = edits.map((e) => str(e.old_string) ?? '').join('\n…\n');
      v.new = edits.map((e) => str(e.new_string) ?? '').join('\n…\n');
    }
    if (name === 'NotebookEdit' && isObj(args) && str(args.new_source) !== undefined) v.new = str(args.new_source);
    return v;
  },
};
