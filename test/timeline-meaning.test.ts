/**
 * Each agent's events mean what they mean for that agent (issue 31.4): Pi's compactions cut the timeline where Pi
 * keeps from, Codex's doubled records are one prompt, one reply, one reasoning each, Claude's "[Request interrupted
 * by user]" is a message that ends the turn (not a turn_completed), the flags' legend is the agent's own, and a
 * timeline of several files says which file each line number is in.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { InspectReport } from '../src/inspect/report.js';
import type { TimelineEvent } from '../src/timeline/model.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const EXTERNAL = fileURLToPath(new URL('../../shared/external', import.meta.url));

const timeline = async (path: string, ...args: string[]): Promise<TimelineEvent[]> => {
  const r = await cli(['timeline', path, '--format', 'jsonl', ...args]);
  expect(r.stderr).toBe('');
  return r.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TimelineEvent);
};
const inspect = async (path: string): Promise<InspectReport> =>
  JSON.parse((await cli(['inspect', path, '--format', 'json', '--fail-on', 'never'])).stdout) as InspectReport;
const only = (dir: string): string => join(dir, readdirSync(dir).sort()[0]!);

const PI_CLEAN = only(join(CORPORA, 'pi', 'clean', 'sessions', '--home-dev-app--'));
const PI_V1 = only(join(CORPORA, 'pi', 'version-old', 'sessions', '--home-dev-app--'));
const CODEX_CLEAN = only(join(CORPORA, 'codex', 'clean', 'sessions', '2026', '03', '02'));

describe('Pi: a compaction is the cut, and it keeps from its first kept entry', () => {
  test('v3 (firstKeptEntryId): what comes before the kept entry is compacted, the kept entries are not', async () => {
    const events = await timeline(PI_CLEAN);
    const cut = events.find((e) => e.tag === 'compaction')!;
    expect(cut.kind).toBe('compaction_checkpoint');
    // The compaction on line 25 keeps from entry 01000016, line 23 (the prompt "Summarise what changed.").
    expect(events.filter((e) => e.compacted).map((e) => e.line)).toEqual(
      events.filter((e) => e.line < 23).map((e) => e.line),
    );
    const live = await timeline(PI_CLEAN, '--live');
    expect(live.map((e) => e.line).filter((l) => l < 23)).toEqual([]);
    expect(live.map((e) => e.line)).toContain(23);
    expect((await inspect(PI_CLEAN)).replay.compactions).toBe(1);
  });
  test('v1 (firstKeptEntryIndex, the header being entry 0)', async () => {
    const events = await timeline(PI_V1);
    const cut = events.find((e) => e.kind === 'compaction_checkpoint');
    expect(cut).toBeDefined();
    const firstKept = Math.min(...events.filter((e) => !e.compacted && e.line < cut!.line).map((e) => e.line));
    expect(events.filter((e) => e.line < firstKept).every((e) => e.compacted)).toBe(true);
  });
  test('the final answer of a turn is the model talking (it also ends the turn)', async () => {
    const events = await timeline(PI_CLEAN);
    const answer = events.find((e) => e.summary.startsWith('parse() returns Option<u32>'))!;
    expect(answer.kind).toBe('model_text');
    expect(answer.endsTurn).toBe(true);
    expect((await timeline(PI_CLEAN, '--live')).map((e) => e.line)).toContain(answer.line);
  });
  test.skipIf(!existsSync(join(EXTERNAL, 'pi')))(
    'the real before-compaction.jsonl: --live starts at line 552',
    async () => {
      const f = join(EXTERNAL, 'pi', 'before-compaction.jsonl');
      const live = await timeline(f, '--live');
      // The last compaction (line 629) has firstKeptEntryIndex 551: entry 551 is line 552.
      expect(live[0]!.line).toBe(552);
      expect(live.filter((e) => e.kind === 'compaction_checkpoint').map((e) => e.line)).toEqual([629]);
      expect((await inspect(f)).replay.compactions).toBe(2);
    },
  );
});

describe('Codex: each prompt, reply and reasoning once, though Codex writes each twice', () => {
  const check = async (path: string): Promise<void> => {
    const events = await timeline(path);
    const prompts = events.filter((e) => e.kind === 'user_prompt');
    // One user_prompt per prompt turn, the event that opens it; the user-role response items are the model's input.
    expect(prompts.length).toBe(new Set(events.map((e) => e.promptIndex).filter((p) => p !== undefined)).size);
    expect(prompts.every((e) => e.tag === 'event_msg/user_message')).toBe(true);
    for (const kind of ['model_text', 'thought'] as const) {
      const rows = events.filter((e) => e.kind === kind);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((e) => e.tag.startsWith('response_item/'))).toBe(true);
    }
  };
  test('the clean corpus', async () => {
    await check(CODEX_CLEAN);
    const rep = await inspect(CODEX_CLEAN);
    const prompts = (await timeline(CODEX_CLEAN)).filter((e) => e.kind === 'user_prompt' && !e.rewound);
    expect(prompts.length).toBe(rep.replay.liveTurns);
  });
  test("a rolled-back prompt's response item leaves the live branch with its turn", async () => {
    const events = await timeline(CODEX_CLEAN);
    const rolled = events.filter((e) => e.kind === 'user_prompt' && e.rewound);
    expect(rolled.length).toBeGreaterThan(0);
    for (const p of rolled) {
      const copy = events.find((e) => e.line === p.line - 1)!;
      expect([copy.tag, copy.rewound]).toEqual(['response_item/message', true]);
    }
  });
  test.skipIf(!existsSync(join(EXTERNAL, 'codex')))(
    'the real rollouts: a one-turn session shows one prompt',
    async () => {
      const dir = join(EXTERNAL, 'codex');
      for (const name of readdirSync(dir)) {
        await check(join(dir, name));
        const prompts = (await timeline(join(dir, name))).filter((e) => e.kind === 'user_prompt');
        expect([name, prompts.length]).toEqual([name, (await inspect(join(dir, name))).replay.liveTurns]);
      }
    },
  );
});

describe('Claude: "[Request interrupted by user]" is a message that ends the turn, not a turn_completed', () => {
  const file = only(join(CORPORA, 'claude', 'interrupted-by-user', 'projects', '-home-dev-app'));
  test('the corpus case shaped like the real transcripts', async () => {
    const events = await timeline(file);
    const stop = events.find((e) => e.summary === '[Request interrupted by user]')!;
    expect([stop.kind, stop.endsTurn]).toEqual(['notice', true]);
    // The model sees it on the next request: --live keeps it.
    expect((await timeline(file, '--live')).map((e) => e.line)).toContain(stop.line);
    expect(events.filter((e) => e.kind === 'turn_completed').map((e) => e.tag)).not.toContain('user');
    const rep = await inspect(file);
    expect(rep.state).toBe('cancelled');
    expect(rep.lastTurn?.end).toMatchObject({ line: stop.line, stopReason: 'cancelled' });
  });
  test.skipIf(!existsSync(join(EXTERNAL, 'claude')))('the real tool_heavy.jsonl', async () => {
    const events = await timeline(join(EXTERNAL, 'claude', 'tool_heavy.jsonl'));
    expect(events.filter((e) => e.summary === '[Request interrupted by user]').map((e) => [e.line, e.kind])).toEqual([
      [18, 'notice'],
      [39, 'notice'],
    ]);
  });
});

describe("the flags' legend is the agent's", () => {
  test('no ACP line on an agent that writes in order; Grok keeps its L', async () => {
    const codex = (await cli(['timeline', CODEX_CLEAN], { columns: 120 })).stdout;
    expect(codex).toContain('flags: R rewound');
    expect(codex).not.toMatch(/ACP|\bL written late/);
    const grok = join(
      CORPORA,
      'grok',
      'clean',
      'sessions',
      '%2Fhome%2Fdev%2Fproj',
      '019a3f2c-1d00-7a3e-8000-00000000a001',
    );
    const g = (await cli(['timeline', grok], { columns: 200 })).stdout;
    expect(g).toContain('L an ACP line written after xAI lines');
  });
});

describe('a timeline of several files names the file of each line', () => {
  test('a Claude session folder of two sub-agent transcripts: each file heads its rows', async () => {
    const dir = join(CORPORA, 'claude', 'subagents-only', 'projects', '-home-dev-app');
    const session = join(dir, readdirSync(dir)[0]!);
    const out = (await cli(['timeline', session], { columns: 120 })).stdout;
    const heads = out.split('\n').filter((l) => l.startsWith('── '));
    expect(heads.map((h) => h.replace(/^── |.*\//g, '').replace(/ ──$/, ''))).toEqual([
      'agent-a1b2c3d.jsonl',
      'agent-acompact-3f9e2a.jsonl',
    ]);
    expect(out).toContain('line: the line in the file named above the row');
    // One file: no heading.
    expect((await cli(['timeline', CODEX_CLEAN], { columns: 120 })).stdout).not.toMatch(/^── /m);
  });
});
