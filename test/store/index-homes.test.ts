/**
 * The index and an agent home's captures (`home:<agent>`): what the home's own files still hold (a prompt history's
 * prompts, a search index's rows) is indexed as recalled events, so `search` finds text whose log is gone; with its
 * secrets redacted, under `--agent`, the same rows after `archive --reindex`, and not counted as "not indexed".
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { PLANTED } from '../../scripts/corpora/secrets.js';
import type { SearchHit } from '../../src/engine/index/search.js';
import { cli } from '../helpers/cli.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const work = mkdtempSync(join(tmpdir(), 'sa-index-homes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function search(store: string, ...args: string[]): Promise<SearchHit[]> {
  const r = await cli(['search', '--store', store, ...args, '--format', 'json']);
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as { hits: SearchHit[] }).hits;
}

const place = (h: SearchHit) => [h.session, h.agent, h.kind, `${h.file}:${h.line}`];

describe('a Grok home whose sessions were deleted: its prompt history and search index are searched', () => {
  const store = join(work, 'grok-store');
  const home = join(work, 'grok', '.grok');
  cpSync(join(CORPORA, 'grok', 'home-prompt-history-gone', '.grok'), home, { recursive: true });
  const history = 'sessions/%2Fhome%2Fdev%2Fproj/prompt_history.jsonl';

  test('a prompt only the history holds is a hit of home:grok at its line, its secret redacted', async () => {
    const a = await cli(['archive', home, '--store', store]);
    expect(a.stdout).toMatch(/\d+ captures indexed\n$/);
    expect(a.stdout).not.toContain('not indexed');
    expect((await search(store, 'lockfile')).map(place)).toEqual([
      ['home:grok', 'grok', 'user_prompt', `${history}:1`],
    ]);
    const deploy = await search(store, 'Deploy');
    expect(deploy.map(place)).toEqual([['home:grok', 'grok', 'user_prompt', `${history}:2`]]);
    expect(deploy[0]!.snippet).toContain('[REDACTED:api-key]');
    expect(readFileSync(join(store, 'index.sqlite')).includes(PLANTED['api-key']!)).toBe(false);
  });

  test('--agent grok includes the home; another agent does not; --reindex gives the same hits', async () => {
    const before = await search(store, 'lockfile OR Deploy', '--agent', 'grok');
    expect(before).toHaveLength(2);
    expect(await cli(['search', '--store', store, 'lockfile', '--agent', 'codex'])).toMatchObject({ code: 1 });
    expect((await cli(['archive', '--reindex', '--store', store])).code).toBe(0);
    expect(await search(store, 'lockfile OR Deploy', '--agent', 'grok')).toEqual(before);
    expect((await cli(['verify', '--store', store])).code).toBe(0);
  });
});

test("a Grok search index's rows, read from the store's pieces, are hits of the home", async () => {
  const store = join(work, 'search-store');
  const root = join(work, 'search');
  cpSync(join(CORPORA, 'grok', 'home-search-gone'), root, { recursive: true });
  rmSync(join(root, 'expected.json'));
  expect((await cli(['archive', root, '--store', store])).code).toBe(0);
  const hits = (await search(store, '"Bump the lockfile"')).filter((h) => h.session === 'home:grok');
  expect(hits.map((h) => h.file)).toContain('sessions/session_search.sqlite');
});

test("a Claude home's history.jsonl prompts are hits of home:claude", async () => {
  const store = join(work, 'claude-store');
  const root = join(work, 'claude');
  cpSync(join(CORPORA, 'claude', 'home-history-gone'), root, { recursive: true });
  rmSync(join(root, 'expected.json'));
  expect((await cli(['archive', join(root, '.claude'), '--store', store])).code).toBe(0);
  const text = readFileSync(join(root, '.claude', 'history.jsonl'), 'utf8').split('\n')[0]!;
  const word = (JSON.parse(text) as { display: string }).display.split(/\W+/).find((w) => w.length > 5)!;
  const hits = await search(store, word);
  expect(hits.some((h) => h.session === 'home:claude' && h.file === 'history.jsonl' && h.line === 1)).toBe(true);
});
