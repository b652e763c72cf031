/**
 * Which of two events the agent emitted first: the order that decides whether a tool call of the authoritative log
 * came after its last compaction checkpoint.
 */

/** Where an event sits in the order the agent emitted it: its file position, and its event-id counter if any. */
export interface Emission {
  seq: number;
  counter?: number;
  eventPrefix?: string;
}

/**
 * `a` was emitted after `b`: by event-id counter when both carry one minted by the same session (an agent's writer
 * can put a line on disk after lines emitted later), else by file order.
 */
export function emittedAfter(a: Emission, b: Emission): boolean {
  if (a.counter !== undefined && b.counter !== undefined && a.eventPrefix === b.eventPrefix)
    return a.counter > b.counter;
  return a.seq > b.seq;
}
