/**
 * Nothing vanishes in silence (issue 18 §7): a session deeper than discovery searches, a session directory or a
 * whole group that cannot be listed, a log that cannot be read, each is a finding in every command that walks a tree,
 * never a shorter list.
 */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { MAX_DISCOVERY_DEPTH } from '../../src/read/discover.js';
import { cli } from '../helpers/cli.js';
import { BUILT, runBuilt } from '../helpers/cli-child.js';
import { CLEAN_GROUP, CHILD_ID, GROUP, MAIN_ID } from '../helpers/crash-states.js';
import { asDenied, denial, storeDirFor } from '../helpers/denial.js';
import { CORPORA } from '../helpers/corpora.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-gaps-'));
afterAll(() => {
  spawnSync('chmod', ['-R', 'u+rwx', scratch]);
  rmSync(scratch, { recursive: true, force: true });
});

/** The clean main session, `levels` directories below a fresh root (its group counts as one of them). */
function deepSession(name: string, levels: number): { root: string; group: string } {
  const root = join(scratch, name);
  const dirs = Array.from({ length: levels - 1 }, (_, i) => `d${i}`);
  const group = join(root, ...dirs, GROUP);
  mkdirSync(group, { recursive: true });
  cpSync(join(CLEAN_GROUP, MAIN_ID), join(group, MAIN_ID), { recursive: true });
  return { root, group };
}

const audit = async (root: string): Promise<AuditReport> =>
  JSON.parse((await cli(['audit', root, '--format', 'json', '--fail-on', 'never'])).stdout) as AuditReport;

describe('depth', () => {
  test('a session ten levels deep is found', async () => {
    const { root } = deepSession('ten', 10);
    const report = await audit(root);
    expect(report.sessions.map((s) => s.id)).toEqual([MAIN_ID]);
    expect(report.findings.filter((f) => f.code === 'SESSION_NOT_SEARCHED')).toEqual([]);
  });

  test('below the deepest level searched, the directory not searched is a warning that names it', async () => {
    const { root } = deepSession('deep', MAX_DISCOVERY_DEPTH + 3);
    const report = await audit(root);
    expect(report.sessions.some((s) => s.id === MAIN_ID)).toBe(false);
    const gap = report.findings.filter((f) => f.code === 'SESSION_NOT_SEARCHED');
    expect(gap).toHaveLength(1);
    expect(gap[0]!.severity).toBe('warning');
    expect(gap[0]!.sessionPath).toBe(join(root, ...Array.from({ length: MAX_DISCOVERY_DEPTH }, (_, i) => `d${i}`)));
    expect(gap[0]!.message).toMatch(/were not searched for sessions: give it as an argument/);
  });
});

const deny = denial();

