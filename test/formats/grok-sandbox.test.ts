/**
 * Grok's sandbox event log, worktree pool and permission store (home-artifacts.md §1.3, §1.5, §1.6): each corpora
 * case produces its codes and no other of these; a copied clean home with sessions deleted reports every deleted
 * session the worktree pool names, with its source, and none invented; nothing in the home changes; a hostile line
 * or file (huge, not UTF-8, a TOML with tricks, a database of another schema) is a finding, never a stack trace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { cli } from '../helpers/cli.js';
import { auditCase, auditFiles, auditHome, caseNamed, sessionNamed, writeFiles } from '../helpers/home-cases.js';
import { treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'grok-sandbox-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const MINE = ['GROK_SANDBOX_', 'GROK_WORKTREE_', 'GROK_PERMISSION_'];
const isMine = (c: string) => MINE.some((p) => c.startsWith(p));

describe('the corpora cases', () => {
  for (const c of grokSandboxCases())
    test(c.name, async () => {
      await auditCase(join(tmp, 'cases', c.name), c, isMine, c.name === 'home-sandbox-clean');
    });

  test('home-sandbox-violation-gone: the EPERM after an ApplyFailed is said', async () => {
    const { home } = await auditFiles(
      join(tmp, 'eperm'),
      caseNamed(grokSandboxCases(), 'home-sandbox-violation-gone').files,
    );
    const v = home.filter((f) => f.code === 'GROK_SANDBOX_VIOLATION_OUTSIDE_SESSIONS');
    expect(v).toHaveLength(1);
    expect(v[0]!.message).toContain('ordinary EPERM');
    expect(v[0]!.location).toMatchObject({ line: 2, byteOffset: expect.any(Number) });
  });

  test('home-worktrees-gone: the old row a note, the recent one a warning', async () => {
    const { home } = await auditFiles(
      join(tmp, 'wt-grades'),
      caseNamed(grokSandboxCases(), 'home-worktrees-gone').files,
    );
    const gone = home.filter((f) => f.code === 'GROK_WORKTREE_SESSION_GONE');
    expect(gone.map((f) => [sessionNamed(f)?.slice(-4), f.severity]).sort()).toEqual([
      ['d001', 'note'],
      ['d002', 'warning'],
    ]);
  });
});

describe('a copied clean home with sessions deleted', () => {
  test('every deleted session the worktree pool names is reported with its source, none invented', async () => {
    const dir = join(tmp, 'deleted');
    writeFiles(dir, renderSandboxHome());
    const ids = ['019a3f2c-1d00-7a3e-8000-00000000a001', '019a3f6b-8e40-7b11-8000-00000000a002'];
    for (const id of ids) rmSync(join(dir, '.grok', 'sessions', '%2Fhome%2Fdev%2Fproj', id), { recursive: true });
    const before = treeState(dir);
    const { home } = await auditHome(dir);
    const gone = home.filter((f) => f.code === 'GROK_WORKTREE_SESSION_GONE');
    expect(gone.map(sessionNamed).sort()).toEqual([...ids].sort());
    for (const f of gone) expect(f.location.file).toBe('worktrees.db');
    expect(home.filter((f) => f.code.startsWith('GROK_WORKTREE_')).every((f) => ids.includes(sessionNamed(f)!))).toBe(
      true,
    );
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
    writeFiles(dir, files);
    const before = treeState(dir);
    const { report, home, raw } = await auditHome(dir, '--max-line-bytes', '65536');
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
