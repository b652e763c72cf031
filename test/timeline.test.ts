/** The rebuilt timeline equals the expected one recorded by the corpus builder; formats, filters and flags. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { validator } from '../src/formats/schema-runtime.js';
import type { TimelineEvent } from '../src/timeline/model.js';
import { cli } from './helpers/cli.js';
import { CORPORA, corpusCases } from './helpers/corpora.js';

interface ExpectedTimeline {
  session: string;
  args: string[];
  events: Array<{ depth: number; line: number; tag: string; rewound: boolean; compacted: boolean }>;
}

const withTimeline = [{ format: 'grok', name: 'clean', dir: join(CORPORA, 'grok', 'clean') }, ...corpusCases()].filter(
  (c) => existsSync(join(c.dir, 'expected-timeline.json')),
);

const jsonl = (s: string): TimelineEvent[] =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TimelineEvent);

describe.each(withTimeline)('$name', (c) => {
  const exp = JSON.parse(readFileSync(join(c.dir, 'expected-timeline.json'), 'utf8')) as ExpectedTimeline;
  test('the rebuilt timeline is exactly the expected event list', async () => {
    const r = await cli(['timeline', join(c.dir, exp.session), '--format', 'jsonl', ...exp.args]);
    expect(r.stderr).toBe('');
    const got = jsonl(r.stdout).map((e) => ({
      depth: e.depth,
      line: e.line,
      tag: e.tag,
      rewound: e.rewound,
      compacted: e.compacted,
    }));
    expect(got).toEqual(exp.events);
  });
});

const main = (c: string): string =>
  join(CORPORA, 'grok', c, 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001');

test('every event validates against schemas/timeline-event.schema.json', async () => {
  const v = validator('timeline-event.schema.json');
  for (const e of jsonl((await cli(['timeline', main('timeline-resume'), '--format', 'jsonl'])).stdout))
    expect(v(e), JSON.stringify(v.errors)).toBe(true);
});

test('ACP lines written after later xAI lines are shown where emitted, flagged; the resume is explained', async () => {
  const events = jsonl((await cli(['timeline', main('timeline-resume'), '--format', 'jsonl'])).stdout);
  const late = events.flatMap((e, i) => (e.displaced ? [i] : []));
  expect(late.length).toBeGreaterThan(3);
  for (const i of late) {
    // Placed before the xAI line that was written first although emitted after it.
    expect(events[i]!.rail).toBe('acp');
    expect(events[i + 1]!.rail).toBe('xai');
    expect(events[i + 1]!.line).toBeLessThan(events[i]!.line);
  }
  // The shapes of real files: a prompt before its hook line, streamed text before a hook line emitted after it.
  const after = (tag: string, next: string): boolean =>
    late.some((i) => events[i]!.tag === tag && events[i + 1]!.tag === next);
  expect(after('user_message_chunk', 'hook_execution')).toBe(true);
  expect(after('agent_message_chunk', 'hook_execution')).toBe(true);
  const resume = events.find((e) => e.resume);
  expect(resume).toMatchObject({ tag: 'available_commands_update' });
  expect(resume!.resume).toMatch(/re-seeded/);
});

test("a turn's last ACP line written after its turn_completed goes back before it: no resume", async () => {
  // Built-in slash commands and turns the user stopped: each leaves its last ACP line pending when turn_completed
  // (an xAI line) is written at once, so on disk that line follows its turn's end.
  const dir = join(CORPORA, 'grok', 'time-turn-end-pending', 'sessions', '%2Fhome%2Fdev%2Fproj');
  const r = await cli(['timeline', join(dir, '019a4a10-2c00-7d55-8000-00000000a004'), '--format', 'jsonl']);
  expect(r.stderr).toBe('');
  const events = jsonl(r.stdout);
  const counters = events.map((e) => e.counter!);
  expect(counters).toEqual([...counters].sort((a, b) => a - b));
  expect(events.filter((e) => e.resume)).toEqual([]);
  const ends = events.flatMap((e, i) => (e.kind === 'turn_completed' ? [i] : []));
  expect(ends.map((i) => events[i]!.summary)).toEqual([
    'turn completed: end_turn',
    'turn completed: cancelled',
    'turn completed: end_turn',
    'turn completed: cancelled',
  ]);
  for (const i of ends) {
    const last = events[i - 1]!;
    expect([last.tag, last.displaced, last.line]).toEqual(['agent_message_chunk', true, events[i]!.line + 1]);
  }
});

test('what happened in prompt 3, in order, and what was rewound', async () => {
  const events = jsonl((await cli(['timeline', main('clean'), '--format', 'jsonl', '--prompt', '3'])).stdout);
  const rewound = events.filter((e) => e.rewound);
  const live = events.filter((e) => !e.rewound);
  expect(rewound[0]).toMatchObject({ kind: 'user_prompt', text: 'Rename add to checked_add everywhere.' });
  expect(rewound.map((e) => e.kind)).toContain('turn_completed');
  expect(live[0]).toMatchObject({ kind: 'user_prompt', text: 'Make add() saturate instead of renaming it.' });
  // Emission order: ascending event-id counters (file order differs where a pending ACP line was written late).
  const counters = events.map((e) => e.counter!);
  expect(counters).toEqual([...counters].sort((a, b) => a - b));
});

describe('filters and formats', () => {
  test('--kind, --since/--until', async () => {
    const tools = jsonl((await cli(['timeline', main('clean'), '--format', 'jsonl', '--kind', 'tool_call'])).stdout);
    expect(tools.length).toBeGreaterThan(3);
    expect(new Set(tools.map((e) => e.kind))).toEqual(new Set(['tool_call']));
    const window = jsonl(
      (
        await cli([
          'timeline',
          main('clean'),
          '--format',
          'jsonl',
          '--since',
          '2026-08-19T09:30:05Z',
          '--until',
          '2026-08-19T09:30:07Z',
        ])
      ).stdout,
    );
    expect(
      window.every(
        (e) => e.timeMs! >= Date.parse('2026-08-19T09:30:05Z') && e.timeMs! <= Date.parse('2026-08-19T09:30:07Z'),
      ),
    ).toBe(true);
    expect(window.length).toBeGreaterThan(0);
  });

  test('--live: only what the model saw', async () => {
    const live = jsonl((await cli(['timeline', main('clean'), '--format', 'jsonl', '--live'])).stdout);
    expect(live.some((e) => e.rewound || e.compacted)).toBe(false);
    expect(live.map((e) => e.kind)).not.toContain('turn_completed');
    expect(live.find((e) => e.kind === 'user_prompt')!.text).toBe('Run the whole test suite.');
  });

  test('the table truncates long content, jsonl never does', async () => {
    const table = (await cli(['timeline', main('clean'), '--kind', 'tool_update'], { columns: 80 })).stdout;
    expect(table).toMatch(/…/);
    const full = jsonl((await cli(['timeline', main('clean'), '--format', 'jsonl', '--kind', 'tool_update'])).stdout);
    expect(full.some((e) => e.text.includes('pub fn add(a: i64, b: i64) -> i64 {\n    a - b\n}\n'))).toBe(true);
  });

  test('csv and timesketch', async () => {
    const csv = (await cli(['timeline', main('clean'), '--format', 'csv'])).stdout.split('\r\n');
    expect(csv[0]).toMatch(/^session,depth,parent,file,line,/);
    const ts = (await cli(['timeline', main('clean'), '--format', 'timesketch'])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const e of ts) {
      expect(typeof e.message).toBe('string');
      expect(e.datetime).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(typeof e.timestamp_desc).toBe('string');
    }
  });

  test('bad filters are one-line usage errors', async () => {
    for (const args of [
      ['--kind', 'nope'],
      ['--since', 'yesterday'],
      ['--prompt', '-1'],
    ]) {
      const r = await cli(['timeline', main('clean'), ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
