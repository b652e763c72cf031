/** Pi's tools for readers: `toolCall` items of assistant messages, `toolResult` messages. */
import {
  isObj,
  kindByName,
  str,
  viewByArgs,
  type ToolCallSeen,
  type ToolKind,
  type TranscriptViewTrait,
} from '../transcript-view.js';
import { blockText } from './normalize.js';

const KINDS: Record<string, ToolKind> = { bash: 'shell', edit: 'edit', write: 'write', read: 'read' };
/** Results Pi writes itself (a skipped, blocked or unknown call). */
const PLACEHOLDER = [/^Skipped due to queued user message\.?$/, /^Tool execution was blocked/, /^Tool \S+ not found$/];

const message = (v: unknown): Record<string, unknown> | undefined =>
  isObj(v) && v.type === 'message' && isObj(v.message) ? v.message : undefined;

export const piTranscriptView: TranscriptViewTrait = {
  calls(v) {
    const m = message(v);
    if (m?.role !== 'assistant' || !Array.isArray(m.content)) return [];
    return m.content
      .filter(isObj)
      .filter((b) => b.type === 'toolCall')
      .map((b): ToolCallSeen => ({ id: str(b.id) ?? '', name: str(b.name) ?? '?', args: b.arguments ?? {} }));
  },
  results(v) {
    const m = message(v);
    if (m?.role !== 'toolResult') return [];
    const output = blockText(m.content);
    const failed = m.isError === true;
    const status =
      failed && PLACEHOLDER.some((re) => re.test(output.trim())) ? 'placeholder' : failed ? 'failed' : 'completed';
    return [{ id: str(m.toolCallId) ?? '', status, output }];
  },
  said(v) {
    const m = message(v);
    if (m?.role !== 'assistant' || !Array.isArray(m.content)) return {};
    const of = (type: string, key: string): string =>
      (m.content as unknown[])
        .filter(isObj)
        .filter((b) => b.type === type)
        .map((b) => str(b[key]) ?? '')
        .filter(Boolean)
        .join('\n');
    const thinking = of('thinking', 'thinking');
    const text = of('text', 'text');
    return { ...(thinking ? { thinking } : {}), ...(text ? { text } : {}) };
  },
  cwd: (v) => (isObj(v) && v.type === 'session' ? str(v.cwd) : undefined),
  view: (name, args, cwd) => viewByArgs(kindByName(KINDS, name), name, args, cwd),
};
