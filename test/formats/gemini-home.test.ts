/**
 * Gemini CLI's logs.json (formats/gemini-cli.md §1.3, anomalies 26 and 27) judged against the sessions of its
 * project dir: the clean home audits to no GEMINI_LOGS_ code; each corpora case produces its codes and no other; a
 * copied clean home with session files deleted reports exactly the deleted sessions, logs.json as their source, none
 * invented; a hostile logs.json (huge, deeply nested, not an array, wrong shapes) is a finding, never a stack trace;
 * nothing in the home is written; the real files in ../shared/external/gemini audit with no home finding.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type { Files } from '../../scripts/corpora/case-kit.js';
import { cleanLogs, geminiHomeCases } from '../../scripts/corpora/cases-gemini-home.js';
import { geminiCleanTree } from '../../scripts/corpora/cases-gemini.js';
import type { Finding } from '../../src/model/finding.js';
import type { AuditReport } from '../../src/model/report.js';
import type { SessionRow } from '../../src/model/session-row.js';
import { walkTree } from '../../src/read/walk.js';
import type { TimelineEvent } from '../../src/timeline/model.js';
import { cli } from '../helpers/cli.js';
import { auditCase, auditHome, writeFiles } from '../helpers/home-cases.js';
import { diffStates, treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'gemini-home-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const HOME_CODE = /^GEMINI_LOGS_/;
const SHARED = process.env.SHARED ?? fileURLToPath(new URL('../../../shared', import.meta.url));
const EXTERNAL = join(SHARED, 'external', 'gemini');

const write = writeFiles;

async function audit(dir: string): Promise<{ report: AuditReport; home: Finding[] }> {
  const { report, raw } = await auditHome(dir);
  // A finding, never a tool error or a stack trace.
  expect(report.toolErrors ?? []).toEqual([]);
  expect(raw).not.toMatch(/\n\s+at .*\.ts:\d+/);
  return { report, home: report.findings.filter((f) => HOME_CODE.test(f.code)) };
}

const idOf = (f: Finding): string | undefined => /^session (\S+):/.exec(f.message)?.[1];

describe('the corpora cases', () => {
  for (const c of geminiHomeCases())
    test(c.name, async () => {
      const dir = join(tmp, 'cases', c.name);
      const { report } = await auditCase(dir, c, (code) => HOME_CODE.test(code), c.name === 'home-logs-clean');
      const home = report.findings.filter((f) => HOME_CODE.test(f.code));
      if (c.name === 'home-logs-clean') {
        const entry = report.sessions.find((s) => s.kind === 'home')!;
        expect(entry.path.endsWith('/.gemini')).toBe(true);
        expect(entry.files.map((f) => f.path)).toEqual([
          'tmp/31dceeea3992ade6d10b16cff32eccd523ca92ae5b1efc0f8f8c4bcae5391d9f/logs.json',
          'tmp/app/logs.json',
          'tmp/app/shell_history',
        ]);
      }
      if (c.maxSeverity === 'note') expect(home.every((f) => f.severity === 'note')).toBe(true);
      if (c.name === 'home-logs-gone-expired') {
        const [old, cmds] = home.map((f) => f.message);
        expect(old).toContain('40 days before the newest line');
        expect(cmds).toContain('Every entry of it is a command or a shell line');
        expect(cmds).not.toContain('deleted by hand');
      }
      for (const f of home) expect(f.location.file).toMatch(/^tmp\/[^/]+\/logs\.json/);
    });
});

describe('a copied clean home with session files deleted', () => {
  const dir = join(tmp, 'deleted');
  const tree = geminiCleanTree();
  const logs = cleanLogs(tree);
  const files: Files = new Map();
  for (const [p, c] of tree) files.set(`.gemini/${p}`, c);
  for (const [project, entries] of logs)
    files.set(`.gemini/tmp/${project}/logs.json`, JSON.stringify(entries, null, 2));
  write(dir, files);
  const ids = [...logs.values()].flat().map((e) => e.sessionId);
  const deleted = [...new Set(ids)].sort();
  // Every main session file (and the subagent dir of the main session) is deleted.
  for (const p of tree.keys()) if (/^tmp\/[^/]+\/chats\/session-/.test(p)) unlinkSync(join(dir, '.gemini', p));
  rmSync(join(dir, '.gemini', 'tmp', 'app', 'chats', deleted.find((i) => i.endsWith('01'))!), { recursive: true });

  test('each deleted session is reported once with logs.json as source, none invented; read-only', async () => {
    const before = treeState(dir);
    const { home } = await audit(dir);
    expect(diffStates(before, treeState(dir))).toEqual([]);
    const gone = home.filter((f) => f.code === 'GEMINI_LOGS_SESSION_GONE');
    expect(gone.map(idOf).sort()).toEqual(deleted);
    expect(home.filter((f) => f.code !== 'GEMINI_LOGS_SESSION_GONE')).toEqual([]);
    for (const f of gone) {
      expect(f.location.file).toMatch(/^tmp\/[^/]+\/logs\.json$/);
      expect(f.location.byteOffset).toBeGreaterThan(0);
    }
    const app = gone.find((f) => f.location.file === 'tmp/app/logs.json')!;
    expect(app.message).toContain('"parse() panics on empty input; fix it."');
    expect(app.severity).toBe('warning');
    const rows = JSON.parse((await cli(['sessions', dir, '--format', 'json'])).stdout).sessions as SessionRow[];
    const listed = rows.filter((r) => r.gone !== undefined);
    expect(listed.map((r) => r.id).sort()).toEqual(deleted);
    for (const r of listed) expect(r.gone).toMatch(/\/\.gemini\/tmp\/[^/]+\/logs\.json$/);
  });

  test('timeline --id of a gone session gives the prompts logs.json holds, the commands as notes', async () => {
    const id = deleted.find((i) => i.endsWith('01'))!;
    const r = await cli(['timeline', dir, '--id', id, '--format', 'json']);
    expect(r.code).toBe(0);
    const events = JSON.parse(r.stdout) as TimelineEvent[];
    const prompts = events.filter((e) => e.kind === 'user_prompt').map((e) => e.text);
    expect(prompts).toEqual(logs.get('app')!.map((e) => e.message));
    for (const e of events) expect(e.recalled).toBe(join(dir, '.gemini', 'tmp', 'app', 'logs.json'));
  });
});

describe('a hostile logs.json is a finding, never a stack trace', () => {
  const base = (): Files => {
    const tree = geminiCleanTree();
    const files: Files = new Map();
    for (const [p, c] of tree) files.set(`.gemini/${p}`, c);
    return files;
  };
  const hostile: Array<[string, string | Buffer, string[]]> = [
    ['deep', `[${'['.repeat(200_000)}${']'.repeat(200_000)}]`, ['GEMINI_LOGS_BAD_ENTRIES']],
    ['deep-cut', '['.repeat(500_000), ['GEMINI_LOGS_UNREADABLE']],
    ['object', '{"sessionId":"x"}', ['GEMINI_LOGS_UNREADABLE']],
    ['scalar', '42', ['GEMINI_LOGS_UNREADABLE']],
    ['empty', '', ['GEMINI_LOGS_UNREADABLE']],
    ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x5b, 0x7b]), ['GEMINI_LOGS_UNREADABLE']],
    [
      'shapes',
      JSON.stringify([1, 'x', null, [], {}, { sessionId: 1 }, { sessionId: 'a', messageId: 0, timestamp: 5 }]),
      ['GEMINI_LOGS_BAD_ENTRIES'],
    ],
    [
      'odd-times',
      JSON.stringify([{ sessionId: 'z', messageId: 0, timestamp: 'not a time', type: 'user', message: 'hi' }]),
      ['GEMINI_LOGS_SESSION_GONE'],
    ],
  ];
  for (const [name, content, codes] of hostile)
    test(name, async () => {
      const dir = join(tmp, 'hostile', name);
      const files = base();
      files.set('.gemini/tmp/app/logs.json', content);
      write(dir, files);
      const { home } = await audit(dir);
      expect([...new Set(home.map((f) => f.code))].sort()).toEqual(codes);
    });

  test('huge: larger than the audit reads, only the first entries judged, a note', async () => {
    const dir = join(tmp, 'hostile', 'huge');
    const files = base();
    const one = { sessionId: 'huge-1', messageId: 0, timestamp: '2026-12-01T08:00:00.000Z', type: 'user' };
    const filler = 'x'.repeat(1 << 20);
    const parts = Array.from({ length: 34 }, (_, i) => JSON.stringify({ ...one, messageId: i, message: filler }));
    files.set('.gemini/tmp/app/logs.json', `[\n${parts.join(',\n')}\n]`);
    write(dir, files);
    const { home } = await audit(dir);
    const big = home.filter((f) => f.code === 'GEMINI_LOGS_UNREADABLE');
    expect(big).toHaveLength(1);
    expect(big[0]!.severity).toBe('note');
    expect(big[0]!.message).toContain('more than this audit reads');
    expect(home.filter((f) => f.code === 'GEMINI_LOGS_SESSION_GONE').map(idOf)).toEqual(['huge-1']);
  }, 60_000);
});

/** A real run's tree (`tmp/<project>/chats/…`) as files, read from ../shared (never copied into the repository). */
function realTree(run: string): Files {
  const files: Files = new Map();
  for (const e of walkTree(run, 16)) if (e.type === 'file') files.set(e.path, readFileSync(join(run, e.path), 'utf8'));
  return files;
}

