/**
 * ~/.claude.json and ~/.claude/file-history/ judged against the home's transcripts: a copied clean home stays
 * clean; deleted transcripts are reported with their source, none invented; nothing is written (fingerprints of
 * every file, .claude.json included, equal before and after); hostile input gives a finding, never a throw.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { diffStates, treeState } from '../helpers/tree-hash.js';

const HOME = /^CLAUDE_(PROJECT|CONFIG|FILE_HISTORY)_/;
const MAIN = '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01';
const SECOND = '5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c02';
let dir: string;

const copy = (name: string): string => {
  const to = join(dir, name);
  cpSync(join(CORPORA, 'claude', 'home-config-clean'), to, { recursive: true });
  rmSync(join(to, 'expected.json'));
  return to;
};
const audit = async (root: string): Promise<AuditReport> =>
  JSON.parse((await cli(['audit', root, '--format', 'json', '--fail-on', 'never'])).stdout) as AuditReport;
const codes = (r: AuditReport): string[] => r.findings.map((f) => f.code).filter((c) => HOME.test(c));

describe('claude ~/.claude.json and file-history', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sa-claude-config-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a copied clean home is clean and read-only', async () => {
    const root = copy('clean');
    const before = treeState(root);
    expect(codes(await audit(root))).toEqual([]);
    expect(diffStates(before, treeState(root))).toEqual([]);
  });

  test('deleted transcripts are each reported with their source, none invented', async () => {
    const root = copy('deleted');
    const project = join(root, '.claude', 'projects', '-home-dev-app');
    unlinkSync(join(project, `${MAIN}.jsonl`));
    rmSync(join(project, MAIN), { recursive: true });
    unlinkSync(join(project, `${SECOND}.jsonl`));
    const before = treeState(root);
    const r = await audit(root);
    const home = r.findings.filter((f) => HOME.test(f.code));
    const keys = home.map((f) => `${f.code} ${f.location.file}`).sort();
    expect(keys).toEqual([
      'CLAUDE_FILE_HISTORY_SESSION_GONE file-history/' + MAIN,
      'CLAUDE_PROJECT_GRANTS_WITHOUT_TRANSCRIPT ../.claude.json',
      'CLAUDE_PROJECT_LAST_SESSION_GONE ../.claude.json',
    ]);
    for (const f of home) expect(f.message).not.toContain('dev@example.invalid');
    expect(diffStates(before, treeState(root))).toEqual([]);
  });

  test('a .claude.json that is huge, not JSON, of the wrong shape or a symlink is a finding', async () => {
    const cases: Array<[string, (p: string) => void]> = [
      ['huge', (p) => writeFileSync(p, Buffer.alloc(65 * 1024 * 1024, 0x20))],
      ['not-json', (p) => writeFileSync(p, 'not json {')],
      ['projects', (p) => writeFileSync(p, '{"projects": [1, 2]}')],
      ['deep', (p) => writeFileSync(p, `{"projects":${'['.repeat(5000)}${']'.repeat(5000)}}`)],
      [
        'symlink',
        (p) => {
          unlinkSync(p);
          symlinkSync('/etc/passwd', p);
        },
      ],
    ];
    for (const [name, make] of cases) {
      const root = copy(`hostile-${name}`);
      make(join(root, '.claude.json'));
      const r = await audit(root);
      expect(r.toolErrors ?? []).toEqual([]);
      expect(codes(r), name).toEqual(['CLAUDE_CONFIG_UNREADABLE']);
    }
  });
});
