/**
 * Streaming an agent's JSONL log through a normalizer, shared by the Codex and Claude Code loaders, and the rule
 * they and the Grok loader share for damaged lines.
 */
import type { ChatItem, SessionEvent } from '../../model/events.js';
import type { Damage, JsonlRecord, JsonlStats } from '../../model/records.js';
import type { ReadOutcome, SessionSource } from '../../model/source.js';

/** Damage after which the agent's own reader has a line it cannot parse (recovered records are flagged separately). */
const UNPARSEABLE = new Set([
  'JSONL_TORN_TAIL',
  'JSONL_BAD_LINE',
  'JSONL_INVALID_UTF8',
  'JSONL_NUL_BYTES',
  'JSONL_OVERSIZED_LINE',
  'JSONL_TOO_DEEP',
]);

/**
 * A damage handler that calls `onLine` once per damaged line the agent's reader still counts as a line (an
 * unparseable line keeps its place in the log; blank lines and summaries of repeated damage do not).
 */
export function damagedLines(onLine: () => void): (d: Damage) => void {
  let last = 0;
  return (d) => {
    if (UNPARSEABLE.has(d.code) && d.line !== last && d.count === undefined) {
      last = d.line;
      onLine();
    }
  };
}

export interface LogNormalizer {
  push(r: JsonlRecord): { event: SessionEvent; chats: ChatItem[] };
  /** A damaged line takes a place in the log (it is not an event). */
  skip(): void;
}

export interface LogHandlers {
  record?(r: JsonlRecord): void;
  event(e: SessionEvent, r: JsonlRecord): void;
  chat?(c: ChatItem): void;
  damage?(d: Damage): void;
}

/** Stream one log: each record to the normalizer, its event and conversation items to the handlers. */
export function streamNormalizedLog(
  source: SessionSource,
  path: string,
  looksLikeRecord: (v: unknown) => boolean,
  maxLineBytes: number,
  n: LogNormalizer,
  h: LogHandlers,
): ReadOutcome<JsonlStats> {
  const counted = damagedLines(() => n.skip());
  return source.streamJsonl(
    path,
    { looksLikeRecord, maxLineBytes },
    (record) => {
      h.record?.(record);
      const step = n.push(record);
      h.event(step.event, record);
      for (const c of step.chats) {
        if (record.recovered !== undefined) c.recovered = record.recovered;
        h.chat?.(c);
      }
    },
    (damage) => {
      counted(damage);
      h.damage?.(damage);
    },
  );
}