describe.skipIf(!existsSync(EXTERNAL))('the real Gemini CLI files', () => {
  const runs = existsSync(EXTERNAL)
    ? readdirSync(join(EXTERNAL, 'generated-cli-0.56.0')).map((r) => join(EXTERNAL, 'generated-cli-0.56.0', r))
    : [];

  test('audit as they are with no home finding (no run holds a logs.json), nothing written', async () => {
    for (const run of runs) {
      const before = treeState(run);
      const { home } = await audit(run);
      expect(home, run).toEqual([]);
      expect(diffStates(before, treeState(run))).toEqual([]);
    }
  });

  test('copied into a .gemini home with the logs.json of their prompts: clean; deleted: each reported', async () => {
    let judged = 0;
    for (const run of runs) {
      const tree = realTree(run);
      const logs = cleanLogs(tree);
      if (logs.size === 0) continue;
      judged += [...logs.values()].flat().length;
      const dir = join(tmp, 'real', run.split('/').pop()!);
      const files: Files = new Map();
      for (const [p, c] of tree) files.set(`.gemini/${p}`, c);
      for (const [project, entries] of logs) files.set(`.gemini/tmp/${project}/logs.json`, JSON.stringify(entries));
      write(dir, files);
      expect((await audit(dir)).home, run).toEqual([]);
      for (const p of tree.keys()) if (/^tmp\/[^/]+\/chats\/session-/.test(p)) unlinkSync(join(dir, '.gemini', p));
      const gone = (await audit(dir)).home;
      const ids = [...new Set([...logs.values()].flat().map((e) => e.sessionId))].sort();
      expect(gone.map((f) => [f.code, idOf(f)]).sort(), run).toEqual(ids.map((i) => ['GEMINI_LOGS_SESSION_GONE', i]));
    }
    // Every run but the rewritten legacy file has prompts (A, B, C and D: at least one each).
    expect(judged).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
