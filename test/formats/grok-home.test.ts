/**
 * Grok's per-cwd prompt history and crash registry (home-artifacts.md §1.2, §1.4): the clean home audits to no
 * home code; each corpora case produces its codes and no other of these; a copied clean home with sessions deleted
 * reports exactly the deleted sessions, once each, with their source; nothing in the home changes; a damaged
 * registry is one finding, never a stack trace; a secret in a prompt never reaches the report.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Files } from '../../scripts/corpora/case-kit.js';
import { grokHomeCases, grokHomeParts, renderGrokHome } from '../../scripts/corpora/cases-grok-home.js';
import { PLANTED } from '../../scripts/corpora/secrets.js';
import type { Finding } from '../../src/model/finding.js';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'grok-home-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(dir: string, files: Files): void {
  for (const [rel, c] of files) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    if (typeof c === 'string' || Buffer.isBuffer(c)) writeFileSync(p, c);
  }
}

async function audit(dir: string): Promise<{ report: AuditReport; home: Finding[]; raw: string }> {
  const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never']);
  expect(r.stderr).toBe('');
  const report = JSON.parse(r.stdout) as AuditReport;
  const homes = report.sessions.filter((s) => s.kind === 'home');
  const home = report.findings.filter((f) => homes.some((h) => h.path === f.sessionPath));
  return { report, home, raw: r.stdout };
}

const isMine = (c: string) => c.startsWith('GROK_PROMPT_HISTORY_') || c.startsWith('GROK_ACTIVE_SESSION_');
const keyOf = (f: Finding): string | undefined =>
  /\bsession ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/.exec(f.message)?.[1];

describe('the corpora cases', () => {
  for (const c of grokHomeCases())
    test(c.name, async () => {
      const dir = join(tmp, 'cases', c.name);
      write(dir, c.files);
      const before = treeState(dir);
      const { report, home, raw } = await audit(dir);
      expect(report.toolErrors ?? []).toEqual([]);
      const codes = [...new Set(report.findings.map((f) => f.code))].filter(isMine);
      expect(codes.sort(), c.name).toEqual([...c.must].sort());
      if (c.name === 'home-prompt-history-clean') expect(report.findings).toEqual([]);
      expect(home.filter((f) => isMine(f.code)).length).toBeGreaterThanOrEqual(c.must.length);
      expect(raw).not.toContain(PLANTED['api-key']!);
      expect(raw).not.toMatch(/\n\s+at .*\.ts:\d+/);
      expect(treeState(dir)).toEqual(before);
    });

  test('home-prompt-history-gone: older than the TTL a note, newer a warning, the key redacted', async () => {
    const c = grokHomeCases().find((x) => x.name === 'home-prompt-history-gone')!;
    const dir = join(tmp, 'gone-grades');
    write(dir, c.files);
    const { home } = await audit(dir);
    const gone = home.filter((f) => f.code === 'GROK_PROMPT_HISTORY_SESSION_GONE');
    expect(gone.map((f) => [keyOf(f)?.slice(-4), f.severity]).sort()).toEqual([
      ['c001', 'note'],
      ['c002', 'warning'],
    ]);
    expect(gone.find((f) => keyOf(f)?.endsWith('c002'))!.message).toContain('[REDACTED:');
  });

  test('home-active-crash: one finding per entry, the mid-turn one an error', async () => {
    const c = grokHomeCases().find((x) => x.name === 'home-active-crash')!;
    const dir = join(tmp, 'crash');
    write(dir, c.files);
    const { home } = await audit(dir);
    const active = home.filter((f) => f.code.startsWith('GROK_ACTIVE_SESSION_') && keyOf(f) !== undefined);
    expect(active.map((f) => [keyOf(f)?.slice(-4), f.code, f.severity]).sort()).toEqual([
      ['a001', 'GROK_ACTIVE_SESSION_UNCLEAN_END', 'error'],
      ['c003', 'GROK_ACTIVE_SESSION_GONE', 'warning'],
    ]);
  });

  test('home-active-damaged: one finding', async () => {
    const c = grokHomeCases().find((x) => x.name === 'home-active-damaged')!;
    const dir = join(tmp, 'damaged');
    write(dir, c.files);
    const { home } = await audit(dir);
    expect(home.map((f) => f.code)).toEqual(['GROK_ACTIVE_SESSION_UNREADABLE']);
  });
});

describe('a copied clean home with sessions deleted', () => {
  test('every deleted session is reported once with its source, none invented; nothing changes', async () => {
    const dir = join(tmp, 'deleted');
    const parts = grokHomeParts();
    // The top session and the fork each get a history line; both dirs go, the history stays.
    const ids = ['019a3f2c-1d00-7a3e-8000-00000000a001', '019a3f6b-8e40-7b11-8000-00000000a002'];
    parts.history.push({ timestamp: parts.history[0]!.timestamp, session_id: ids[1]!, prompt: 'Fork it.' });
    write(dir, renderGrokHome(parts));
    for (const id of ids) rmSync(join(dir, '.grok', 'sessions', '%2Fhome%2Fdev%2Fproj', id), { recursive: true });
    const before = treeState(dir);
    const { home } = await audit(dir);
    const gone = home.filter((f) => f.code === 'GROK_PROMPT_HISTORY_SESSION_GONE');
    expect(gone.map(keyOf).sort()).toEqual([...ids].sort());
    for (const f of gone) expect(f.location.file).toBe('sessions/%2Fhome%2Fdev%2Fproj/prompt_history.jsonl');
    expect(home.filter((f) => isMine(f.code)).every((f) => ids.includes(keyOf(f)!))).toBe(true);
    expect(treeState(dir)).toEqual(before);
  });
});
