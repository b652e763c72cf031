/**
 * Timesketch rows of events without a time (issue 16.5): never at 1970-01-01. An event without a time takes the
 * previous timed event's time, those before the first timed event take its time, and a timeline with no time at
 * all is left out of the export with a count (every event stays in the JSONL timeline); `timestamp_desc` says which.
 */
import { describe, expect, test } from 'vitest';
import type { TimelineEvent } from '../src/timeline/model.js';
import { renderTimeline } from '../src/report/timeline.js';

function event(line: number, timeMs: number | null): TimelineEvent {
  return {
    session: 's',
    depth: 0,
    file: 'chat.jsonl',
    line,
    byteOffset: line * 100,
    time: timeMs === null ? null : new Date(timeMs).toISOString(),
    timeMs,
    timeSource: timeMs === null ? null : 'agentTimestampMs',
    rail: 'acp',
    kind: 'model_text',
    tag: 'text',
    summary: `line ${line}`,
    text: `line ${line}`,
    rewound: false,
    compacted: false,
    displaced: false,
  } as TimelineEvent;
}

const T = Date.UTC(2026, 7, 19, 9, 30);

function sketch(events: TimelineEvent[]): { rows: Array<Record<string, unknown>>; omitted: Array<[number, string]> } {
  const omitted: Array<[number, string]> = [];
  const text = renderTimeline('timesketch', events, {
    width: 0,
    dataType: 'session-audit:test:event',
    onOmitted: (n, why) => omitted.push([n, why]),
  });
  return {
    rows: text.trim()
      ? text
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [],
    omitted,
  };
}

describe('Timesketch rows of events without a time', () => {
  test('before the first timed event: placed at its time, saying it is the next event', () => {
    const { rows, omitted } = sketch([event(1, null), event(2, null), event(3, T), event(4, null), event(5, T + 5)]);
    expect(rows.map((r) => r.source_line)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.map((r) => r.datetime)).toEqual([
      new Date(T).toISOString(),
      new Date(T).toISOString(),
      new Date(T).toISOString(),
      new Date(T).toISOString(),
      new Date(T + 5).toISOString(),
    ]);
    expect(rows.map((r) => r.timestamp_desc)).toEqual([
      'No timestamp (time of the next event)',
      'No timestamp (time of the next event)',
      'Agent event time',
      'No timestamp (time of the previous event)',
      'Agent event time',
    ]);
    expect(rows.some((r) => String(r.datetime).startsWith('1970'))).toBe(false);
    expect(omitted).toEqual([]);
  });

  test('a timeline without any time is left out, with a count', () => {
    const { rows, omitted } = sketch([event(1, null), event(2, null), event(3, null)]);
    expect(rows).toEqual([]);
    expect(omitted).toEqual([[3, 'no event of the timeline has a time']]);
  });
});