describe.skipIf(!BUILT || !deny)(
  `unreadable sessions and groups (${deny?.why ?? 'no way to deny a read here: skipped'})`,
  () => {
    const tree = (name: string): { root: string; group: string } => {
      const root = join(scratch, name);
      cpSync(join(CLEAN_GROUP, '..', '..'), root, { recursive: true });
      spawnSync('chmod', ['-R', 'a+rX', scratch]);
      chmodSync(scratch, 0o755);
      return { root, group: join(root, 'sessions', GROUP) };
    };

    test('a session that cannot be listed is an error, and the audit fails', () => {
      const { root, group } = tree('session-000');
      chmodSync(join(group, CHILD_ID), 0o000);
      const r = runBuilt(['audit', root, '--format', 'json'], asDenied(deny!));
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as AuditReport;
      const gap = report.findings.filter((f) => f.code === 'SESSION_UNREADABLE');
      expect(gap.map((f) => [f.session, f.severity])).toEqual([[CHILD_ID, 'error']]);
      expect(gap[0]!.message).toMatch(/EACCES/);
      // The parents that link to it say they cannot read it, not that it does not exist.
      for (const f of report.findings.filter((x) => x.code === 'XREF_SUBAGENT'))
        expect(f.message).toMatch(/cannot be read \(EACCES\)/);
    });

    test('a Pi session file that cannot be read is an error, not one session fewer', () => {
      const root = join(scratch, 'pi-000');
      cpSync(join(CORPORA, 'pi', 'clean'), root, { recursive: true });
      spawnSync('chmod', ['-R', 'a+rX', root]);
      const name = '2026-03-12T10-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a02.jsonl';
      chmodSync(join(root, 'sessions', '--home-dev-app--', name), 0o000);
      const r = runBuilt(['audit', root, '--format', 'json'], asDenied(deny!));
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as AuditReport;
      expect(report.sessions).toHaveLength(4);
      const gap = report.findings.filter((f) => f.code === 'SESSION_UNREADABLE');
      expect(gap.map((f) => [f.location.file, f.severity])).toEqual([[name, 'error']]);
    });

    test('a log under a name no agent uses, that cannot be read, is an error, not passed over', () => {
      const root = join(scratch, 'codex-000');
      cpSync(join(CORPORA, 'codex', 'clean'), root, { recursive: true });
      rmSync(join(root, 'expected.json'), { force: true });
      const day = join(root, 'sessions', '2026', '03', '03');
      const [log] = readdirSync(day);
      mkdirSync(join(root, 'exports'));
      // Readable, it is a session (recognised by its first lines); a neighbour that is no agent's log is nothing.
      cpSync(join(day, log!), join(root, 'exports', 'notes.jsonl'));
      writeFileSync(join(root, 'exports', 'metrics.jsonl'), '{"cpu":0.5}\n');
      spawnSync('chmod', ['-R', 'a+rX', root]);
      const readable = JSON.parse(runBuilt(['audit', root, '--format', 'json'], asDenied(deny!)).stdout) as AuditReport;
      chmodSync(join(root, 'exports', 'notes.jsonl'), 0o000);
      const r = runBuilt(['audit', root, '--format', 'json'], asDenied(deny!));
      expect(r.code, r.stderr).toBe(1);
      const report = JSON.parse(r.stdout) as AuditReport;
      expect(report.sessions).toHaveLength(readable.sessions.length);
      const gap = report.findings.filter((f) => f.code === 'SESSION_UNREADABLE');
      expect(gap.map((f) => [f.location.file, f.severity])).toEqual([['notes.jsonl', 'error']]);
      expect(gap[0]!.message).toBe(
        "a file in the tree could not be read: reading it failed (EACCES); whether it is an agent's log needs its " +
          'first lines to tell; it is not audited',
      );
      // Named on the command line itself: the same finding, not "not a session file" with a --format-hint to try.
      const alone = runBuilt(['audit', join(root, 'exports', 'notes.jsonl'), '--format', 'json'], asDenied(deny!));
      expect(alone.code, alone.stderr).toBe(1);
      const named = (JSON.parse(alone.stdout) as AuditReport).findings;
      expect(named.map((f) => [f.code, f.location.file, f.message])).toEqual([
        ['SESSION_UNREADABLE', 'notes.jsonl', gap[0]!.message],
      ]);
      const store = join(scratch, 'codex-000-store');
      storeDirFor(deny!, store);
      const a = runBuilt(['archive', root, '--store', store], asDenied(deny!));
      expect(a.code, a.stderr).toBe(1);
      expect(a.stderr).toMatch(/^session-audit: error: .*notes\.jsonl: not archived: reading it failed \(EACCES\)/m);
      const lineage = runBuilt(['lineage', root], asDenied(deny!));
      expect(lineage.stderr).toMatch(/^session-audit: 1 file not read, so not in the lineage .*\n {2}.*notes\.jsonl: /);
    });

    test('archive of a Pi tree with a file it cannot read says so and exits 1 (cron mails it)', () => {
      const root = join(scratch, 'pi-000-archive');
      cpSync(join(CORPORA, 'pi', 'clean'), root, { recursive: true });
      spawnSync('chmod', ['-R', 'a+rX', root]);
      const name = '2026-03-12T10-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a02.jsonl';
      chmodSync(join(root, 'sessions', '--home-dev-app--', name), 0o000);
      const store = join(scratch, 'pi-000-store');
      storeDirFor(deny!, store);
      const r = runBuilt(['archive', root, '--store', store], asDenied(deny!));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${name}: cannot be opened (EACCES): its bytes are not kept`);
    });

    test('archive of a tree with a group it cannot list says so and exits 1', () => {
      const { root, group } = tree('group-000-archive');
      chmodSync(group, 0o000);
      const store = join(scratch, 'group-000-store');
      storeDirFor(deny!, store);
      const r = runBuilt(['archive', root, '--store', store], asDenied(deny!));
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^session-audit: error: .*: not archived: listing it failed \(EACCES\)$/m);
    });

    test('a whole group that cannot be listed is an error, not "no session found"', () => {
      const { root, group } = tree('group-000');
      chmodSync(group, 0o000);
      const r = runBuilt(['audit', root, '--format', 'json'], asDenied(deny!));
      expect(r.code, r.stderr).toBe(1);
      const report = JSON.parse(r.stdout) as AuditReport;
      expect(report.findings.map((f) => [f.code, f.sessionPath])).toEqual([['SESSION_UNREADABLE', group]]);
      const v = runBuilt(['validate', root, '--format', 'json'], asDenied(deny!));
      expect(v.code, v.stderr).toBe(1);
      expect((JSON.parse(v.stdout) as AuditReport).findings.map((f) => f.code)).toEqual(['SESSION_UNREADABLE']);
    });

    test('lineage and pairs over a tree with a group that cannot be listed name it, in every format', () => {
      const { root } = tree('group-lineage');
      const hidden = join(root, 'sessions', '%2Fsecret');
      cpSync(join(root, 'sessions', GROUP), hidden, { recursive: true });
      spawnSync('chmod', ['-R', 'a+rX', root]);
      chmodSync(hidden, 0o000);
      const gap = new RegExp(
        '1 directory not read, so not in (the lineage|these tool calls) .*\\n {2}.*%2Fsecret: could not be opened: ' +
          'listing it failed \\(EACCES\\)\\n$',
      );
      for (const args of [
        ['lineage', root],
        ['lineage', root, '--format', 'json'],
        ['pairs', join(root, 'sessions')],
        ['pairs', join(root, 'sessions'), '--format', 'json'],
      ]) {
        const r = runBuilt(args, asDenied(deny!));
        expect(r.code, args.join(' ')).toBe(0);
        expect(r.stderr, args.join(' ')).toMatch(gap);
      }
      const table = runBuilt(['pairs', join(root, 'sessions')], asDenied(deny!)).stdout;
      expect(table).toContain(`${hidden}\nnot read: could not be opened: listing it failed (EACCES)\n`);
      expect(table).not.toMatch(/%2Fsecret\n0 tool call/);
    });
  },
);
