/**
 * ~/.claude/history.jsonl judged against the home's transcripts: a clean home (every session of the history has its
 * transcript, every prompt is in it) is clean; transcripts deleted from a copy are each reported once with the
 * history as their source, none invented, graded by Claude Code's 30-day cleanup against the history's own newest
 * line (never the audit's clock, and never a line dated in the future); nothing is written into the home.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import type { SessionRow } from '../../src/model/session-row.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { diffStates, treeState } from '../helpers/tree-hash.js';

const HOME_CODES = /^CLAUDE_HISTORY_/;
const PROJECT = 'projects/-home-dev-app';
const DAY = 86_400_000;
let dir: string;

interface Line {
  display: string;
  pastedContents: Record<string, never>;
  timestamp: number;
  project: string;
  sessionId?: string;
}

/** The first user prompt of each transcript of the clean Claude case, as history lines. */
function cleanHistory(home: string): Line[] {
  const out: Line[] = [];
  for (const name of readdirSync(join(home, PROJECT))
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    for (const text of readFileSync(join(home, PROJECT, name), 'utf8').split('\n')) {
      if (!text) continue;
      const v = JSON.parse(text) as {
        type?: string;
        sessionId?: string;
        timestamp?: string;
        message?: { content?: unknown };
      };
      const c = v.message?.content;
      const prompt = typeof c === 'string' ? c : undefined;
      if (v.type !== 'user' || prompt === undefined || prompt.startsWith('<')) continue;
      out.push({
        display: prompt,
        pastedContents: {},
        timestamp: Date.parse(v.timestamp!),
        project: '/home/dev/app',
        sessionId: v.sessionId!,
      });
      break;
    }
  }
  return out;
}

