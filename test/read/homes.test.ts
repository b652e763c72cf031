/**
 * Evidence as reviewers receive it (issue 28.1): a user's home, or a disk image's `home/` with several, holds the
 * agents' sessions in dot-directories. Every command that takes paths enters each agent's own home wherever it
 * appears (down its session roots only), passes over every other dot entry, says which homes it entered, and writes
 * nothing into them.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { changes, fingerprint } from '../helpers/fingerprint.js';

const work = mkdtempSync(join(tmpdir(), 'sa-homes-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Where each agent's clean case goes in a home, and how many sessions an audit of that case alone finds. */
const LAYOUT: Array<{ agent: string; from: string[]; to: string }> = [
  { agent: 'grok', from: ['grok/clean/sessions'], to: '.grok/sessions' },
  { agent: 'codex', from: ['codex/clean/sessions', 'codex/clean/archived_sessions'], to: '.codex' },
  { agent: 'claude', from: ['claude/clean/projects'], to: '.claude/projects' },
  { agent: 'pi', from: ['pi/clean/sessions'], to: '.pi/agent/sessions' },
  { agent: 'hermes', from: ['hermes/clean'], to: '.hermes' },
  { agent: 'copilot', from: ['copilot/clean'], to: '.copilot' },
  { agent: 'gemini', from: ['gemini/clean'], to: '.gemini' },
  { agent: 'opencode', from: ['opencode/clean'], to: '.local/share/opencode' },
];

/** The home a session is reported in: the agent's dot-directory, or its own folder under `.local` and `.config`. */
const homeOf = (to: string): string => (/^\.(local|config)\//.test(to) ? to : to.split('/')[0]!);

/** A home holding every agent's clean case under its dot-directory, and dot entries that are no agent's home. */
function makeHome(home: string): void {
  for (const { from, to } of LAYOUT) {
    for (const f of from) {
      const dest = from.length > 1 ? join(home, to, f.split('/').pop()!) : join(home, to);
      cpSync(join(CORPORA, f), dest, { recursive: true, filter: (src) => !src.endsWith('expected.json') });
    }
  }
  // Sessions where no agent keeps them: in a dot-directory that is no agent's home, and below an agent's home
  // outside its session roots. Neither is entered.
  cpSync(join(CORPORA, 'codex', 'clean', 'sessions'), join(home, '.cache', 'old', 'sessions'), { recursive: true });
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions'), join(home, '.grok', 'backup'), { recursive: true });
  mkdirSync(join(home, 'work', 'project'), { recursive: true });
}

const audit = async (path: string): Promise<AuditReport> => {
  const r = await cli(['audit', path, '--format', 'json', '--fail-on', 'never']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as AuditReport;
};

describe('a home and a disk image of two homes', () => {
  const image = join(work, 'image');
  const alice = join(image, 'home', 'alice');
  const bob = join(image, 'home', 'bob');
  makeHome(alice);
  makeHome(bob);
  const before = fingerprint(image);

  test('audit finds every agent session of each home, says which homes it entered, and nothing else', async () => {
    // What each clean case yields audited alone: the home must yield exactly that, per agent.
    const alone = new Map<string, number>();
    for (const { agent, from } of LAYOUT) {
      let n = 0;
      for (const f of from) n += (await audit(join(CORPORA, f))).summary.sessions;
      alone.set(agent, n);
    }
    const one = await audit(alice);
    const byFormat = (r: AuditReport, prefix: string): Map<string, number> => {
      const m = new Map<string, number>();
      // An agent home's own files (the Grok prompt history of the clean tree) are an entry, not a session.
      for (const s of r.sessions)
        if (s.path.startsWith(prefix) && s.kind !== 'home') m.set(s.format, (m.get(s.format) ?? 0) + 1);
      return m;
    };
    expect(byFormat(one, alice)).toEqual(alone);
    expect(
      one.sessions
        .filter((s) => s.kind !== 'home')
        .every((s) => s.home === join(alice, homeOf(LAYOUT.find((l) => l.agent === s.format)!.to))),
    ).toBe(true);
    expect(one.sessions.some((s) => s.path.includes('.cache') || s.path.includes('.grok/backup'))).toBe(false);
    const both = await audit(image);
    expect(byFormat(both, alice)).toEqual(alone);
    expect(byFormat(both, bob)).toEqual(alone);
    // Two users' copies of one session are judged within each home: not duplicates of each other.
    expect(both.findings.filter((f) => f.severity !== 'note')).toEqual([]);
    const text = await cli(['audit', image, '--fail-on', 'never'], { columns: 200 });
    expect(text.stdout).toMatch(/^Entered 16 agent homes: .*\/home\/alice\/\.claude \(2 sessions\), /m);
    expect(text.stdout).toContain(`${join(alice, '.local/share/opencode')} (1 session)`);
    expect(text.stdout).toContain('and 6 more (the JSON report names each).');
  });

  test('archive, sessions, lineage and bundle find the same sessions; nothing is written into the homes', async () => {
    const sessions = (await audit(image)).summary.sessions;
    const store = join(work, 'store');
    const a = await cli(['archive', image, '--store', store]);
    expect(a.code, a.stderr).toBe(0);
    const cap = await cli(['captures', '--store', store, '--format', 'json']);
    const listed = (JSON.parse(cap.stdout) as { sessions: Array<{ id: string; agent: string }> }).sessions;
    // The store also keeps each group's own files (prompt histories) as sessions of their own, of no agent.
    expect(listed.filter((s) => s.agent !== '').length).toBe(sessions);
    const listed2 = await cli(['sessions', image, '--format', 'json']);
    expect(listed2.code, listed2.stderr).toBe(0);
    const rows = (JSON.parse(listed2.stdout) as { sessions: Array<{ agent: string; path: string }> }).sessions;
    expect(rows.length).toBe(sessions);
    for (const who of [alice, bob])
      for (const agent of LAYOUT.map((x) => x.agent))
        expect(
          rows.some((r) => r.agent === agent && r.path.startsWith(who)),
          `${who} ${agent}`,
        ).toBe(true);
    const l = await cli(['lineage', image, '--format', 'json']);
    expect(l.code, l.stderr).toBe(0);
    const roots = (JSON.parse(l.stdout) as { roots: Array<{ root: string }> }).roots.map((r) => r.root);
    for (const who of [alice, bob])
      for (const h of ['.codex', '.grok', '.claude', '.pi']) {
        expect(
          roots.some((r) => r.startsWith(join(who, h))),
          `${who}/${h}`,
        ).toBe(true);
      }
    const bag = join(work, 'image.zip');
    const b = await cli(['bundle', image, '-o', bag]);
    // Each user's Grok home has its prompt history and each Copilot home its session-store.db: four homes beside
    // the sessions.
    const bundled = new RegExp(`^Bundled ${sessions} sessions and 4 agent homes, `);
    expect([b.code, b.stdout]).toEqual([0, expect.stringMatching(bundled)]);
    expect((await cli(['verify', bag])).code).toBe(0);
    expect(changes(before, fingerprint(image))).toEqual([]);
  });
});
