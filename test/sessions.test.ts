/**
 * `sessions`: a fake home holding every agent's clean case under its dot-directory lists every session with its
 * agent (the sessions `audit` finds, with the same finding counts), sorted by start; the filters; CSV quoting and
 * its guard against formula injection; the table at 80 columns; the default roots from $HOME; real files from
 * /work/shared/external (prompt counts against a count read from the file itself).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../src/model/report.js';
import type { SessionRow } from '../src/model/session-row.js';
import { csvField } from '../src/report/sessions-csv.js';
import { displayWidth } from '../src/report/width.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const EXTERNAL = [
  join(CORPORA, '..', '..', 'shared', 'external'),
  join(CORPORA, '..', '..', '..', 'shared', 'external'),
]
  .concat('/work/shared/external')
  .find((p) => existsSync(p));

let home = '';
let empty = '';

/** corpora/<agent>/clean/<from> → <home>/<to>, as each agent keeps its sessions. */
const LAYOUT: Array<[agent: string, from: string, to: string]> = [
  ['grok', 'sessions', '.grok/sessions'],
  ['codex', 'sessions', '.codex/sessions'],
  ['codex', 'archived_sessions', '.codex/archived_sessions'],
  ['claude', 'projects', '.claude/projects'],
  ['pi', 'sessions', '.pi/agent/sessions'],
  ['hermes', '', '.hermes'],
];

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'sa-sessions-'));
  empty = mkdtempSync(join(tmpdir(), 'sa-sessions-empty-'));
  for (const [agent, from, to] of LAYOUT) {
    mkdirSync(join(home, to, '..'), { recursive: true });
    cpSync(join(CORPORA, agent, 'clean', from), join(home, to), {
      recursive: true,
      filter: (src) => !src.endsWith('expected.json'),
    });
  }
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(empty, { recursive: true, force: true });
});

