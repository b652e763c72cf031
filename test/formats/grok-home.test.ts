/**
 * Grok's per-cwd prompt history and crash registry (home-artifacts.md §1.2, §1.4): the clean home audits to no
 * home code; each corpora case produces its codes and no other of these; a copied clean home with sessions deleted
 * reports exactly the deleted sessions, once each, with their source; nothing in the home changes; a damaged
 * registry is one finding, never a stack trace; a secret in a prompt never reaches the report.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { grokHomeCases, grokHomeParts, renderGrokHome } from '../../scripts/corpora/cases-grok-home.js';
import { auditCase, auditFiles, auditHome, caseNamed, sessionNamed, writeFiles } from '../helpers/home-cases.js';
import { treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'grok-home-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const isMine = (c: string) =>
  c.startsWith('GROK_PROMPT_HISTORY_') || c.startsWith('GROK_ACTIVE_SESSION_') || c === 'SECRET_IN_HOME';

describe('the corpora cases', () => {
  for (const c of grokHomeCases())
    test(c.name, async () => {
      await auditCase(join(tmp, 'cases', c.name), c, isMine, c.name === 'home-prompt-history-clean');
    });

  test('home-prompt-history-gone: older than the TTL a note, newer a warning, the key redacted', async () => {
    const { home } = await auditFiles(
      join(tmp, 'gone-grades'),
      caseNamed(grokHomeCases(), 'home-prompt-history-gone').files,
    );
    const gone = home.filter((f) => f.code === 'GROK_PROMPT_HISTORY_SESSION_GONE');
    expect(gone.map((f) => [sessionNamed(f)?.slice(-4), f.severity]).sort()).toEqual([
      ['c001', 'note'],
      ['c002', 'warning'],
    ]);
    expect(gone.find((f) => sessionNamed(f)?.endsWith('c002'))!.message).toContain('[REDACTED:');
  });

  test('home-active-crash: one finding per entry, the mid-turn one an error', async () => {
    const { home } = await auditFiles(join(tmp, 'crash'), caseNamed(grokHomeCases(), 'home-active-crash').files);
    const active = home.filter((f) => f.code.startsWith('GROK_ACTIVE_SESSION_') && sessionNamed(f) !== undefined);
    expect(active.map((f) => [sessionNamed(f)?.slice(-4), f.code, f.severity]).sort()).toEqual([
      ['a001', 'GROK_ACTIVE_SESSION_UNCLEAN_END', 'error'],
      ['c003', 'GROK_ACTIVE_SESSION_GONE', 'warning'],
    ]);
  });

  test('home-active-damaged: one finding', async () => {
    const { home } = await auditFiles(join(tmp, 'damaged'), caseNamed(grokHomeCases(), 'home-active-damaged').files);
    expect(home.map((f) => f.code)).toEqual(['GROK_ACTIVE_SESSION_UNREADABLE']);
  });
});

describe('a copied clean home with sessions deleted', () => {
  test('every deleted session is reported once with its source, none invented; nothing changes', async () => {
    const dir = join(tmp, 'deleted');
    const parts = grokHomeParts();
    // The top session and the fork each have history lines (the fork its own prompt); both dirs go, the history
    // stays.
    const ids = ['019a3f2c-1d00-7a3e-8000-00000000a001', '019a3f6b-8e40-7b11-8000-00000000a002'];
    expect(ids.every((id) => parts.history.some((l) => l.session_id === id))).toBe(true);
    writeFiles(dir, renderGrokHome(parts));
    for (const id of ids) rmSync(join(dir, '.grok', 'sessions', '%2Fhome%2Fdev%2Fproj', id), { recursive: true });
    const before = treeState(dir);
    const { home } = await auditHome(dir);
    const gone = home.filter((f) => f.code === 'GROK_PROMPT_HISTORY_SESSION_GONE');
    expect(gone.map(sessionNamed).sort()).toEqual([...ids].sort());
    for (const f of gone) expect(f.location.file).toBe('sessions/%2Fhome%2Fdev%2Fproj/prompt_history.jsonl');
    expect(home.filter((f) => isMine(f.code)).every((f) => ids.includes(sessionNamed(f)!))).toBe(true);
    expect(treeState(dir)).toEqual(before);
  });
});
