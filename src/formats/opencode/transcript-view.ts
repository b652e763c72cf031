/**
 * opencode's tools for readers: a `tool` part holds the call (`callID`, `tool`, `state.input`) and, once it is
 * terminal, its result (`state.output` when completed, `state.error` when it failed); a `text` or `reasoning` part
 * is what the model said. One record, both halves.
 */
import {
  isObj,
  kindByName,
  str,
  viewByArgs,
  type ResultStatus,
  type ToolKind,
  type TranscriptViewTrait,
} from '../transcript-view.js';
import { isAbortResult } from './normalize.js';

const KINDS: Record<string, ToolKind> = {
  bash: 'shell',
  read: 'read',
  write: 'write',
  edit: 'edit',
  multiedit: 'edit',
  patch: 'patch',
  apply_patch: 'patch',
  webfetch: 'fetch',
  websearch: 'fetch',
};

const REJECTED = /rejected permission to use this specific tool call|DeniedError/;

export const opencodeTranscriptView: TranscriptViewTrait = {
  calls(v) {
    if (!isObj(v) || v.type !== 'tool') return [];
    const st = isObj(v.state) ? v.state : {};
    return [{ id: str(v.callID) ?? '', name: str(v.tool) ?? '?', args: st.input ?? {} }];
  },
  cwd: (v) => (isObj(v) && v.role === 'assistant' && isObj(v.path) ? str(v.path.cwd) : undefined),
  results(v) {
    if (!isObj(v) || v.type !== 'tool' || !isObj(v.state)) return [];
    const st = v.state;
    if (st.status !== 'completed' && st.status !== 'error') return [];
    const meta = isObj(st.metadata) ? st.metadata : {};
    const exit = typeof meta.exit === 'number' ? meta.exit : undefined;
    const status: ResultStatus =
      st.status === 'completed'
        ? exit !== undefined && exit !== 0
          ? 'failed'
          : 'completed'
        : isAbortResult(st)
          ? 'cancelled'
          : REJECTED.test(str(st.error) ?? '')
            ? 'rejected'
            : 'failed';
    const output = st.status === 'completed' ? (str(st.output) ?? '') : (str(st.error) ?? '');
    return [{ id: str(v.callID) ?? '', status, output, ...(exit !== undefined ? { exitCode: exit } : {}) }];
  },
  view(name, args, cwd) {
    const v = viewByArgs(kindByName(KINDS, name), name, args, cwd);
    if ((name === 'patch' || name === 'apply_patch') && isObj(args) && str(args.patchText) !== undefined)
      return { ...v, kind: 'patch', patch: str(args.patchText)! };
    if ((name === 'edit' || name === 'multiedit') && isObj(args)) {
      if (str(args.oldString) !== undefined) v.old = str(args.oldString)!;
      if (str(args.newString) !== undefined) v.new = str(args.newString)!;
    }
    return v;
  },
};
