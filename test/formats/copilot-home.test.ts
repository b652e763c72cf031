/**
 * Copilot CLI's session-store.db as a file of its home (formats/copilot-cli.md §1.7): the clean home (a row for
 * every session) has no home finding and no gone session; a copied clean home with sessions deleted lists exactly
 * the deleted ones as gone, with the store as their source, none invented, the store's own note naming the same;
 * `timeline` and `transcript --id` of a gone session give its turns (prompts and the agent's replies, recalled);
 * `search` finds them; a key in a turn is SECRET_IN_HOME; an unreadable store is only the store's own finding; a
 * store outside any home is audited as before; nothing in the home changes (fingerprints before and after).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Files } from '../../scripts/corpora/case-kit.js';
import { copilotHomeCases } from '../../scripts/corpora/cases-copilot-home.js';
import {
  COPILOT_CWD,
  COPILOT_IDS,
  COPILOT_T0,
  copilotCleanTree,
  copilotTreeWithRows,
} from '../../scripts/corpora/cases-copilot.js';
import { CopilotLog, type StoreSession } from '../../scripts/corpora/copilot-builder.js';
import { PLANTED } from '../../scripts/corpora/secrets.js';
import type { SearchHit } from '../../src/engine/index/search.js';
import type { SessionRow } from '../../src/model/session-row.js';
import type { TimelineEvent } from '../../src/timeline/model.js';
import { cli } from '../helpers/cli.js';
import { auditCase, auditFiles, auditHome, caseNamed, sessionNamed, writeFiles } from '../helpers/home-cases.js';
import { treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'copilot-home-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const KEY = PLANTED['api-key']!;
const STORE = 'session-store.db';
const mine = (c: string) => c.startsWith('COPILOT_STORE_') || c === 'SECRET_IN_HOME';
const inHome = (files: Files): Files => new Map([...files].map(([p, c]) => [`.copilot/${p}`, c]));

async function sessionsOf(dir: string): Promise<SessionRow[]> {
  const r = await cli(['sessions', dir, '--format', 'json']);
  expect(r.stderr).toBe('');
  const rows = JSON.parse(r.stdout) as { sessions?: SessionRow[] } | SessionRow[];
  return Array.isArray(rows) ? rows : (rows.sessions ?? []);
}

async function timelineOf(dir: string, id: string): Promise<TimelineEvent[]> {
  const r = await cli(['timeline', dir, '--id', id, '--format', 'jsonl']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TimelineEvent);
}

describe('the corpora cases', () => {
  // The home's own findings (SECRET_IN_HOME: the home check declares no code), then every code the case must give.
  const onHome = (c: string) => c === 'SECRET_IN_HOME';
  for (const c of copilotHomeCases())
    test(c.name, async () => {
      const dir = join(tmp, 'cases', c.name);
      const homeCase = { ...c, must: c.must.filter(onHome) };
      const { report } = await auditCase(dir, homeCase, onHome, c.name === 'home-clean');
      expect([...new Set(report.findings.map((f) => f.code))].filter(mine).sort()).toEqual([...c.must].sort());
      expect(report.sessions.filter((s) => s.kind === 'home').map((s) => s.path)).toEqual([join(dir, '.copilot')]);
    });

  test('home-store-gone: the key is reported at the store, of the gone session, never shown', async () => {
    const c = caseNamed(copilotHomeCases(), 'home-store-gone');
    const dir = join(tmp, 'secret');
    const { home, raw } = await auditFiles(dir, c.files);
    expect(home.map((f) => [f.code, f.location.file])).toEqual([['SECRET_IN_HOME', STORE]]);
    expect(home[0]!.message).toContain(`a prompt of session ${COPILOT_IDS.gone}`);
    expect(home[0]!.message).toContain("the session's log is gone from this home");
    expect(raw).not.toContain(KEY);
    const gone = (await sessionsOf(dir)).filter((s) => s.gone);
    expect(gone.map((g) => [g.id, g.gone, g.prompts, g.project])).toEqual([
      [COPILOT_IDS.gone, join(dir, '.copilot', STORE), 2, COPILOT_CWD],
    ]);
  });
});

/** A third session in the flat layout (G1), in the store with its one turn. */
function flatSession(): { id: string; log: string; row: StoreSession } {
  const id = '7e3f1a20-5c4b-4d3e-8f2a-0b1c2d3e4f50';
  const s = new CopilotLog(id, COPILOT_CWD, COPILOT_T0 + 3 * 86_400_000, 0x5b31);
  s.start();
  s.wait(2_000).user('Rename the crate.');
  s.reply('0', 'Renamed.');
  s.shutdown();
  const at = new Date(COPILOT_T0 + 3 * 86_400_000).toISOString();
  return {
    id,
    log: s.render(),
    row: { id, cwd: COPILOT_CWD, turns: 1, at, texts: [['Rename the crate.', 'Renamed.']] },
  };
}

