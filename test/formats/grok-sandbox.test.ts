/**
 * Grok's sandbox event log, worktree pool and permission store (home-artifacts.md §1.3, §1.5, §1.6): each corpora
 * case produces its codes and no other of these; a copied clean home with sessions deleted reports every deleted
 * session the worktree pool names, with its source, and none invented; nothing in the home changes; a hostile line
 * or file (huge, not UTF-8, a TOML with tricks, a database of another schema) is a finding, never a stack trace.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Files } from '../../scripts/corpora/case-kit.js';
import {
  cleanEvents,
  eventsText,
  grokSandboxCases,
  PERMISSION,
  renderSandboxHome,
  SANDBOX,
  WORKTREES,
} from '../../scripts/corpora/cases-grok-sandbox.js';
import { readTomlSubset } from '../../src/formats/grok/home/toml-subset.js';
import type { Finding } from '../../src/model/finding.js';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'grok-sandbox-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function write(dir: string, files: Files): void {
  for (const [rel, c] of files) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    if (typeof c === 'string' || Buffer.isBuffer(c)) writeFileSync(p, c);
  }
}

async function audit(dir: string, ...args: string[]): Promise<{ report: AuditReport; home: Finding[]; raw: string }> {
  const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never', ...args]);
  expect(r.stderr).toBe('');
  const report = JSON.parse(r.stdout) as AuditReport;
  const homes = report.sessions.filter((s) => s.kind === 'home');
  const home = report.findings.filter((f) => homes.some((h) => h.path === f.sessionPath));
  return { report, home, raw: r.stdout };
}

const MINE = ['GROK_SANDBOX_', 'GROK_WORKTREE_', 'GROK_PERMISSION_'];
const isMine = (c: string) => MINE.some((p) => c.startsWith(p));
const keyOf = (f: Finding): string | undefined =>
  /\bsession ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/.exec(f.message)?.[1];

describe('the corpora cases', () => {
  for (const c of grokSandboxCases())
    test(c.name, async () => {
      const dir = join(tmp, 'cases', c.name);
      write(dir, c.files);
      const before = treeState(dir);
      const { report, home, raw } = await audit(dir);
      expect(report.toolErrors ?? []).toEqual([]);
      const codes = [...new Set(report.findings.map((f) => f.code))].filter(isMine);
      expect(codes.sort(), c.name).toEqual([...c.must].sort());
      if (c.name === 'home-sandbox-clean') expect(report.findings).toEqual([]);
      for (const f of home.filter((x) => isMine(x.code) && x.location.line !== undefined))
        expect(f.location.byteOffset, f.code).toBeTypeOf('number');
      expect(raw).not.toMatch(/\n\s+at .*\.ts:\d+/);
      expect(treeState(dir)).toEqual(before);
    });

  test('home-sandbox-violation-gone: the EPERM after an ApplyFailed is said', async () => {
    const c = grokSandboxCases().find((x) => x.name === 'home-sandbox-violation-gone')!;
    const dir = join(tmp, 'eperm');
    write(dir, c.files);
    const { home } = await audit(dir);
    const v = home.filter((f) => f.code === 'GROK_SANDBOX_VIOLATION_OUTSIDE_SESSIONS');
    expect(v).toHaveLength(1);
    expect(v[0]!.message).toContain('ordinary EPERM');
    expect(v[0]!.location).toMatchObject({ line: 2, byteOffset: expect.any(Number) });
  });

  test('home-worktrees-gone: the old row a note, the recent one a warning', async () => {
    const c = grokSandboxCases().find((x) => x.name === 'home-worktrees-gone')!;
    const dir = join(tmp, 'wt-grades');
    write(dir, c.files);
    const { home } = await audit(dir);
    const gone = home.filter((f) => f.code === 'GROK_WORKTREE_SESSION_GONE');
    expect(gone.map((f) => [keyOf(f)?.slice(-4), f.severity]).sort()).toEqual([
      ['d001', 'note'],
      ['d002', 'warning'],
    ]);
  });
});

describe('a copied clean home with sessions deleted', () => {
  test('every deleted session the worktree pool names is reported with its source, none invented', async () => {
    const dir = join(tmp, 'deleted');
    write(dir, renderSandboxHome());
    const ids = ['019a3f2c-1d00-7a3e-8000-00000000a001', '019a3f6b-8e40-7b11-8000-00000000a002'];
    for (const id of ids) rmSync(join(dir, '.grok', 'sessions', '%2Fhome%2Fdev%2Fproj', id), { recursive: true });
    const before = treeState(dir);
    const { home } = await audit(dir);
    const gone = home.filter((f) => f.code === 'GROK_WORKTREE_SESSION_GONE');
    expect(gone.map(keyOf).sort()).toEqual([...ids].sort());
    for (const f of gone) expect(f.location.file).toBe('worktrees.db');
    expect(home.filter((f) => f.code.startsWith('GROK_WORKTREE_')).every((f) => ids.includes(keyOf(f)!))).toBe(true);
    // The sandbox violation of the top session now falls in no session (the subagent's span ended before it).
    expect(home.filter((f) => f.code === 'GROK_SANDBOX_VIOLATION_OUTSIDE_SESSIONS')).toHaveLength(1);
    expect(treeState(dir)).toEqual(before);
    const list = await cli(['sessions', dir, '--format', 'json']);
    const rows = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    const listed = JSON.stringify(rows);
    for (const id of ids) expect(listed).toContain(id);
    expect(listed).toContain('worktrees.db');
  });
});

describe('hostile files give a finding, not a throw', () => {
  const hostile = async (name: string, edit: (f: Files) => void, code: string) => {
    const dir = join(tmp, 'hostile', name);
    const files = renderSandboxHome();
    edit(files);
    write(dir, files);
    const before = treeState(dir);
    const { report, home, raw } = await audit(dir, '--max-line-bytes', '65536');
    expect(report.toolErrors ?? []).toEqual([]);
    expect(home.map((f) => f.code)).toContain(code);
    expect(raw).not.toMatch(/\n\s+at .*\.ts:\d+/);
    expect(treeState(dir)).toEqual(before);
  };

  test('a huge line and a line that is not UTF-8 in the sandbox log', () =>
    hostile(
      'sandbox',
      (f) => {
        const target = 'x'.repeat(200_000);
        const huge = `{"timestamp":"2026-08-19T09:30:01Z","event_type":"FsViolation","target":"${target}"}\n`;
        const bad = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]);
        f.set(SANDBOX, Buffer.concat([Buffer.from(eventsText(cleanEvents()) + huge), bad]));
      },
      'GROK_SANDBOX_UNREADABLE',
    ));

  test('a worktrees.db with a wrong schema, and one that is not a database', async () => {
    await hostile(
      'wt-schema',
      (f) => f.set(WORKTREES, Buffer.from('not a database at all'.repeat(10))),
      'GROK_WORKTREE_DB_UNREADABLE',
    );
  });

  for (const [name, text] of [
    ['quoted key', '"allow_bash_execute" = true\n'],
    ['dotted key', 'a.b = true\n'],
    ['repeated key', 'allow_bash_execute = false\nallow_bash_execute = true\n'],
    ['multi-line string', 'edit_policy = """\nask"""\n'],
    ['inline table', 'edit_policy = { a = 1 }\n'],
    ['unclosed array', 'allowed_bash_commands = ["ls",\n'],
    ['not UTF-8', Buffer.from([0x61, 0x20, 0x3d, 0x20, 0x22, 0xc3, 0x28, 0x22, 0x0a])],
  ] as const)
    test(`a permission.toml with a ${name}`, () =>
      hostile(`toml-${name.replace(/ /g, '-')}`, (f) => f.set(PERMISSION, text), 'GROK_PERMISSION_UNREADABLE'));
});

describe('the TOML subset reader', () => {
  test('reads what Grok writes, with each entry placed', () => {
    const r = readTomlSubset(
      Buffer.from('# c\nx = true # t\nlist = [\n  "a", # one\n  \'b\',\n]\ns = "q\\"\\u00e9"\n'),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.entries.map((e) => [e.key, e.value, e.line, e.byteOffset])).toEqual([
      ['x', true, 2, 4],
      ['list', ['a', 'b'], 3, 17],
      ['s', 'q"é', 7, 48],
    ]);
  });

  test('refuses a number, a date and a table with the line it starts on', () => {
    for (const [t, line] of [
      ['a = 1\n', 1],
      ['ok = true\nd = 1979-05-27\n', 2],
      ['ok = true\n\n[t]\n', 3],
    ] as const) {
      const r = readTomlSubset(Buffer.from(t));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.line).toBe(line);
    }
  });
});
