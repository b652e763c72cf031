/**
 * XREF_CHAT_VS_UPDATES "after the last compaction" means emitted after it: Grok's writer can put a line on disk
 * after the checkpoint line although it was emitted before it (its event-id counter says so). The corpus case
 * time-compaction-mid-turn shows the real layout end to end.
 */
import { describe, expect, it } from 'vitest';
import { emittedAfter } from '../../src/pairing/emission-order.js';

describe('emittedAfter', () => {
  it('orders by event-id counter when both lines carry one minted by the same session', () => {
    expect(emittedAfter({ seq: 9, counter: 4, eventPrefix: 'a' }, { seq: 5, counter: 7, eventPrefix: 'a' })).toBe(
      false,
    );
    expect(emittedAfter({ seq: 9, counter: 8, eventPrefix: 'a' }, { seq: 5, counter: 7, eventPrefix: 'a' })).toBe(true);
  });
  it('falls back to file order across prefixes or without counters', () => {
    expect(emittedAfter({ seq: 9, counter: 4, eventPrefix: 'b' }, { seq: 5, counter: 7, eventPrefix: 'a' })).toBe(true);
    expect(emittedAfter({ seq: 9 }, { seq: 5, counter: 7, eventPrefix: 'a' })).toBe(true);
    expect(emittedAfter({ seq: 3 }, { seq: 5 })).toBe(false);
  });
});
