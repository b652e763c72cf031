/**
 * The emission orderer and the time analysis on a writer that holds lines of one stream back ("held") and writes
 * the other stream ("now") at once: a held line is moved back past "now" lines only, to where it fits, and a line
 * that fits nowhere the writer can have delayed it to keeps its place and is a counter drop.
 */
import { expect, test } from 'vitest';
import type { SessionEvent } from '../../src/model/events.js';
import { TimeAnalyzer, type TimeFact } from '../../src/timeline/analyze.js';
import { EmissionOrderer } from '../../src/timeline/order.js';
import type { TimelineRules } from '../../src/timeline/rules.js';

const RULES: TimelineRules = {
  writtenLate: (late, earlier) => late.rail === 'held' && earlier.rail === 'now',
  lateCause: 'the writer holds a line until the next one of its stream',
  lateLine: 'a held line',
  loadReason: 'never',
};

/** Lines in file order: [stream, counter] (null: a line without an event id). */
const log = (...lines: Array<['held' | 'now', number | null]>): SessionEvent[] =>
  lines.map(([rail, counter], i) => {
    const e = { file: 'log.jsonl', line: i + 1, byteOffset: i * 100, rail, seq: i } as SessionEvent;
    if (counter !== null) Object.assign(e, { counter, eventPrefix: 's' });
    return e;
  });

function run(events: SessionEvent[]): { order: number[]; displaced: number[]; facts: string[] } {
  const order: number[] = [];
  const displaced: number[] = [];
  const facts: string[] = [];
  const analyzer = new TimeAnalyzer(RULES, (f: TimeFact) => facts.push(`${f.code} ${f.event.line}`));
  const orderer = new EmissionOrderer(
    RULES,
    (e) => {
      order.push(e.line);
      analyzer.push(e);
    },
    (d) => displaced.push(d.event.line),
  );
  for (const e of events) orderer.push(e);
  orderer.flush();
  analyzer.end();
  return { order, displaced, facts };
}

test('a held line that would have to pass a later line of its own stream keeps its place: a counter drop', () => {
  // The counter starts again (a process that did not re-seed it) right after lines of the other stream: the new
  // line is below a held line it cannot have been written after, so no delay explains it.
  const r = run(log(['held', 7], ['now', 8], ['now', 9], ['held', 1], ['now', 2]));
  expect(r.order).toEqual([1, 2, 3, 4, 5]);
  expect(r.displaced).toEqual([]);
  expect(r.facts).toEqual(['TIME_EVENT_ID_REGRESSION 4', 'TIME_RESUME_BOUNDARY 4']);
});

test('past the orderer: a drop below a held line is judged by the lines that raised the counter, not the last', () => {
  // A line without an id between them ends the orderer's window, so the analysis alone sees the drop.
  expect(run(log(['held', 7], ['now', 8], ['now', 9], ['now', null], ['held', 1])).facts).toEqual([
    'TIME_EVENT_ID_REGRESSION 5',
    'TIME_RESUME_BOUNDARY 5',
  ]);
  // Above the held line before it, the same drop is a held line written late.
  expect(run(log(['held', 7], ['now', 9], ['now', 10], ['now', null], ['held', 8])).facts).toEqual([]);
});
