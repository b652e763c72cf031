/** TOOL_* and XREF_CHAT_VS_UPDATES: every tool call answered exactly once, in place, in both logs. */
import { PairingCollector } from '../pairing/collect.js';
import { classifyPairs } from '../pairing/classify.js';
import { defineCheck } from './define.js';

export const toolPairing = defineCheck({
  id: 'tool-pairing',
  validate: false,
  codes: {
    TOOL_ORPHAN_RESULT: {
      severity: 'error',
      title: 'A tool result answers no call',
      help: 'A tool_result whose tool_call_id matches no assistant tool call: what a torn line leaves when it took the declaring assistant item with it ("orphaned ToolResults left by a torn JSONL line, which 400 on every request"). Providers reject the history until Grok\'s repair strips the result.',
    },
    TOOL_DUPLICATE_RESULT: {
      severity: 'error',
      title: 'A tool call is answered twice',
      help: 'Two tool_result items for one call id (a cancelled result and then the real one, or a double write). Grok\'s dedup keeps the last; what the model saw and what ran may differ.',
    },
    TOOL_RESULT_BEFORE_CALL: {
      severity: 'error',
      title: 'A tool result comes before its call',
      help: 'The result appears in chat_history.jsonl before the assistant item that declares the call: the history was reordered or spliced.',
    },
    TOOL_UNANSWERED_CALL: {
      severity: 'error',
      title: 'A tool call was never answered, in a turn that went on',
      help: 'An assistant tool call without a tool_result although its turn completed (turn_completed in updates.jsonl, or the model went on talking). Providers reject a dangling call; Grok\'s repair inserts a synthetic "cancelled" result, which hides whether the tool ran: the message says what updates.jsonl recorded.',
    },
    TOOL_INTERRUPTED_CALL: {
      severity: 'warning',
      title: 'A tool call was in flight when its turn was cut off',
      help: 'A call without a result in a turn that never completed: the final turn of a session that stopped (crash, kill, Ctrl-C), or a turn cut off by a crash and followed by a resume, or a cancelled turn. The tool may or may not have run; one that edits files or runs commands may have had side effects that a resume would repeat. `session-audit inspect` explains what to check before resuming.',
    },
    TOOL_DISPLACED_RESULT: {
      severity: 'warning',
      title: 'A tool result is not in the run right after its call',
      help: 'Providers need each result in the contiguous run of tool results right after the assistant item that called it. A displaced result is stripped by Grok\'s repair (the model then sees the call unanswered). Results separated from their call only by reasoning or backend-tool items are accepted by Grok\'s turn scanner but not by its strict repair rule (a note).',
    },
    TOOL_SYNTHETIC_RESULT: {
      severity: 'note',
      title: 'A tool result was inserted by the harness',
      help: 'The result text is one of the harness\'s synthetic cancellations ("Tool execution was cancelled by the user (tool `x` was not executed)." / "…halted by the harness…"): Grok\'s repair answered a dangling call; the tool did not run, according to the harness.',
    },
    TOOL_UPDATE_WITHOUT_CALL: {
      severity: 'warning',
      title: 'A tool_call_update has no tool_call before it',
      help: 'In updates.jsonl every tool_call_update follows the tool_call that created the call. An update without one (or before it) means lines were lost, reordered or spliced.',
    },
    TOOL_NO_TERMINAL_STATUS: {
      severity: 'warning',
      title: 'A tool call never reached completed or failed in updates.jsonl',
      help: 'Each tool_call in updates.jsonl reaches a terminal status (completed or failed) unless its turn was cancelled or crashed. One that never does in a turn that ended normally, or that chat_history.jsonl shows answered, points to a lost update line.',
    },
    XREF_CHAT_VS_UPDATES: {
      severity: 'warning',
      title: 'A tool call is in one log and not the other',
      help: 'Tool call ids are shared by chat_history.jsonl and updates.jsonl (the same id source). Allowing for compaction (the chat is replaced and keeps only recent items), rewinds (the log keeps dead branches) and fork filtering, a call in only one of them means the model\'s history and the authoritative log tell different stories.',
    },
  },
  create(ctx) {
    const c = new PairingCollector();
    let rebuilt = false;
    return {
      event: (e) => c.event(e),
      chat: (i) => c.chat(i),
      fileEnd(f) {
        if (f.file === 'updates.jsonl') c.logEnd(f.dead);
      },
      end() {
        // A history rebuilt from updates.jsonl has the log's calls by construction, and its dead branches too.
        rebuilt = c.hasChat && [...c.chatCalls.values()].every((x) => /[\s`/]/.test(x.name)) && c.chatCalls.size > 0;
        const dialect = ctx.format.pairing;
        for (const f of classifyPairs(c, { rebuilt, rows: false, ...(dialect ? { dialect } : {}) }).findings) ctx.emit(f.code, f.at, f.message, { key: f.key, ...(f.severity ? { severity: f.severity } : {}) });
      },
    };
  },
});
