/**
 * SECRET_IN_HOME (checks/home-secrets.ts): a secret in what an agent's home keeps of its sessions is reported once
 * per occurrence, where the file holds it, with the session it names and the hash SECRET_IN_SESSION would give,
 * never its value; a session whose log is still there is told apart from one whose log is gone; `--ignore` turns
 * the check off; nothing in the home changes.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Files } from '../scripts/corpora/case-kit.js';
import { claudeHomeCases } from '../scripts/corpora/cases-claude-home.js';
import { codexHomeParts, renderHome } from '../scripts/corpora/cases-codex-home.js';
import { grokHomeCases, grokHomeParts, renderGrokHome } from '../scripts/corpora/cases-grok-home.js';
import { grokSearchCases, grokSearchParts, renderGrokSearch } from '../scripts/corpora/cases-grok-search.js';
import { PLANTED } from '../scripts/corpora/secrets.js';
import { cli } from './helpers/cli.js';
import { auditCase, auditFiles, caseNamed } from './helpers/home-cases.js';

const tmp = mkdtempSync(join(tmpdir(), 'home-secrets-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const KEY = PLANTED['api-key']!;
const HASH = createHash('sha256').update(KEY).digest('hex').slice(0, 12);
const mine = (code: string) => code === 'SECRET_IN_HOME';

describe('a key kept by a home file, of a session whose log is gone', () => {
  const cases: Array<[string, { name: string; files: Files; must: readonly string[] }, RegExp]> = [
    ['Claude history.jsonl', caseNamed(claudeHomeCases(), 'home-history-secret'), /^history\.jsonl$/],
    ['Grok prompt_history.jsonl', caseNamed(grokHomeCases(), 'home-prompt-history-gone'), /prompt_history\.jsonl$/],
    ['Grok session_search.sqlite', caseNamed(grokSearchCases(), 'home-search-gone'), /session_search\.sqlite$/],
  ];
  test.each(cases)('%s', async (_name, c, file) => {
    const { home } = await auditCase(join(tmp, c.name), { ...c, must: ['SECRET_IN_HOME'] }, mine);
    const found = home.filter((f) => mine(f.code));
    expect(found.length).toBeGreaterThanOrEqual(1);
    for (const f of found) {
      expect(f.location.file).toMatch(file);
      expect(f.message).toContain(`api-key in `);
      expect(f.message).toContain(`sha256 ${HASH}…, ${KEY.length} characters; the value is not shown`);
      expect(f.message).toContain("the session's log is gone from this home");
    }
  });
});

describe('a key in the prompt history of a session whose log is there', () => {
  const parts = grokHomeParts();
  const top = parts.history[0]!;
  parts.history.push({ ...top, timestamp: new Date(Date.parse(top.timestamp) + 1000).toISOString(), prompt: KEY });
  const files = renderGrokHome(parts);

  test('reported at its line, as kept beyond the log', async () => {
    const { home } = await auditFiles(join(tmp, 'present'), files);
    const found = home.filter((f) => mine(f.code));
    expect(found).toHaveLength(1);
    expect(found[0]!.location).toMatchObject({ line: parts.history.length });
    expect(found[0]!.location.byteOffset).toBeTypeOf('number');
    expect(found[0]!.message).toContain(`session ${top.session_id}`);
    expect(found[0]!.message).toContain("the file keeps it when the session's log is deleted");
  });

  test('--ignore SECRET_IN_HOME turns it off', async () => {
    const { home, report } = await auditFiles(join(tmp, 'ignored'), files, '--ignore', 'SECRET_IN_HOME');
    expect(home.filter((f) => mine(f.code))).toEqual([]);
    expect(JSON.stringify(report)).not.toContain(KEY);
  });
});

describe("a key in the first prompt Codex's state_5.sqlite keeps of a thread whose rollout is gone", () => {
  const h = codexHomeParts();
  const paged = h.rollouts.find((r) => r.id.endsWith('c004'))!;
  h.tree.delete(paged.path);
  h.history = h.history.filter((l) => !l.includes(paged.id));
  h.threads.find((t) => t.id === paged.id)!.firstUserMessage = `Deploy with ${KEY} now.`;
  const files = renderHome(h);

  test('reported at the database; timeline --id of the thread recalls the row', async () => {
    const dir = join(tmp, 'codex-state');
    const { home } = await auditFiles(dir, files);
    const found = home.filter((f) => mine(f.code));
    expect(found.map((f) => [f.location.file, f.message.includes(`session ${paged.id}`)])).toEqual([
      ['state_5.sqlite', true],
    ]);
    expect(found[0]!.message).toContain(`sha256 ${HASH}…`);
    const r = await cli(['timeline', dir, '--id', paged.id, '--format', 'jsonl']);
    expect(r.code).toBe(0);
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { file: string; text: string });
    expect(events.some((e) => e.file === 'state_5.sqlite' && e.text.startsWith('Deploy with '))).toBe(true);
  });
});

describe('a key in a Claude history line that names no session (an older version wrote it)', () => {
  const clean = caseNamed(claudeHomeCases(), 'home-history-clean');
  const files: Files = new Map(clean.files);
  const history = String(files.get('.claude/history.jsonl'));
  const line = JSON.stringify({ display: `export TOKEN=${KEY}`, pastedContents: {}, timestamp: 1_750_000_000_000 });
  files.set('.claude/history.jsonl', `${history}${line}\n`);

  test('reported at its line, as naming no session', async () => {
    const { home } = await auditFiles(join(tmp, 'claude-legacy'), files);
    const found = home.filter((f) => mine(f.code));
    expect(found).toHaveLength(1);
    expect(found[0]!.location).toMatchObject({ file: 'history.jsonl', line: history.split('\n').length });
    expect(found[0]!.message).toContain('in a prompt that names no session (sha256 ');
    expect(found[0]!.message).toContain('an older line, kept whatever became of its session');
  });
});

describe("a key in the replies Grok's search index keeps of a session whose folder is gone", () => {
  const h = grokSearchParts();
  const row = h.rows[0]!;
  h.rows.push({
    ...row,
    id: '019a3000-0000-7000-8000-00000000b0ff',
    content: `Rotate the staging key.\n\nDone: I set STAGING_KEY=${KEY} in the deploy config.\n\nRead deploy.toml`,
  });
  const files = renderGrokSearch(h);

  test('reported at the index; timeline --id recalls the prompt and the rest of the row', async () => {
    const dir = join(tmp, 'grok-replies');
    const { home } = await auditFiles(dir, files);
    const found = home.filter((f) => mine(f.code));
    expect(
      found.map((f) => [f.location.file, f.message.includes('of session 019a3000-0000-7000-8000-00000000b0ff')]),
    ).toEqual([['sessions/session_search.sqlite', true]]);
    expect(found[0]!.message).toContain('in an entry of session');
    const r = await cli(['timeline', dir, '--id', '019a3000-0000-7000-8000-00000000b0ff', '--format', 'jsonl']);
    expect(r.code).toBe(0);
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; text: string });
    expect(events.find((e) => e.kind === 'user_prompt')?.text).toBe('Rotate the staging key.');
    expect(
      events.some((e) => e.text.startsWith('Done: I set STAGING_KEY=') && e.text.endsWith('Read deploy.toml')),
    ).toBe(true);
  });
});
