/**
 * A response the agent ends without running its calls (ChatItem.abandoned: Pi's stopReason "error" / "aborted")
 * leaves calls without results by design: they are expected (status "abandoned", never in flight) and not a finding,
 * even when the model went on in the same turn, which would otherwise make them TOOL_UNANSWERED_CALL errors.
 */
import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../src/model/events.js';
import { PairingCollector } from '../../src/pairing/collect.js';
import { classifyPairs } from '../../src/pairing/classify.js';
import type { PairingDialect } from '../../src/pairing/dialect.js';

const D: PairingDialect = {
  placement: 'run',
  conversation: 'the log',
  orphan: 'o',
  duplicate: 'd',
  unanswered: 'u',
  displaced: 'x',
  synthetic: 's',
};
const item = (line: number, c: Partial<ChatItem>): ChatItem => ({
  file: 'f',
  line,
  byteOffset: line * 10,
  type: 'user',
  ...c,
});

function run(abandoned: string | undefined) {
  const c = new PairingCollector(D);
  c.chat(item(1, { type: 'user', text: 'go' }));
  c.chat(item(2, { type: 'assistant', toolCalls: [{ id: 'c1', name: 'bash' }], ...(abandoned ? { abandoned } : {}) }));
  // The model answers again in the same turn (Pi retrying after an error), without the call's result.
  c.chat(item(3, { type: 'assistant', text: 'retrying' }));
  return classifyPairs(c, D);
}

describe('calls of an abandoned response', () => {
  it('are expected orphans: status abandoned, and no finding (every healthy session of the agent has them)', () => {
    const r = run('the response ended with stopReason "error"');
    expect(r.rows.map((x) => x.status)).toEqual(['abandoned']);
    expect(r.findings).toEqual([]);
  });
  it('without the mark, the same history is an unanswered call (an error by default)', () => {
    const r = run(undefined);
    expect(r.findings.map((f) => [f.code, f.severity])).toEqual([['TOOL_UNANSWERED_CALL', undefined]]);
  });
});
