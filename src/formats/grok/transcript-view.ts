/**
 * Grok Build's tools for readers: ACP `tool_call` updates carry the call (its `kind` is the agent's own word for
 * what the tool does), `tool_call_update`s with a terminal status the result.
 */
import {
  isObj,
  str,
  viewByArgs,
  type ResultStatus,
  type ToolKind,
  type TranscriptViewTrait,
} from '../transcript-view.js';

/** ACP tool kinds → what a reader is shown. */
const ACP: Record<string, ToolKind> = { execute: 'shell', edit: 'edit', read: 'read', fetch: 'fetch' };

const update = (v: unknown): Record<string, unknown> | undefined =>
  isObj(v) && isObj(v.params) && isObj(v.params.update) ? v.params.update : undefined;

function text(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObj)
    .map((c) => {
      const inner = isObj(c.content) ? c.content : c;
      if (inner.type === 'text') return str(inner.text) ?? '';
      if (c.type === 'diff') return `diff ${str(c.path) ?? ''}`;
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

export const grokTranscriptView: TranscriptViewTrait = {
  calls(v) {
    const u = update(v);
    if (u?.sessionUpdate !== 'tool_call') return [];
    const args = isObj(u.rawInput) ? { ...u.rawInput, acpKind: str(u.kind) } : { acpKind: str(u.kind) };
    return [{ id: str(u.toolCallId) ?? '', name: str(u.title) ?? str(u.kind) ?? '?', args }];
  },
  results(v) {
    const u = update(v);
    if (u?.sessionUpdate !== 'tool_call_update') return [];
    const s = str(u.status);
    if (s !== 'completed' && s !== 'failed' && s !== 'cancelled') return [];
    const raw = isObj(u.rawOutput) ? (str(u.rawOutput.output) ?? str(u.rawOutput.error)) : undefined;
    const output = text(u.content) || raw || '';
    const status: ResultStatus = s;
    return [{ id: str(u.toolCallId) ?? '', status, output }];
  },
  view(name, args) {
    const a = isObj(args) ? args : {};
    const kind = ACP[str(a.acpKind) ?? ''] ?? 'other';
    const { acpKind: _, ...rest } = a;
    const v = viewByArgs(kind, name, rest);
    if (v.kind === 'edit' && v.old === undefined && v.new === undefined && str(a.content) !== undefined)
      return { ...v, kind: 'write', content: str(a.content)! };
    return v;
  },
};