async function list(args: string[]): Promise<SessionRow[]> {
  const r = await cli(['sessions', ...args, '--format', 'json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { sessions: SessionRow[] }).sessions;
}

describe('sessions of a home of every agent', () => {
  test('every session audit finds, with its agent and the same findings, sorted by start', async () => {
    const rows = await list([home]);
    const audit = await cli(['audit', home, '--format', 'json', '--fail-on', 'never']);
    const report = JSON.parse(audit.stdout) as AuditReport;
    const key = (path: string, id: string, agent: string): string => `${path} ${id} ${agent}`;
    // An agent home's own files (Grok's prompt history here) are an entry of the report, not a session.
    const sessions = report.sessions.filter((s) => s.kind !== 'home');
    expect(report.sessions.length - sessions.length).toBe(1);
    expect(rows.map((r) => key(r.path, r.id, r.agent)).sort()).toEqual(
      sessions.map((s) => key(s.path, s.id, s.format)).sort(),
    );
    expect(new Set(rows.map((r) => r.agent))).toEqual(new Set(['grok', 'codex', 'claude', 'pi', 'hermes']));
    for (const s of sessions) expect(rows.find((r) => r.path === s.path)!.findings).toEqual(s.findings);
    const started = rows.map((r) => r.started);
    expect(started.every((t) => t !== null)).toBe(true);
    expect([...started].sort()).toEqual(started);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual([
        'id',
        'agent',
        'path',
        'project',
        'started',
        'ended',
        'prompts',
        'toolCalls',
        'failedCalls',
        'worst',
        'findings',
      ]);
      expect(r.ended! >= r.started!).toBe(true);
      expect(r.prompts).toBeGreaterThan(0);
      if (r.agent !== 'hermes') expect(r.project).toMatch(/^\/home\/dev\//);
      expect(r.failedCalls).toBe(0);
    }
    // What the clean cases hold: the Claude case's first session, and the Codex case's first rollout.
    const claude = rows.find((r) => r.id === '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01')!;
    expect(claude).toMatchObject({ agent: 'claude', project: '/home/dev/app', prompts: 6, toolCalls: 8 });
    expect(claude.started).toBe('2026-03-10T14:00:00.000Z');
    const codex = rows.find((r) => r.id === '019cb100-0000-7000-8000-00000000c001')!;
    expect(codex).toMatchObject({ agent: 'codex', prompts: 3, toolCalls: 6 });
    // Hermes keeps its times in state.db: the home's first start and last end.
    expect(rows.find((r) => r.agent === 'hermes')!.started).toMatch(/^2026-05-12T/);
  });

  test('a failed, interrupted or unanswered call is counted, and the worst finding named', async () => {
    const rows = await list([join(CORPORA, 'grok', 'tool-interrupted-call')]);
    expect(rows.length).toBeGreaterThan(0);
    const bad = rows.find((r) => r.failedCalls > 0)!;
    expect(bad.failedCalls).toBeLessThanOrEqual(bad.toolCalls);
    expect(bad.worst).not.toBeNull();
    const order = { error: 0, warning: 1, note: 2 } as const;
    const worst = Object.entries(bad.findings).find(([, n]) => n > 0)![0] as keyof typeof order;
    expect(bad.worst!.severity).toBe(worst);
  });

  test('filters: --agent, --project, --since, --until', async () => {
    const all = await list([home]);
    expect((await list([home, '--agent', 'codex'])).map((r) => r.agent)).toEqual(
      all.filter((r) => r.agent === 'codex').map((r) => r.agent),
    );
    const two = await list([home, '--agent', 'grok', '--agent', 'pi']);
    expect(new Set(two.map((r) => r.agent))).toEqual(new Set(['grok', 'pi']));
    expect(await list([home, '--agent', 'grok,pi'])).toEqual(two);
    // An absolute path: that directory or inside it, never a sibling that shares its prefix.
    const app = await list([home, '--project', '/home/dev/app']);
    expect(app.length).toBe(all.filter((r) => r.project === '/home/dev/app').length);
    expect(await list([home, '--project', '/home/dev/ap'])).toEqual([]);
    expect((await list([home, '--project', '/home/dev'])).length).toBe(all.filter((r) => r.project).length);
    // Anything else: a substring.
    expect(new Set((await list([home, '--project', 'dev/pr'])).map((r) => r.agent))).toEqual(new Set(['grok']));
    const march = await list([home, '--since', '2026-03-02', '--until', '2026-03-04']);
    expect(march.map((r) => r.id)).toEqual([
      '019cb100-0000-7000-8000-00000000c001',
      '019cb100-0000-7000-8000-00000000c002',
      '019cb100-0000-7000-8000-00000000c003',
      '019cb100-0000-7000-8000-00000000c004',
    ]);
    const tight = await list([home, '--since', '2026-03-02T09:30:00Z', '--until', '2026-03-02T10:00:00Z']);
    expect(tight.map((r) => r.id)).toEqual(['019cb100-0000-7000-8000-00000000c002']);
    for (const bad of [
      ['--agent', 'no-such-agent'],
      ['--since', 'yesterday'],
      ['--since', '2026-03-04', '--until', '2026-03-02'],
    ]) {
      const r = await cli(['sessions', home, ...bad]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const none = await cli(['sessions', empty]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no session found/);
    // A directory given with a trailing slash is the same directory, listed, not a race.
    const notes = mkdtempSync(join(tmpdir(), 'sa-sessions-notes-'));
    writeFileSync(join(notes, 'notes.txt'), 'x\n');
    for (const arg of [notes, `${notes}/`, `${notes}//`]) {
      const r = await cli(['audit', arg]);
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/it holds 1 file \(notes\.txt\)\n$/)]);
    }
    rmSync(notes, { recursive: true, force: true });
  });

  test('no path: the agents homes under $HOME that exist', async () => {
    const saved = process.env.HOME;
    try {
      process.env.HOME = home;
      const r = await cli(['sessions', '--format', 'json']);
      expect(r.code).toBe(0);
      const rows = (JSON.parse(r.stdout) as { sessions: SessionRow[] }).sessions;
      expect(rows.map((x) => `${x.agent} ${x.id}`).sort()).toEqual(
        (await list([home])).map((x) => `${x.agent} ${x.id}`).sort(),
      );
      process.env.HOME = empty;
      const none = await cli(['sessions']);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/no agent session home exists here/);
    } finally {
      process.env.HOME = saved;
    }
  });

  test('the table at 80 columns: no line wider, ids whole; a path alone may be wider, on its own line', async () => {
    const rows = await list([home]);
    const r = await cli(['sessions', home], { columns: 80 });
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const whole = new Set(rows.map((x) => x.path));
    for (const line of lines) if (!whole.has(line)) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    for (const x of rows) {
      expect(r.stdout).toContain(x.id);
      expect(lines).toContain(x.path);
    }
    expect(r.stdout).toMatch(/^13 sessions, sorted by start; times are UTC\.$/m);
    const wide = await cli(['sessions', home], { columns: 400 });
    // Wide enough: one line per session, under a header and its rule, then the summary lines.
    expect(
      wide.stdout.split('\n').filter((l) => rows.some((x) => l.includes(x.id) && l.endsWith(x.path))),
    ).toHaveLength(rows.length);
  });
});

