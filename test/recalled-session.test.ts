/**
 * `timeline --id` and `transcript --id`: a session picked by its id (or a unique prefix) in a tree or an agent's
 * home; one whose log is gone but that the home's prompt history knows gives the prompts the history holds, each
 * marked as recalled, and says that nothing else of it is known. Nothing in the home is written.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { TranscriptEntry } from '../src/model/transcript.js';
import type { TimelineEvent } from '../src/timeline/model.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';
import { diffStates, treeState } from './helpers/tree-hash.js';

const CODEX = join(CORPORA, 'codex', 'home-history-gone');
const GONE = '019cb100-0000-7000-8000-00000000c0bb';
const LIVE = '019cb100-0000-7000-8000-00000000c001';
const CLAUDE = join(CORPORA, 'claude', 'home-history-gone');

const jsonl = <T>(s: string): T[] =>
  s
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);

describe('a session whose log is gone, picked by its id', () => {
  test('timeline: the prompts its history holds, in order, each marked as recalled from that file', async () => {
    const before = treeState(CODEX);
    const r = await cli(['timeline', CODEX, '--id', GONE, '--format', 'jsonl']);
    expect(r.code).toBe(0);
    const events = jsonl<TimelineEvent>(r.stdout);
    expect(events.map((e) => [e.kind, e.promptIndex, e.file, e.text])).toEqual([
      ['user_prompt', 0, 'history.jsonl', 'Rotate the deploy key and push.'],
      ['user_prompt', 1, 'history.jsonl', 'Now tag the release.'],
    ]);
    for (const e of events) {
      expect(e.recalled).toBe(join(CODEX, '.codex', 'history.jsonl'));
      expect(e.summary).toMatch(/^recalled from history\.jsonl: /);
      expect(e.time).toMatch(/^2026-03-04T08:0[05]:00\.000Z$/);
    }
    expect(diffStates(before, treeState(CODEX))).toEqual([]);
  });

  test('transcript: a notice that only the prompts are known, then the prompts, with their file and line', async () => {
    const r = await cli(['transcript', CODEX, '--id', GONE.slice(0, 35), '--format', 'jsonl']);
    expect(r.code).toBe(0);
    const entries = jsonl<TranscriptEntry>(r.stdout);
    expect(entries.map((e) => e.type)).toEqual(['session', 'notice', 'prompt', 'prompt']);
    const notice = entries[1] as { text: string };
    expect(notice.text).toContain('history.jsonl still holds of it (2 prompts)');
    expect(notice.text).toContain(
      "The agent's replies, its tool calls and their results are not shown: they were in the log.",
    );
    expect(entries[2]!.at).toMatchObject({ line: 9, time: '2026-03-04T08:00:00.000Z' });
    const md = await cli(['transcript', CODEX, '--id', GONE, '--format', 'markdown']);
    expect(md.stdout).toContain('\\(2 prompts\\), recalled from the agent');
    const html = await cli(['transcript', CODEX, '--id', GONE, '--format', 'html']);
    expect(html.stdout).toContain('(recalled: its log is gone)');
  });

  test('a Claude Code session gone from projects/ is recalled from ~/.claude/history.jsonl', async () => {
    const sessions = JSON.parse((await cli(['sessions', CLAUDE, '--format', 'json'])).stdout) as {
      sessions: Array<{ id: string; gone?: string }>;
    };
    const gone = sessions.sessions.filter((s) => s.gone !== undefined).map((s) => s.id);
    expect(gone.length).toBeGreaterThan(0);
    for (const id of gone) {
      const r = await cli(['timeline', CLAUDE, '--id', id, '--format', 'json']);
      expect(r.code).toBe(0);
      const events = JSON.parse(r.stdout) as TimelineEvent[];
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.recalled?.endsWith('.claude/history.jsonl'))).toBe(true);
    }
  });
});

test('a Grok session gone from sessions/ is recalled from its search row: title, first prompt, the rest', async () => {
  const grok = join(CORPORA, 'grok', 'home-search-gone');
  const r = await cli(['timeline', grok, '--id', '019a3000-0000-7000-8000-00000000b001', '--format', 'jsonl']);
  expect(r.code).toBe(0);
  const events = jsonl<TimelineEvent>(r.stdout);
  expect(events.map((e) => [e.kind, e.file])).toEqual([
    ['notice', 'sessions/session_search.sqlite'],
    ['user_prompt', 'sessions/session_search.sqlite'],
    ['notice', 'sessions/session_search.sqlite'],
  ]);
  expect(events[0]!.text).toContain('title "Bump the lockfile"');
  expect(events[1]!.text).toBe('Bump the lockfile.');
  // The replies and tool paths the row indexes after the prompts.
  expect(events[2]!.text).toBe('Done: the change is in place.\n\nRead src/lib.rs');
  // The transcript shows that text as the file kept it, line by line, and says a note quotes it.
  const t = await cli(['transcript', grok, '--id', '019a3000-0000-7000-8000-00000000b001'], { columns: 200 });
  expect(t.code).toBe(0);
  expect(t.stdout).toContain('a note quotes what a file kept beside the prompts');
  expect(t.stdout).toMatch(/recorded in sessions\/session_search\.sqlite: .*\n {2}Done: the change is in place\.\n/);
  expect(t.stdout).not.toContain('\\n');
});

describe('--id picks a session whose log is in the tree, and says why it cannot pick one', () => {
  test('a live session by its id is its own timeline, read from its log', async () => {
    const r = await cli(['timeline', CODEX, '--id', LIVE, '--format', 'jsonl']);
    expect(r.code).toBe(0);
    const events = jsonl<TimelineEvent>(r.stdout);
    expect(events.length).toBeGreaterThan(2);
    expect(events.every((e) => e.recalled === undefined && e.session === LIVE)).toBe(true);
  });

  test('a prefix several sessions start with, an unknown id and a short one are one-line errors', async () => {
    const several = await cli(['timeline', CODEX, '--id', '019cb100']);
    expect(several.code).toBe(2);
    expect(several.stderr).toMatch(/6 sessions match --id "019cb100": give a longer prefix/);
    expect(several.stderr).toMatch(/, and 1 more$/m);
    const none = await cli(['transcript', CODEX, '--id', 'ffffffff']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no session "ffffffff"/);
    const short = await cli(['timeline', CODEX, '--id', '019']);
    expect(short.stderr).toMatch(/at least 4 characters/);
    for (const r of [several, none, short]) expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
