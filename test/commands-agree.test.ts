/**
 * Commands that agree (issue 31.5): `lineage` shows the policy `inspect` shows, a root is titled as the user's path
 * names it, a Claude session whose own transcript is missing takes its cwd and creation time from its sub-agents'
 * records, and `inspect` reads the session's turns, not its sub-agents' (a compaction agent that finished its
 * summary is no interrupted turn of the session).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { InspectReport } from '../src/inspect/report.js';
import type { LineageView, ViewNode } from '../src/lineage/view.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const EXTERNAL = fileURLToPath(new URL('../../shared/external', import.meta.url));

const lineage = async (...paths: string[]): Promise<LineageView[]> =>
  (JSON.parse((await cli(['lineage', ...paths, '--format', 'json'])).stdout) as { roots: LineageView[] }).roots;
const inspect = async (path: string): Promise<InspectReport> =>
  JSON.parse((await cli(['inspect', path, '--format', 'json', '--fail-on', 'never'])).stdout) as InspectReport;
const nodes = (v: LineageView[]): ViewNode[] => {
  const out: ViewNode[] = [];
  const walk = (n: ViewNode): void => {
    out.push(n);
    n.children.forEach(walk);
  };
  for (const r of v) r.trees.forEach(walk);
  return out;
};

const CODEX_CLEAN = join(CORPORA, 'codex', 'clean');
/** A session folder of two sub-agent transcripts (one the compaction agent, which ran first), its own one gone. */
const CLAUDE_ORPHAN = join(CORPORA, 'claude', 'subagents-only', 'projects', '-home-dev-app');

describe('lineage and inspect say the same of a session', () => {
  test('a Codex session: the profile column is the policy inspect shows', async () => {
    const dir = join(CODEX_CLEAN, 'sessions', '2026', '03', '02');
    const file = join(dir, readdirSync(dir).sort()[0]!);
    const node = nodes(await lineage(file))[0]!;
    const rep = await inspect(file);
    expect(rep.session.sandboxProfile).toMatch(/^approval /);
    expect(node.profile).toBe(rep.session.sandboxProfile);
  });
  test('a Claude session with only its sub-agents: cwd and creation time from their records', async () => {
    const session = join(CLAUDE_ORPHAN, readdirSync(CLAUDE_ORPHAN)[0]!);
    const node = nodes(await lineage(CLAUDE_ORPHAN))[0]!;
    const rep = await inspect(session);
    expect(node.cwd).toBe('/home/dev/app');
    // The earliest record of either sub-agent (the compaction agent's, though its file sorts second).
    expect(node.created).toBe('2026-03-10T14:00:30.000Z');
    expect([rep.session.cwd, rep.session.createdAt]).toEqual([node.cwd, node.created]);
  });
  test('a Claude session with only its sub-agents: inspect reads none of their turns as its own', async () => {
    const rep = await inspect(join(CLAUDE_ORPHAN, readdirSync(CLAUDE_ORPHAN)[0]!));
    expect(rep.state).toBe('no-turns');
    expect(rep.lastTurn).toBeUndefined();
  });
  test.skipIf(!existsSync(join(EXTERNAL, 'claude')))('the real sub-agent folder (a compaction agent)', async () => {
    const session = join(EXTERNAL, 'claude', '258c7280-ae70-4798-800f-63464d01a85d');
    const rep = await inspect(session);
    expect(rep.state).not.toBe('interrupted');
    expect(rep.session.cwd).toBe('/home/USER/projects/spotter-worktrees/spotter-gqc');
    expect(rep.session.createdAt).toBe('2026-02-11T20:57:47.609Z');
    const node = nodes(await lineage(join(EXTERNAL, 'claude'))).find((n) => n.id.startsWith('258c7280'))!;
    expect([node.cwd, node.created]).toEqual([rep.session.cwd, rep.session.createdAt]);
  });
});

describe('a root is titled as the user named it', () => {
  test('a Codex root: the argument, not the date folders below it', async () => {
    const roots = await lineage(CODEX_CLEAN);
    expect(roots.map((r) => r.root)).toEqual([CODEX_CLEAN]);
  });
  test('an agent home: the .codex folder', async () => {
    const home = mkdtempSync(join(tmpdir(), 'sa-home-'));
    const day = join(home, '.codex', 'sessions', '2026', '03', '02');
    mkdirSync(day, { recursive: true });
    cpSync(join(CODEX_CLEAN, 'sessions', '2026', '03', '02'), day, { recursive: true });
    const roots = await lineage(home);
    expect(roots.map((r) => r.root)).toEqual([join(home, '.codex')]);
  });
  test('one session file: the folder that holds it', async () => {
    const dir = join(CODEX_CLEAN, 'sessions', '2026', '03', '02');
    const roots = await lineage(join(dir, readdirSync(dir).sort()[0]!));
    expect(roots.map((r) => r.root)).toEqual([dir]);
  });
});
