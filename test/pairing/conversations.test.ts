/**
 * Conversations apart (ChatItem.conversationStart, a format without an authoritative log: Hermes's sessions): each
 * conversation's calls are settled when the next one starts and let go, so the collector never holds more than one
 * conversation's calls; the findings and rows are those of each conversation on its own, in the same order.
 */
import { describe, expect, it } from 'vitest';
import { HermesNormalizer } from '../../src/formats/hermes/normalize.js';
import type { ChatItem } from '../../src/model/events.js';
import { PairingCollector } from '../../src/pairing/collect.js';
import { classifyPairs } from '../../src/pairing/classify.js';
import type { PairingDialect } from '../../src/pairing/dialect.js';
import type { PairFinding } from '../../src/pairing/pairing-result.js';

const D: PairingDialect = {
  placement: 'run',
  conversation: 'the log',
  orphan: 'o',
  duplicate: 'd',
  unanswered: 'u',
  displaced: 'x',
  synthetic: 's',
};

let line = 0;
const item = (c: Partial<ChatItem>): ChatItem => {
  line++;
  return { file: 'state.db', line, byteOffset: 0, type: 'user', ...c };
};

/** One conversation: a prompt, `calls` answered calls, the last one `broken` ways (unanswered, orphan result). */
function conversation(s: number, calls: number, broken: boolean): ChatItem[] {
  const out = [item({ type: 'user', text: 'go', conversationStart: true })];
  for (let k = 0; k < calls; k++) {
    const id = `call_${s}_${k}`;
    out.push(item({ type: 'assistant', toolCalls: [{ id, name: 'terminal' }] }));
    if (!(broken && k === calls - 1)) out.push(item({ type: 'tool_result', toolCallId: id }));
  }
  if (broken) out.push(item({ type: 'tool_result', toolCallId: `gone_${s}` }));
  out.push(item({ type: 'assistant', text: 'done' }));
  return out;
}

describe('pairing over conversations apart', () => {
  it('holds one conversation at a time: 2,000 conversations of 50 calls never leave more than 50 calls held', () => {
    line = 0;
    const got: PairFinding[] = [];
    const c = new PairingCollector(D, { rows: false, onFindings: (f) => got.push(...f) });
    let most = 0;
    for (let s = 0; s < 2000; s++) {
      for (const i of conversation(s, 50, s % 500 === 0)) c.chat(i);
      most = Math.max(most, c.chatCalls.size, c.firstResults.size);
    }
    expect(most).toBeLessThanOrEqual(51);
    got.push(...classifyPairs(c, D, { rows: false }).findings);
    expect(got.map((f) => `${f.code} ${f.key}`)).toEqual(
      [0, 500, 1000, 1500].flatMap((s) => [`TOOL_UNANSWERED_CALL call_${s}_49`, `TOOL_ORPHAN_RESULT gone_${s}`]),
    );
  });

  it('a result in the next conversation answers no call of its own; rows of every conversation are kept', () => {
    line = 0;
    const c = new PairingCollector(D);
    for (const i of [
      item({ type: 'user', text: 'a', conversationStart: true }),
      item({ type: 'assistant', toolCalls: [{ id: 'x', name: 'terminal' }] }),
      item({ type: 'user', text: 'b', conversationStart: true }),
      item({ type: 'tool_result', toolCallId: 'x' }),
    ])
      c.chat(i);
    const r = classifyPairs(c, D);
    expect(r.rows.map((x) => [x.id, x.status])).toEqual([
      ['x', 'interrupted'],
      ['x', 'orphan result'],
    ]);
    expect(r.findings.map((f) => f.code)).toEqual(['TOOL_INTERRUPTED_CALL', 'TOOL_ORPHAN_RESULT']);
    // The call's session never went on: it stopped in flight (not "later resumed" by another session's turn).
    expect(r.findings[0]!.message).toContain('in flight when the session stopped');
  });

  it("Hermes marks the first item of each session's rows as a conversation of its own", () => {
    const n = new HermesNormalizer('state.db', 'state.db');
    const starts: boolean[] = [];
    let id = 0;
    for (const session of [
      ['user', 'assistant', 'tool'],
      ['tool', 'user'],
    ]) {
      n.session();
      for (const role of session) {
        const value = { role, content: 'x', ...(role === 'tool' ? { tool_call_id: 'c' } : {}) };
        const { chats } = n.push({ line: ++id, byteOffset: 0, byteLength: 0, value }, 'state.db');
        for (const c of chats) starts.push(c.conversationStart === true);
      }
    }
    expect(starts).toEqual([true, false, false, true, false]);
  });
});
