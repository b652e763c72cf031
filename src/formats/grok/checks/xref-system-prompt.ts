/** XREF_SYSTEM_PROMPT: system_prompt.txt mirrors the first system item of chat_history.jsonl. */
import { defineCheck } from '../../../checks/define.js';

const trimNl = (s: string): string => s.replace(/\n+$/, '');

export const xrefSystemPrompt = defineCheck({
  id: 'xref-system-prompt',
  validate: false,
  codes: {
    XREF_SYSTEM_PROMPT: {
      severity: 'warning',
      title: 'system_prompt.txt differs from the first system item of the chat history',
      help:
        'Grok writes system_prompt.txt as a mirror that "should match the first System entry in ' +
        'chat_history.jsonl modulo trailing newlines" (acp_session.rs:1467-1472). A difference means one of the ' +
        'two was edited, or the chat history was rebuilt or replaced without the mirror (a rebuilt history has no ' +
        'system item).',
    },
  },
  create(ctx) {
    let mirror: string | undefined;
    let first: { content: string; line: number; byteOffset: number } | undefined;
    let chatSeen = false;
    return {
      doc({ kind, value }) {
        if (kind === 'system-prompt' && typeof value === 'string') mirror = value;
      },
      record({ kind, record }) {
        if (kind !== 'chat' || first) return;
        chatSeen = true;
        const v = record.value as { type?: unknown; role?: unknown; content?: unknown };
        if ((v?.type === 'system' || v?.role === 'system') && typeof v.content === 'string')
          first = { content: v.content, line: record.line, byteOffset: record.byteOffset };
      },
      end() {
        if (mirror === undefined || !chatSeen) return;
        if (!first) {
          ctx.emit(
            'XREF_SYSTEM_PROMPT',
            { file: 'system_prompt.txt' },
            'system_prompt.txt exists but chat_history.jsonl has no system item: a history rebuilt from ' +
              'updates.jsonl has none',
            { severity: 'note' },
          );
          return;
        }
        if (trimNl(mirror) === trimNl(first.content)) return;
        const a = trimNl(mirror);
        const b = trimNl(first.content);
        let i = 0;
        while (i < a.length && i < b.length && a[i] === b[i]) i++;
        ctx.emit(
          'XREF_SYSTEM_PROMPT',
          { file: 'system_prompt.txt', byteOffset: Buffer.byteLength(a.slice(0, i)) },
          `differs from the system item at chat_history.jsonl:${first.line} from character ${i} (${a.length} vs ` +
            `${b.length} characters): ${JSON.stringify(a.slice(i, i + 40))} vs ` +
            `${JSON.stringify(b.slice(i, i + 40))}`,
        );
      },
    };
  },
});