describe('a copied clean home with sessions deleted', () => {
  const flat = flatSession();
  const clean = join(tmp, 'clean');
  const files = inHome(copilotTreeWithRows([flat.row]));
  files.set(`.copilot/session-state/${flat.id}.jsonl`, flat.log);
  writeFiles(clean, files);
  const dir = join(tmp, 'deleted');
  const deleted = [COPILOT_IDS.main, flat.id];
  let before: Map<string, string>;

  test('the clean home: no home finding, no store finding, no session gone', async () => {
    const { report, home } = await auditHome(clean);
    expect(home).toEqual([]);
    expect(report.findings.filter((f) => mine(f.code))).toEqual([]);
    expect((await sessionsOf(clean)).filter((s) => s.gone)).toEqual([]);
  });

  test('every deleted session is listed gone with the store as its source, none invented', async () => {
    cpSync(clean, dir, { recursive: true });
    rmSync(join(dir, '.copilot', 'session-state', COPILOT_IDS.main), { recursive: true });
    rmSync(join(dir, '.copilot', 'session-state', `${flat.id}.jsonl`));
    before = treeState(dir);
    const rows = await sessionsOf(dir);
    const gone = rows.filter((s) => s.gone);
    expect(gone.map((g) => g.id).sort()).toEqual([...deleted].sort());
    for (const g of gone) {
      expect(g.gone).toBe(join(dir, '.copilot', STORE));
      expect(g.project).toBe(COPILOT_CWD);
    }
    // The store holds two turns of the main session (the second in its -wal), one of the flat one.
    expect(gone.find((g) => g.id === COPILOT_IDS.main)!.prompts).toBe(2);
    expect(gone.find((g) => g.id === flat.id)!.prompts).toBe(1);
    expect(rows.some((s) => s.id === COPILOT_IDS.second && !s.gone)).toBe(true);
  });

  test("the store's own note names the same sessions; the home has no finding of its own", async () => {
    const { report, home } = await auditHome(dir);
    expect(home).toEqual([]);
    const notes = report.findings.filter((f) => f.code === 'COPILOT_STORE_SESSION_GONE');
    expect(notes.map((f) => sessionNamed(f)).sort()).toEqual([...deleted].sort());
    expect(report.toolErrors ?? []).toEqual([]);
  });

  test('timeline --id of a gone session gives its turns in order, prompts and replies, recalled', async () => {
    const events = await timelineOf(dir, COPILOT_IDS.main);
    expect(events.map((e) => [e.kind, e.text, e.promptIndex])).toEqual([
      ['notice', 'Fix the parser', undefined],
      ['user_prompt', 'prompt 0', 0],
      ['model_text', 'reply 0', 0],
      ['user_prompt', 'prompt 1', 1],
      ['model_text', 'reply 1', 1],
    ]);
    for (const e of events) {
      expect(e.recalled).toBe(join(dir, '.copilot', STORE));
      expect(e.file).toBe(STORE);
      expect(e.rail).toBe('recalled');
    }
    const flatEvents = await timelineOf(dir, flat.id.slice(0, 8));
    expect(flatEvents.map((e) => e.text)).toEqual(['Fix the parser', 'Rename the crate.', 'Renamed.']);
  });

  test('transcript --id shows the replies as the agent, and says what is not known', async () => {
    const r = await cli(['transcript', dir, '--id', COPILOT_IDS.main, '--format', 'jsonl']);
    expect(r.stderr).toBe('');
    const entries = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; text?: string });
    expect(entries.map((e) => e.type)).toEqual(['session', 'notice', 'notice', 'prompt', 'reply', 'prompt', 'reply']);
    expect(entries[1]!.text).toContain(`${STORE} still holds of it (2 prompts, 2 replies)`);
    expect(entries[1]!.text).toContain("The agent's tool calls and their results are not shown");
    const md = await cli(['transcript', dir, '--id', COPILOT_IDS.main]);
    expect(md.stdout).toContain('reply 1');
  });

  test('read-only: every file is unchanged', () => {
    expect(treeState(dir)).toEqual(before);
  });

  test('archive then search finds the text of a gone session in the store, as home:copilot', async () => {
    const store = join(tmp, 'store');
    const a = await cli(['archive', join(dir, '.copilot'), '--store', store]);
    expect(a.code).toBe(0);
    expect(a.stdout).not.toContain('not indexed');
    const r = await cli(['search', '--store', store, '"Rename the crate"', '--format', 'json']);
    const hits = (JSON.parse(r.stdout) as { hits: SearchHit[] }).hits;
    expect(hits.map((h) => [h.session, h.kind, h.file])).toContainEqual(['home:copilot', 'user_prompt', STORE]);
    expect(treeState(dir)).toEqual(before);
  });
});

