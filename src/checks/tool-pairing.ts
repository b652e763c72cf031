/** TOOL_* and XREF_CHAT_VS_UPDATES: every tool call answered exactly once, in place, in both logs. */
import { PairingCollector } from '../pairing/collect.js';
import { classifyPairs } from '../pairing/classify.js';
import type { PairFinding } from '../pairing/pairing-result.js';
import { defineCheck } from './define.js';

export const toolPairing = defineCheck({
  id: 'tool-pairing',
  validate: false,
  codes: {
    TOOL_ORPHAN_RESULT: {
      severity: 'error',
      title: 'A tool result answers no call',
      help:
        "A tool result whose call id matches no call in the model's history: what a torn line leaves when it took " +
        'the line that declared the call with it, or history spliced in. Providers reject such a history; the ' +
        'message ' +
        'says what the agent does about it.',
    },
    TOOL_DUPLICATE_RESULT: {
      severity: 'error',
      title: 'A tool call is answered twice',
      help:
        'Two results for one call id (a cancelled result and then the real one, or a double write): what the model ' +
        'saw and what ran may differ.',
    },
    TOOL_RESULT_BEFORE_CALL: {
      severity: 'error',
      title: 'A tool result comes before its call',
      help:
        'The result appears in the conversation before the item that declares the call: the history was ' +
        'reordered or spliced.',
    },
    TOOL_UNANSWERED_CALL: {
      severity: 'error',
      title: 'A tool call was never answered, in a turn that went on',
      help:
        'A tool call without a result although its turn completed (the log records the turn ending, or the model ' +
        'went ' +
        'on talking). Providers reject a dangling call; agents repair it with a placeholder result, which hides ' +
        'whether the tool ran: the message says what the log recorded.',
    },
    TOOL_INTERRUPTED_CALL: {
      severity: 'warning',
      title: 'A tool call was in flight when its turn was cut off',
      help:
        'A call without a result in a turn that never completed: the final turn of a session that stopped (crash, ' +
        'kill, Ctrl-C), or a turn cut off by a crash and followed by a resume, or a cancelled turn. The tool may or ' +
        'may not have run; one that edits files or runs commands may have had side effects that a resume would ' +
        'repeat. `session-audit inspect` explains what to check before resuming. The calls of a response the agent ' +
        'ends without running them (Pi\'s stopReason "error" or "aborted") have no result by design and are not ' +
        'reported.',
    },
    TOOL_DISPLACED_RESULT: {
      severity: 'warning',
      title: 'A tool result is not in the run right after its call',
      help:
        'Chat-completion and Messages API providers need each result in the contiguous run of tool results right ' +
        'after the response that made the call. A displaced result is stripped or rejected (the message says what ' +
        'the ' +
        'agent does): the model then sees the call unanswered.',
    },
    TOOL_SYNTHETIC_RESULT: {
      severity: 'note',
      title: 'A tool result was inserted by the harness',
      help:
        'The result text is one the agent writes itself for a call that did not run (a cancellation, a rejection, ' +
        'an abort placeholder): according to the harness, the tool did not run; the message says what the log ' +
        'recorded.',
    },
    TOOL_UPDATE_WITHOUT_CALL: {
      severity: 'warning',
      title: 'A tool call update has no tool call before it',
      help:
        'In the authoritative log every update of a call follows the line that created the call. An update without ' +
        'one (or before it) means lines were lost, reordered or spliced.',
    },
    TOOL_NO_TERMINAL_STATUS: {
      severity: 'warning',
      title: 'A tool call never reached completed or failed in the authoritative log',
      help:
        'Each tool call in the log reaches a terminal status (completed or failed) unless its turn was cancelled or ' +
        "crashed. One that never does in a turn that ended normally, or that the model's history shows answered, " +
        'points to a lost update line.',
    },
    XREF_CHAT_VS_UPDATES: {
      severity: 'warning',
      title: 'A tool call is in one log and not the other',
      help:
        'Where an agent keeps the authoritative log and the conversation in two files, both name the same call ids. ' +
        'Allowing for compaction (the conversation keeps only recent items), rewinds (the log keeps dead branches) ' +
        "and fork filtering, a call in only one of them means the model's history and the log tell different stories.",
    },
  },
  create(ctx) {
    const dialect = ctx.agent.pairing;
    const emit = (findings: PairFinding[]): void => {
      for (const f of findings)
        ctx.emit(f.code, f.at, f.message, { key: f.key, ...(f.severity ? { severity: f.severity } : {}) });
    };
    // Findings of a conversation that ended are emitted then, and its calls let go (collect.ts).
    const c = new PairingCollector(dialect, { rows: false, onFindings: emit });
    let rebuilt = false;
    return {
      event: (e) => c.event(e),
      chat: (i) => c.chat(i),
      fileEnd(f) {
        if (f.file === dialect.toolLog) c.logEnd(f.dead);
      },
      end() {
        // A history rebuilt from the authoritative log has the log's calls by construction, and its dead branches too.
        const names = dialect.rebuiltNames;
        rebuilt =
          names !== undefined &&
          c.hasChat &&
          c.chatCalls.size > 0 &&
          [...c.chatCalls.values()].every((x) => names.test(x.name));
        emit(classifyPairs(c, dialect, { rebuilt, rows: false }).findings);
      },
    };
  },
});