function makeHome(name: string, extra: Line[] = []): string {
  const home = join(dir, name, '.claude');
  cpSync(join(CORPORA, 'claude', 'clean', 'projects'), join(home, 'projects'), { recursive: true });
  const lines = [...cleanHistory(home), ...extra];
  writeFileSync(join(home, 'history.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return join(dir, name);
}

/** A session deleted whole: its transcript and its folder (sub-agents, tool results). */
function drop(path: string, id: string): void {
  unlinkSync(join(path, '.claude', PROJECT, `${id}.jsonl`));
  rmSync(join(path, '.claude', PROJECT, id), { recursive: true, force: true });
}

async function audit(path: string): Promise<AuditReport> {
  const r = await cli(['audit', path, '--format', 'json', '--fail-on', 'never']);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as AuditReport;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sa-claude-history-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Claude Code prompt history', () => {
  test('a clean home (each session and prompt of the history in a transcript) is clean, an entry', async () => {
    const report = await audit(makeHome('clean'));
    expect(report.findings.filter((f) => HOME_CODES.test(f.code))).toEqual([]);
    const home = report.sessions.find((s) => s.kind === 'home')!;
    expect(home.path.endsWith('/.claude')).toBe(true);
    expect(home.files.map((f) => f.path)).toEqual(['history.jsonl']);
    expect(home.files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(report.summary).toMatchObject({ sessions: 2, homes: 1 });
  });

  test('each deleted transcript is reported once with the history as source, none invented; read-only', async () => {
    const path = makeHome('deleted');
    const ids = cleanHistory(join(path, '.claude')).map((l) => l.sessionId!);
    const gone = ids[0]!;
    drop(path, gone);
    const before = treeState(path);
    const report = await audit(path);
    expect(diffStates(before, treeState(path))).toEqual([]);
    const found = report.findings.filter((f) => f.code === 'CLAUDE_HISTORY_SESSION_GONE');
    expect(found.map((f) => f.message.match(/^session (\S+):/)?.[1])).toEqual([gone]);
    expect(found[0]).toMatchObject({ location: { file: 'history.jsonl', line: 1 }, severity: 'warning' });
    expect(found[0]!.message).toContain('deleted by hand or moved, or this copy of the home is partial');
    const rows = JSON.parse((await cli(['sessions', path, '--format', 'json'])).stdout).sessions as SessionRow[];
    expect(
      rows.filter((r) => r.gone !== undefined).map((r) => [r.id, r.gone?.endsWith('/.claude/history.jsonl')]),
    ).toEqual([[gone, true]]);
  });

  test('a home whose transcripts are all gone is audited, not refused: its history still knows them', async () => {
    const path = makeHome('all-gone');
    const ids = cleanHistory(join(path, '.claude')).map((l) => l.sessionId!);
    for (const id of ids) drop(path, id);
    const report = await audit(path);
    expect(report.summary.sessions).toBe(0);
    const codes = report.findings.filter((f) => f.code === 'CLAUDE_HISTORY_SESSION_GONE');
    expect(codes.map((f) => f.message.match(/^session (\S+):/)?.[1]).sort()).toEqual([...ids].sort());
  });

  test('past the 30-day cleanup before the newest line is a note; a future-dated line is no reference', async () => {
    const base = makeHome('aged');
    const newest = Math.max(...cleanHistory(join(base, '.claude')).map((l) => l.timestamp));
    const old = { display: 'an old prompt', pastedContents: {}, project: '/home/dev/app' } as const;
    const path = makeHome('aged-2', [
      { ...old, timestamp: newest - 40 * DAY, sessionId: 'aaaaaaaa-0000-4000-8000-0000000000a1' },
      { ...old, timestamp: newest - 2 * DAY, sessionId: 'aaaaaaaa-0000-4000-8000-0000000000a2' },
      { ...old, timestamp: Date.now() + 400 * DAY, sessionId: 'aaaaaaaa-0000-4000-8000-0000000000a3' },
    ]);
    const report = await audit(path);
    const bySession = new Map(
      report.findings
        .filter((f) => f.code === 'CLAUDE_HISTORY_SESSION_GONE')
        .map((f) => [f.message.match(/^session (\S+):/)?.[1], f.severity]),
    );
    expect(bySession.get('aaaaaaaa-0000-4000-8000-0000000000a1')).toBe('note');
    expect(bySession.get('aaaaaaaa-0000-4000-8000-0000000000a2')).toBe('warning');
    expect(report.findings.some((f) => f.code === 'CLAUDE_HISTORY_TIME_FUTURE')).toBe(true);
  });

  test('a prompt its transcript lacks is reported, its secret redacted; legacy lines are counted', async () => {
    const key = `sk-ant-api03-${'Q'.repeat(90)}`;
    const first = cleanHistory(join(makeHome('probe'), '.claude'))[0]!;
    const path = makeHome('missing', [
      { ...first, display: `deploy it with ${key} now`, timestamp: first.timestamp + 60_000 },
      { display: 'no id', pastedContents: {}, timestamp: first.timestamp, project: '/home/dev/app' },
      { ...first, display: '/clear', timestamp: first.timestamp + 1 },
    ]);
    const report = await audit(path);
    const missing = report.findings.filter((f) => f.code === 'CLAUDE_HISTORY_PROMPT_MISSING');
    expect(missing).toHaveLength(1);
    expect(missing[0]!.message).toContain('[REDACTED:');
    expect(JSON.stringify(report)).not.toContain(key);
    expect(report.findings.filter((f) => f.code === 'CLAUDE_HISTORY_LEGACY_LINES')).toHaveLength(1);
  });

  test('a line written twice and a last line still without its newline are entries, not unreadable', async () => {
    const path = makeHome('repeats');
    const file = join(path, '.claude', 'history.jsonl');
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    writeFileSync(file, `${lines[0]}\n${lines.join('\n')}`);
    expect((await audit(path)).findings.filter((f) => HOME_CODES.test(f.code))).toEqual([]);
    // Damaged lines are one finding counting them all, past the 50 the reader lists one by one.
    writeFileSync(file, `${lines.join('\n')}\n{"display":"cut\n${'x\n'.repeat(80)}`);
    const bad = (await audit(path)).findings.filter((f) => f.code === 'CLAUDE_HISTORY_UNREADABLE');
    expect(bad).toHaveLength(1);
    expect(bad[0]!.message).toMatch(/^81 lines of history\.jsonl .* \(the first at line 3\)/);
  });
});
