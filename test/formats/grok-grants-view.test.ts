/**
 * Issue 36, its last Build item: Grok's permission decisions (`permission*.toml`) and sandbox events
 * (`sandbox-events.jsonl`) name no session. `inspect` of a session shows those of its cwd group and of its span and
 * workspace; `lineage` lists the ones that fall in no session. Damaged and oversized lines never stop either.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { changes, fingerprint } from '../helpers/fingerprint.js';

const tmp = mkdtempSync(join(tmpdir(), 'sa-grok-views-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const group = (c: string): string => join(CORPORA, 'grok', c, '.grok', 'sessions', '%2Fhome%2Fdev%2Fproj');
const A001 = '019a3f2c-1d00-7a3e-8000-00000000a001';
const A002 = '019a3f6b-8e40-7b11-8000-00000000a002';

interface Section {
  kind: string;
  items: Array<{ file: string; line: number; text: string; fields: Record<string, unknown> }>;
}
const sectionsOf = async (dir: string): Promise<Section[] | undefined> => {
  const r = await cli(['inspect', dir, '--format', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { home?: { sections: Section[] } }).home?.sections;
};

describe('inspect: what the home keeps beside a Grok session', () => {
  test("the cwd group's decisions and the sandbox events of the session's span, in text and JSON", async () => {
    const dir = join(group('home-sandbox-clean'), A001);
    const text = await cli(['inspect', dir], { columns: 80 });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("Beside the log, in the agent's home");
    expect(text.stdout).toContain('allowed_bash_commands = ["npm test", "git status"]');
    expect(text.stdout).toMatch(/line 2 +2026-08-19T09:30:40\.100000Z FsViolation/);
    const sections = (await sectionsOf(dir)) ?? [];
    const lines = sections.map((s) => s.items.map((i) => `${i.file}:${i.line}`));
    expect(lines).toEqual([
      ['sessions/%2Fhome%2Fdev%2Fproj/permission.toml:4', 'sessions/%2Fhome%2Fdev%2Fproj/permission.toml:8'],
      ['sandbox-events.jsonl:1', 'sandbox-events.jsonl:2'],
    ]);
  });

  test("another session of the group gets the events of its own span, not the first one's", async () => {
    const sections = (await sectionsOf(join(group('home-sandbox-clean'), A002))) ?? [];
    const events = sections.find((s) => s.items.some((i) => i.file === 'sandbox-events.jsonl'));
    expect(events?.items.map((i) => i.line)).toEqual([2, 3]);
  });

  test('a session outside any home shows nothing more', async () => {
    const copy = join(tmp, 'alone', A001);
    cpSync(join(group('home-sandbox-clean'), A001), copy, { recursive: true });
    expect(await sectionsOf(copy)).toBeUndefined();
    const text = await cli(['inspect', copy]);
    expect(text.stdout).not.toContain('Beside the log');
  });
});

describe('lineage: what lies outside every session log', () => {
  test('events in no session and decisions of a group with no session are listed; a clean home has none', async () => {
    const gone = await cli(['lineage', join(CORPORA, 'grok', 'home-sandbox-violation-gone'), '--format', 'json']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(gone.stdout).outsideSessions)).toContain('/home/dev/.ssh/id_ed25519');
    const orphan = await cli(['lineage', join(CORPORA, 'grok', 'home-permission-orphan')], { columns: 200 });
    expect(orphan.stdout).toMatch(/Outside every session log, in .*\.grok:/);
    expect(orphan.stdout).toContain('allow_bash_execute = true');
    const clean = await cli(['lineage', join(CORPORA, 'grok', 'home-sandbox-clean'), '--format', 'json']);
    expect(JSON.parse(clean.stdout).outsideSessions).toBeUndefined();
  });

  test('a damaged, binary and oversized sandbox log is read past, shortened, and left as it was', async () => {
    const home = join(tmp, 'damaged');
    cpSync(join(CORPORA, 'grok', 'home-sandbox-violation-gone'), home, { recursive: true });
    const log = join(home, '.grok', 'sandbox-events.jsonl');
    const big = 'a'.repeat(300_000);
    appendFileSync(log, `{"timestamp":"x"\n\u0000\u0001garbage\n`);
    appendFileSync(
      log,
      `${JSON.stringify({ timestamp: '2026-08-10T08:00:00Z', event_type: 'FsViolation', profile: big })}\n`,
    );
    const before = fingerprint(home);
    const r = await cli(['lineage', home], { columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/FsViolation, profile\s+a+…/);
    expect(r.stdout).not.toContain(big);
    expect(changes(before, fingerprint(home))).toEqual([]);
  });
});
