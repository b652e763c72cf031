/**
 * `archive` keeps an agent home's own files (prompt history, thread index, state database) as an entry of their own
 * (`home:<agent>`), whether the roots are the home's session folders (the default roots) or the home itself: they
 * outlive the logs. A grown history is a changed capture, and `bundle --from-store` bags the home's files as they
 * were at that capture.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { filesUnder, unpack } from '../helpers/bags.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { capturePath, headFile } from '../../src/store/layout.js';
import { readState } from '../../src/store/open.js';
import { encodeRecord, sha256, type CaptureRecord } from '../../src/store/record.js';

interface Listing {
  sessions: Array<{ id: string; captures: Array<{ seq: number; status: string }> }>;
}

let tmp = '';
let codex = '';
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'sa-archive-homes-'));
  codex = join(tmp, 'home', '.codex');
  cpSync(join(CORPORA, 'codex', 'home-history-gone', '.codex'), codex, { recursive: true });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const captures = async (store: string): Promise<Listing> =>
  JSON.parse((await cli(['captures', '--store', store, '--format', 'json'])).stdout) as Listing;

describe("archive keeps an agent home's own files", () => {
  test("from the home's session folders (the default roots): one home entry beside the sessions", async () => {
    const store = join(tmp, 'store-roots');
    const roots = [join(codex, 'sessions'), join(codex, 'archived_sessions')];
    const r = await cli(['archive', ...roots, '--store', store]);
    expect(r.code).toBe(0);
    const home = (await captures(store)).sessions.filter((s) => s.id.startsWith('home:'));
    expect(home.map((s) => [s.id, s.captures.map((c) => c.status)])).toEqual([['home:codex', ['new']]]);
    // The history grows: the home's next capture is a changed one; the sessions are unchanged.
    appendFileSync(join(codex, 'history.jsonl'), '{"session_id":"x","ts":1772442300,"text":"later"}\n');
    const again = await cli(['archive', ...roots, '--store', store]);
    expect(again.stdout).toMatch(/0 new, 1 changed, 0 deleted, 5 unchanged/);
    expect((await cli(['verify', '--store', store])).code).toBe(0);
    // The first capture, bagged: the home's files as they were then.
    const bag = join(tmp, 'home.zip');
    const first = String(home[0]!.captures[0]!.seq);
    const b = await cli(['bundle', '--from-store', store, '--session', 'home:codex', '--at', first, '-o', bag]);
    expect(b.code).toBe(0);
    expect(b.stdout).toMatch(/^Bundled 0 sessions and 1 agent home, 3 payload files/);
    const dir = unpack(bag, join(tmp, 'home-bag'));
    expect(filesUnder(dir).filter((f) => f.startsWith('data/'))).toEqual([
      'data/codex/home/history.jsonl',
      'data/codex/home/session_index.jsonl',
      'data/codex/home/state_5.sqlite',
    ]);
    const then = readFileSync(join(dir, 'data/codex/home/history.jsonl'), 'utf8');
    expect(then).not.toContain('"later"');
    expect(readFileSync(join(CORPORA, 'codex', 'home-history-gone', '.codex', 'history.jsonl'), 'utf8')).toBe(then);
  });

  test('from the directory holding the home: the same one entry, not one per root', async () => {
    const store = join(tmp, 'store-home');
    expect((await cli(['archive', join(tmp, 'home'), codex, '--store', store])).code).toBe(0);
    const home = (await captures(store)).sessions.filter((s) => s.id.startsWith('home:'));
    expect(home.map((s) => s.id)).toEqual(['home:codex']);
  });

  test("a home's files in its own folders are kept; a symlink is named as left out", async () => {
    const grok = join(tmp, 'g', '.grok');
    cpSync(join(CORPORA, 'grok', 'home-search-clean', '.grok'), grok, { recursive: true });
    symlinkSync('/etc/passwd', join(grok, 'active_sessions.json'));
    const store = join(tmp, 'store-grok');
    const r = await cli(['archive', join(grok, 'sessions'), '--store', store]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `session-audit: note: ${grok}/active_sessions.json: not archived: ` +
        "a symlink: the store keeps a home's regular files\n",
    );
    const home = (await captures(store)).sessions.find((s) => s.id === 'home:grok')!;
    const bag = join(tmp, 'grok-home.zip');
    const b = await cli(['bundle', '--from-store', store, '--session', 'home:grok', '-o', bag]);
    expect([b.code, b.stderr]).toEqual([0, '']);
    const dir = unpack(bag, join(tmp, 'grok-home-bag'));
    expect(filesUnder(dir).filter((f) => f.startsWith('data/'))).toEqual([
      // The bag's layout spells a name's % as _ (its original path is in the custody statement).
      'data/grok/home/sessions/_2Fhome_2Fdev_2Fproj/prompt_history.jsonl',
      'data/grok/home/sessions/session_search.sqlite',
    ]);
    expect(home.captures.map((c) => c.status)).toEqual(['new']);
  });

  test('a forged member path that leaves the home (../) is refused on read-back: nothing is written', async () => {
    const store = join(tmp, 'store-grok');
    const seq = readState(store).seq;
    const path = capturePath(store, seq);
    const record = JSON.parse(readFileSync(path, 'utf8')) as CaptureRecord;
    if (!record.session.members) throw new Error('the last record is not a home entry');
    record.session.members.push('../../../evil');
    const bytes = encodeRecord(record);
    writeFileSync(path, bytes);
    writeFileSync(headFile(store), `${JSON.stringify({ seq, sha256: sha256(bytes) })}\n`);
    const v = await cli(['verify', '--store', store, '--format', 'json']);
    expect(v.stdout).toContain('is not a plain relative path');
    const b = await cli(['bundle', '--from-store', store, '--session', 'home:grok', '-o', join(tmp, 'evil.zip')]);
    expect(b.code).toBe(2);
  });
});
