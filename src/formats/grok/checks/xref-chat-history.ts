/**
 * XREF_CHAT_COUNT, XREF_FORMAT_VERSION, XREF_REBUILT_HISTORY: chat_history.jsonl against summary.json and its own
 * traits.
 */
import { summaryView, type SummaryView } from '../summary-view.js';
import { defineCheck } from '../../../checks/define.js';

const LOST = new Set([
  'JSONL_TORN_TAIL',
  'JSONL_BAD_LINE',
  'JSONL_INVALID_UTF8',
  'JSONL_NUL_BYTES',
  'JSONL_OVERSIZED_LINE',
  'JSONL_TOO_DEEP',
  'JSONL_MERGED_LINE',
]);

export const xrefChatHistory = defineCheck({
  id: 'xref-chat-history',
  validate: false,
  codes: {
    XREF_CHAT_COUNT: {
      severity: 'warning',
      title: 'num_chat_messages disagrees with the lines of chat_history.jsonl',
      help:
        'num_chat_messages is incremented on each chat append and set on each full rewrite. It drifts ' +
        'legitimately: the chat-history rewrite at spawn does not touch it, a rebuild from updates.jsonl does not ' +
        'patch it, a cwd-switch repair adds one without an append, and skipped corrupt lines are scrubbed by the ' +
        'next rewrite. A note when the session shows one of those causes.',
    },
    XREF_FORMAT_VERSION: {
      severity: 'error',
      title: 'chat_format_version does not describe the chat history',
      help:
        'chat_format_version is 0 (legacy OpenAI-style lines) or 1 (ConversationItem lines) and only ever ' +
        'rises. Any other value is an error; ConversationItem lines under version 0 mean the summary was not ' +
        'upgraded with the file (a warning): Grok then tries the legacy decoder first on every line.',
    },
    XREF_REBUILT_HISTORY: {
      severity: 'note',
      title: 'chat_history.jsonl looks rebuilt from updates.jsonl',
      help:
        'When chat_history.jsonl is missing or empty, Grok (U2) rebuilds it from updates.jsonl. The rebuild is ' +
        'lossy: no system item, no reasoning, no model ids, no prompt indices or synthetic reasons, tool names are ' +
        'the display titles, rewind markers are ignored (dead branches come back) and only the part after the last ' +
        'compaction survives, without its summary. Pairing and count findings on such a history are weaker ' +
        'evidence.',
    },
  },
  create(ctx) {
    let summary: SummaryView | undefined;
    let lines = 0;
    let damaged = 0;
    const t = {
      system: 0,
      reasoning: 0,
      backend: 0,
      assistant: 0,
      modelId: 0,
      marked: 0,
      user: 0,
      v1: 0,
      legacy: 0,
      titleNames: 0,
      calls: 0,
    };
    let thoughts = 0;
    const quarantine = [...ctx.session.artifacts.values()].some((a) => a.kind === 'chat-quarantine');
    return {
      doc({ kind, value }) {
        if (kind === 'summary') summary = summaryView(value);
      },
      event(e) {
        if (e.kind === 'thought') thoughts++;
      },
      chat(c) {
        lines++;
        if (c.legacy) t.legacy++;
        else t.v1++;
        if (c.type === 'system') t.system++;
        if (c.type === 'reasoning') t.reasoning++;
        if (c.type === 'backend_tool_call') t.backend++;
        if (c.type === 'user') {
          t.user++;
          if (c.promptIndex !== undefined || c.syntheticReason !== undefined) t.marked++;
        }
        if (c.type === 'assistant') {
          t.assistant++;
          if (c.hasModelId) t.modelId++;
          for (const call of c.toolCalls ?? []) {
            t.calls++;
            if (/[\s`/]/.test(call.name)) t.titleNames++;
          }
        }
      },
      damage({ file, damage }) {
        if (file === 'chat_history.jsonl' && LOST.has(damage.code)) damaged += damage.count ?? 1;
      },
      end() {
        const rebuilt =
          lines > 0 &&
          t.legacy === 0 &&
          t.system === 0 &&
          t.reasoning === 0 &&
          t.backend === 0 &&
          t.modelId === 0 &&
          t.marked === 0 &&
          (t.assistant > 0 || t.user > 0);
        if (rebuilt) {
          const why = [
            'no system item',
            'no model_id on any assistant item',
            'no prompt_index or synthetic_reason on any user item',
          ];
          if (t.calls && t.titleNames === t.calls) why.push('tool names are display titles');
          if (thoughts) why.push(`${thoughts} thought chunk(s) in updates.jsonl but no reasoning item`);
          ctx.emit(
            'XREF_REBUILT_HISTORY',
            { file: 'chat_history.jsonl' },
            `looks rebuilt from updates.jsonl (${why.join('; ')}): a lossy projection without thoughts, model ids ` +
              `or the compaction summary, and with rewound branches included`,
          );
        }
        if (!summary) return;
        const v = summary.chatFormatVersion;
        if (v !== undefined && v !== 0 && v !== 1) {
          ctx.emit(
            'XREF_FORMAT_VERSION',
            { file: 'summary.json', pointer: '/chat_format_version' },
            `chat_format_version is ${v}; Grok knows 0 (legacy) and 1 (ConversationItem)`,
          );
        } else if ((v ?? 0) === 0 && t.v1 > 0) {
          ctx.emit(
            'XREF_FORMAT_VERSION',
            { file: 'summary.json', pointer: '/chat_format_version' },
            `chat_format_version is ${v === undefined ? 'absent (0)' : '0'} but chat_history.jsonl holds ${t.v1} ` +
              `ConversationItem line(s): the summary was not upgraded with the file`,
            { severity: 'warning' },
          );
        }
        const n = summary.numChatMessages;
        const total = lines + damaged;
        if (n === undefined || lines === 0 || n === total || n === lines) return;
        const causes: string[] = [];
        if (rebuilt) causes.push('the history was rebuilt from updates.jsonl, which does not patch the counter');
        if (quarantine || damaged) causes.push('corrupt lines were skipped and scrubbed by a rewrite');
        if ((summary.cwdGeneration ?? 0) > 0)
          causes.push('a working-directory switch repair adds one without an append');
        const legit = causes.length
          ? causes.join('; ')
          : 'the chat-history rewrite at spawn does not touch the counter';
        ctx.emit(
          'XREF_CHAT_COUNT',
          { file: 'summary.json', pointer: '/num_chat_messages' },
          `num_chat_messages is ${n} but chat_history.jsonl has ${lines} ` +
            `line(s)${damaged ? ` (+${damaged} damaged)` : ''}: ${legit}`,
          causes.length ? { severity: 'note' } : undefined,
        );
      },
    };
  },
});