describe('sessions --format csv', () => {
  test('RFC 4180 quoting, and cells a spreadsheet would run are prefixed with a quote', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('=HYPERLINK("x","y")')).toBe('"\'=HYPERLINK(""x"",""y"")"');
    expect(csvField(null)).toBe('');
    expect(csvField(7)).toBe('7');
  });

  test('a session whose working directory is a formula', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sa-sessions-csv-'));
    try {
      const src = join(CORPORA, 'claude', 'clean', 'projects', '-home-dev-app');
      const name = readdirSync(src).find((n) => n.endsWith('c02.jsonl'))!;
      const evil = '=HYPERLINK("http://x","a,b")';
      const text = readFileSync(join(src, name), 'utf8').replaceAll(
        '"cwd":"/home/dev/app"',
        `"cwd":${JSON.stringify(evil)}`,
      );
      mkdirSync(join(dir, '.claude', 'projects', 'p'), { recursive: true });
      writeFileSync(join(dir, '.claude', 'projects', 'p', name), text);
      const r = await cli(['sessions', dir, '--format', 'csv']);
      expect(r.code).toBe(0);
      const lines = r.stdout.split('\r\n');
      expect(lines[0]).toBe(
        'id,agent,project,started,ended,prompts,tool_calls,failed_calls,worst_severity,worst_code,errors,warnings,' +
          'notes,path,gone',
      );
      expect(lines[1]).toContain(',claude,"\'=HYPERLINK(""http://x"",""a,b"")",');
      expect(lines.at(-1)).toBe('');
      expect(r.stdout.replaceAll('\r\n', '')).not.toContain('\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** User prompts of a Claude log, read from the file itself: user lines with text that are not results or echoes. */
function claudePrompts(file: string): number {
  let n = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (r.type !== 'user' || r.isMeta === true || r.isCompactSummary === true || r.isSidechain === true) continue;
    const c = (r.message as { content?: unknown } | undefined)?.content;
    let text = '';
    if (typeof c === 'string') text = c;
    else if (Array.isArray(c)) {
      const blocks = c as Array<{ type?: string; text?: string }>;
      if (blocks.some((b) => b.type === 'tool_result')) continue;
      text = blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
    }
    text = text.trim();
    if (!text || /^\[Request interrupted/.test(text) || /^<(command-|local-command-|bash-)/.test(text)) continue;
    n++;
  }
  return n;
}

/** User prompts of a Codex rollout, read from the file itself: its `user_message` events. */
function codexPrompts(file: string): number {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => {
      try {
        const r = JSON.parse(l) as { type?: string; payload?: { type?: string } };
        return r.type === 'event_msg' && r.payload?.type === 'user_message';
      } catch {
        return false;
      }
    }).length;
}

describe.skipIf(EXTERNAL === undefined)('sessions of real files', () => {
  test('the external files list without a crash; prompts match the files', async () => {
    const r = await cli(['sessions', EXTERNAL!, '--format', 'json']);
    expect(r.code).toBe(0);
    const rows = (JSON.parse(r.stdout) as { sessions: SessionRow[] }).sessions;
    const checked = { claude: 0, codex: 0 };
    for (const agent of ['claude', 'codex'] as const) {
      const dir = join(EXTERNAL!, agent);
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
        const row = rows.find((x) => x.path === join(dir, name));
        expect(row, name).toBeDefined();
        const truth = agent === 'claude' ? claudePrompts(join(dir, name)) : codexPrompts(join(dir, name));
        expect(row!.prompts, name).toBe(truth);
        expect(row!.started, name).not.toBeNull();
        checked[agent]++;
      }
    }
    expect(checked.claude).toBeGreaterThan(0);
    expect(checked.codex).toBeGreaterThan(0);
    const table = await cli(['sessions', EXTERNAL!], { columns: 80 });
    expect(table.code).toBe(0);
    const csv = await cli(['sessions', EXTERNAL!, '--format', 'csv']);
    expect(csv.stdout.split('\r\n')).toHaveLength(rows.length + 2);
  });
});
