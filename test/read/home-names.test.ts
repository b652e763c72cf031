/**
 * HOME_UNEXPECTED_NAME: a file an agent's home is read for whose name is not valid UTF-8 is listed (never skipped
 * unseen), reported once, hashed with its real bytes, bagged and archived; the agent's own checks never read it as
 * theirs (a file-history folder so named is not a session's, a cwd group so named has no prompt history).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { treeState } from '../helpers/tree-hash.js';

const tmp = mkdtempSync(join(tmpdir(), 'home-names-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A path holding a byte that is not valid UTF-8 (0xff), as the file system takes it. */
const raw = (...parts: string[]): Buffer =>
  Buffer.concat([Buffer.from(parts[0]!), Buffer.from([0xff]), ...parts.slice(1).map((p) => Buffer.from(p))]);

async function homeFindings(dir: string): Promise<AuditReport['findings']> {
  const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never']);
  const report = JSON.parse(r.stdout) as AuditReport;
  const homes = new Set(report.sessions.filter((s) => s.kind === 'home').map((s) => s.path));
  return report.findings.filter((f) => homes.has(f.sessionPath));
}

test("a Claude file-history folder named not in UTF-8 is reported, inventoried, not read as a session's", async () => {
  const dir = join(tmp, 'claude');
  cpSync('corpora/claude/home-file-history-backup-missing', dir, { recursive: true });
  rmSync(join(dir, 'expected.json'), { force: true });
  const folder = raw(join(dir, '.claude/file-history/x'), 'y');
  mkdirSync(folder);
  writeFileSync(Buffer.concat([folder, Buffer.from('/v@1')]), 'a version\n');
  const before = treeState(dir);
  const found = await homeFindings(join(dir, '.claude'));
  const named = found.filter((f) => f.code === 'HOME_UNEXPECTED_NAME');
  expect(named.map((f) => [f.location.file, f.severity])).toEqual([['file-history/x\\xffy/v@1', 'warning']]);
  expect(named[0]!.message).toContain(Buffer.from('file-history/x\xffy/v@1', 'latin1').toString('base64'));
  expect(found.filter((f) => f.location.file?.includes('\\xff') && f.code !== 'HOME_UNEXPECTED_NAME')).toEqual([]);
  expect(found.some((f) => f.message.includes('x\\xffy') && f.code.startsWith('CLAUDE_'))).toBe(false);
  expect(treeState(dir)).toEqual(before);
});

test('a Grok prompt history in a cwd group whose name is not UTF-8 is reported, bagged and archived', async () => {
  const dir = join(tmp, 'grok');
  cpSync('corpora/grok/home-prompt-history-clean/.grok', join(dir, '.grok'), { recursive: true });
  const group = raw(join(dir, '.grok/sessions/proj'));
  mkdirSync(group);
  const line = JSON.stringify({ timestamp: '2026-08-19T09:00:00Z', session_id: 'x', prompt: 'hi', is_bash: false });
  writeFileSync(Buffer.concat([group, Buffer.from('/prompt_history.jsonl')]), `${line}\n`);
  const before = treeState(dir);
  const found = await homeFindings(join(dir, '.grok'));
  expect(found.map((f) => [f.code, f.location.file])).toEqual([
    ['HOME_UNEXPECTED_NAME', 'sessions/proj\\xff/prompt_history.jsonl'],
  ]);
  const bag = join(tmp, 'grok-bag');
  const b = await cli(['bundle', join(dir, '.grok'), '-o', bag]);
  expect(b.code).toBe(0);
  const v = await cli(['verify', bag]);
  expect(v.code).toBe(0);
  const store = join(tmp, 'store');
  const a = await cli(['archive', join(dir, '.grok'), '--store', store]);
  expect(a.stdout).toMatch(/sessions \d+ new/);
  const fromStore = join(tmp, 'grok-store-bag');
  expect((await cli(['bundle', '--from-store', store, '--session', 'home:grok', '-o', fromStore])).code).toBe(0);
  for (const b of [bag, fromStore])
    expect(readFileSync(join(b, 'manifest-sha256.txt'), 'utf8')).toMatch(
      /data\/grok\/home\/sessions\/proj\S*\/prompt_history/,
    );
  expect(treeState(dir)).toEqual(before);
});