test("a key in the agent's reply of a live session: SECRET_IN_HOME says the store keeps it", async () => {
  const at = new Date(COPILOT_T0).toISOString();
  const files = inHome(copilotCleanTree());
  const dir = join(tmp, 'reply-key');
  writeFiles(dir, files);
  // The second session's one turn, rewritten with a key in its reply (one turn, as its log has).
  const { storeDb } = await import('../../scripts/corpora/copilot-builder.js');
  const rows: StoreSession[] = [
    { id: COPILOT_IDS.main, cwd: COPILOT_CWD, turns: 2, at },
    { id: COPILOT_IDS.second, cwd: COPILOT_CWD, turns: 1, at, texts: [['What is it?', `Set API_KEY=${KEY}`]] },
  ];
  writeFileSync(join(dir, '.copilot', STORE), storeDb(rows));
  rmSync(join(dir, '.copilot', `${STORE}-wal`));
  const { home, raw } = await auditHome(dir);
  expect(home.map((f) => f.code)).toEqual(['SECRET_IN_HOME']);
  expect(home[0]!.message).toContain(`in the agent's reply of session ${COPILOT_IDS.second}`);
  expect(home[0]!.message).toContain("the file keeps it when the session's log is deleted");
  expect(raw).not.toContain(KEY);
});

test("an unreadable store: the store's own finding only, nothing gone, no tool error", async () => {
  const files = inHome(copilotTreeWithRows([{ id: COPILOT_IDS.gone, cwd: COPILOT_CWD, turns: 1, at: '' }]));
  const db = files.get(`.copilot/${STORE}`) as Buffer;
  files.set(`.copilot/${STORE}`, db.subarray(0, 100));
  files.delete(`.copilot/${STORE}-wal`);
  const dir = join(tmp, 'unreadable');
  const { report, home } = await auditFiles(dir, files);
  expect(report.toolErrors ?? []).toEqual([]);
  expect(home).toEqual([]);
  expect(report.findings.filter((f) => mine(f.code)).map((f) => f.code)).toEqual(['COPILOT_STORE_UNREADABLE']);
  expect((await sessionsOf(dir)).filter((s) => s.gone)).toEqual([]);
});

test('a store outside any home (a plain folder of the files) is audited as before, with no home entry', async () => {
  const c = caseNamed(copilotHomeCases(), 'home-store-gone');
  const dir = join(tmp, 'plain');
  writeFiles(dir, new Map([...c.files].map(([p, x]) => [p.replace(/^\.copilot\//, ''), x])));
  const { report } = await auditHome(dir);
  expect(report.sessions.filter((s) => s.kind === 'home')).toEqual([]);
  expect(report.findings.filter((f) => mine(f.code)).map((f) => [f.code, sessionNamed(f)])).toEqual([
    ['COPILOT_STORE_SESSION_GONE', COPILOT_IDS.gone],
  ]);
});

test('the early XDG home, .config/copilot, is a home too', async () => {
  const c = caseNamed(copilotHomeCases(), 'home-store-gone');
  const dir = join(tmp, 'xdg');
  writeFiles(dir, new Map([...c.files].map(([p, x]) => [p.replace(/^\.copilot\//, '.config/copilot/'), x])));
  const { home } = await auditHome(dir);
  expect(home.map((f) => f.code)).toEqual(['SECRET_IN_HOME']);
  expect((await sessionsOf(dir)).filter((s) => s.gone).map((s) => s.id)).toEqual([COPILOT_IDS.gone]);
});

test("times as SQLite's datetime('now') writes them bound the gone session in UTC", async () => {
  const at = '2026-06-10 09:00:00';
  const files = inHome(copilotTreeWithRows([{ id: COPILOT_IDS.gone, cwd: COPILOT_CWD, turns: 1, at }]));
  const dir = join(tmp, 'sqlite-times');
  writeFiles(dir, files);
  const gone = (await sessionsOf(dir)).filter((s) => s.gone);
  expect(gone.map((g) => [g.id, g.started, g.ended])).toEqual([
    [COPILOT_IDS.gone, '2026-06-10T09:00:00.000Z', '2026-06-10T09:00:00.000Z'],
  ]);
  const events = await timelineOf(dir, COPILOT_IDS.gone);
  expect(events.map((e) => [e.kind, e.time])).toEqual([
    ['notice', '2026-06-10T09:00:00.000Z'],
    ['user_prompt', '2026-06-10T09:00:00.000Z'],
    ['model_text', '2026-06-10T09:00:00.000Z'],
  ]);
});

test('a turn recalled from the store names its database row, and the timeline table says it has no line', async () => {
  const dir = join(tmp, 'rows-named');
  writeFiles(
    dir,
    inHome(copilotTreeWithRows([{ id: COPILOT_IDS.gone, cwd: COPILOT_CWD, turns: 1, at: '2026-06-10T09:00:00Z' }])),
  );
  const events = await timelineOf(dir, COPILOT_IDS.gone);
  expect(events.map((e) => e.row)).toEqual([
    `sessions row ${COPILOT_IDS.gone}`,
    `turns row ${COPILOT_IDS.gone} turn 0`,
    `turns row ${COPILOT_IDS.gone} turn 0`,
  ]);
  const table = await cli(['timeline', dir, '--id', COPILOT_IDS.gone], { columns: 120 });
  expect(table.stdout).toMatch(/user_prompt +row /);
  expect(table.stdout).not.toMatch(/user_prompt +1 /);
  expect(table.stdout).toContain('row: recalled from a database, which has no lines');
});
