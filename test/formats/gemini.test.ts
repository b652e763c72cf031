/**
 * Gemini CLI sessions: the real files in ../shared/external/gemini (legacy .json sessions copied by Entire CLI, and
 * files the real CLI 0.56.0 wrote) audit to exactly the findings that are really in them; every command runs on
 * each of them without changing a byte, a mode, an mtime or a directory listing; inspect names the resume command
 * and says that starting the CLI may delete the files.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { diffStates, treeState } from '../helpers/tree-hash.js';

/** Beside the checkout (../shared); SESSION_AUDIT_EXTERNAL names another place (a worktree elsewhere). */
const EXTERNAL = process.env.SESSION_AUDIT_EXTERNAL
  ? join(process.env.SESSION_AUDIT_EXTERNAL, 'gemini')
  : fileURLToPath(new URL('../../../shared/external/gemini', import.meta.url));
const present = existsSync(EXTERNAL);
if (!present)
  console.warn(`skipping the real Gemini CLI files: ${EXTERNAL} is absent (third-party data outside the repository)`);

const scratch = mkdtempSync(join(tmpdir(), 'sa-gemini-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const audit = async (...args: string[]): Promise<AuditReport> => {
  const r = await cli(['audit', ...args, '--format', 'json', '--fail-on', 'never']);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as AuditReport;
};

/** Every session file under the real set (one per session but C-resume-later-minute, whose two files are one). */
function sessionFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sessionFiles(p));
    else if (/\.jsonl?$/.test(name) && name !== 'projects.json') out.push(p);
  }
  return out;
}

describe.skipIf(!present)('the real Gemini CLI files (../shared/external/gemini)', () => {
  /**
   * Every finding, each checked against the files:
   * - LINEAGE_DUPLICATE_ID (notes): Entire CLI kept six copies of session f7633853 (one per checkpoint), and the
   *   spec's author ran the CLI three times from the same session b8a24d85 (A, B, C) and kept before/after copies
   *   of 9b407c5c (E) beside Entire's: 6 + 3 + 3 sessions sharing ids, all copies made outside the CLI;
   * - GEMINI_METADATA_REPEATED (note): B's line 12, the second metadata line a resume in the same minute writes;
   * - GEMINI_REAPPEND_LOST_CALLS (note): B's line 15, the resume snapshot rebuilt without the toolCalls of line 7;
   * - GEMINI_DELETED_AT_START (warning): C's stray …T21-50-b8a24d85.jsonl (metadata and context only): the next
   *   start deletes it and, sharing its id, the original …T20-10-….jsonl (observed by the spec's author);
   * - GEMINI_REWRITTEN_BY_CLI (note): E's after-….json carries userMessageCount and hasResumableContent;
   * - TOOL_SYNTHETIC_RESULT (note): 12cbfeaa512b's replace call, cancelled by the user ("[Operation Cancelled]").
   * No error: nothing in these files is broken.
   */
  test('they audit to exactly the findings that are really in them, and none is an error', async () => {
    const rep = await audit(EXTERNAL);
    expect(rep.toolErrors).toEqual([]);
    expect(rep.sessions.length).toBe(19);
    const got = rep.findings
      .filter((f) => f.code !== 'LINEAGE_DUPLICATE_ID')
      .map((f) => `${f.location.file}:${f.location.line ?? ''} ${f.code} ${f.severity}`)
      .sort();
    expect(got).toEqual([
      'after-session-2026-01-22T20-05-9b407c5c.json:1 GEMINI_REWRITTEN_BY_CLI note',
      'session-2026-01-10T07-58-e0f3d3a9.json:259 TOOL_SYNTHETIC_RESULT note',
      'session-2026-12-01T21-49-b8a24d85.jsonl:12 GEMINI_METADATA_REPEATED note',
      'session-2026-12-01T21-49-b8a24d85.jsonl:15 GEMINI_REAPPEND_LOST_CALLS note',
      'session-2026-12-01T21-50-b8a24d85.jsonl:1 GEMINI_DELETED_AT_START warning',
    ]);
    const dups = rep.findings.filter((f) => f.code === 'LINEAGE_DUPLICATE_ID');
    expect(dups.length).toBe(12);
    expect(dups.every((f) => f.severity === 'note')).toBe(true);
  });

  test('the stray file of a resume and the original are one session, shown by the original', async () => {
    const rep = await audit(join(EXTERNAL, 'generated-cli-0.56.0/C-resume-later-minute'));
    expect(rep.sessions.map((s) => s.path.split('/').pop())).toEqual(['session-2026-12-01T20-10-b8a24d85.jsonl']);
    const f = rep.findings.find((x) => x.code === 'GEMINI_DELETED_AT_START')!;
    expect(f.message).toContain('session-2026-12-01T20-10-b8a24d85.jsonl');
  });

  test('pairs: a call and its result are one toolCalls entry; the v0.44+ user copy is no second result', async () => {
    const file = join(
      EXTERNAL,
      'generated-cli-0.56.0/D-tool-error/tmp/proj/chats/session-2026-12-01T21-56-5d69509a.jsonl',
    );
    const r = await cli(['pairs', file, '--format', 'json']);
    const rows = (JSON.parse(r.stdout) as { sessions: Array<{ rows: Array<{ status: string }> }> }).sessions[0]!.rows;
    expect(rows.map((x) => x.status)).toEqual(['answered', 'answered', 'answered']);
  });

  test('every command runs on every real file, and no byte, mode, mtime or listing changes', async () => {
    const before = treeState(EXTERNAL);
    const files = sessionFiles(EXTERNAL);
    expect(files.length).toBe(20);
    for (const file of files) {
      const name = relative(EXTERNAL, file);
      for (const cmd of ['timeline', 'pairs', 'inspect', 'transcript', 'activity']) {
        const r = await cli([cmd, file]);
        expect(r.code, `${cmd} ${name}: ${r.stderr}`).toBe(0);
        expect(r.stderr, `${cmd} ${name}`).toBe('');
        expect(r.stdout.length, `${cmd} ${name}`).toBeGreaterThan(0);
      }
    }
    for (const cmd of [['validate', '--fail-on', 'never'], ['lineage'], ['sessions']]) {
      const r = await cli([cmd[0]!, EXTERNAL, ...cmd.slice(1)]);
      expect(r.code, `${cmd[0]}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
    }
    const bag = join(scratch, 'real.zip');
    expect((await cli(['bundle', EXTERNAL, '-o', bag])).code).toBe(0);
    const v = await cli(['verify', bag, '--against', EXTERNAL]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const store = join(scratch, 'store');
    const a = await cli(['archive', EXTERNAL, '--store', store]);
    expect(a.code, a.stderr).toBe(0);
    const q = await cli(['search', 'NewAccessibleForm', '--store', store, '--agent', 'gemini']);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stdout).toContain('session-2026-01-10T07-58-e0f3d3a9.json');
    expect(diffStates(before, treeState(EXTERNAL))).toEqual([]);
  }, 120_000);

  test('inspect names the resume command and says plainly that starting Gemini CLI may delete the files', async () => {
    for (const file of sessionFiles(EXTERNAL)) {
      const r = await cli(['inspect', file]);
      expect(r.stdout, file).toMatch(/gemini --resume [0-9a-f-]{36}/);
      expect(r.stdout, file).toContain('Starting Gemini CLI on this machine (any start, even gemini --list-sessions)');
      expect(r.stdout, file).toContain('may delete these files');
      expect(r.stdout, file).toContain('Bundle or archive first');
      expect(r.stdout, file).toContain('A resume appends to the original file');
    }
    const a = await cli([
      'inspect',
      join(EXTERNAL, 'generated-cli-0.56.0/A-fresh-tool-call/tmp/proj/chats/session-2026-12-01T21-49-b8a24d85.jsonl'),
    ]);
    expect(a.stdout).toContain('cd /home/dev/proj && gemini --resume b8a24d85-0740-41b0-b77f-cd0b10c39694');
    expect(a.stdout).not.toContain('INTERRUPTED');
  });

  test('the transcript shows each call with its result, from the toolCalls entry', async () => {
    const r = await cli(['transcript', join(EXTERNAL, 'generated-cli-0.56.0/D-tool-error')]);
    expect(r.stdout).toContain('✗ failed · codebase_investigator');
    expect(r.stdout).toContain('✓ completed · read_file');
    expect(r.stdout.match(/completed · read_file/g)?.length).toBe(1);
    // After a resume every earlier line is carried on by a snapshot only: each call is still shown, once.
    const b = await cli(['transcript', join(EXTERNAL, 'generated-cli-0.56.0/B-resume-same-minute')]);
    expect(b.stdout.match(/⚙ read read_file/g)?.length).toBe(1);
    expect(b.stdout.match(/completed · read_file/g)?.length).toBe(1);
    expect(b.stdout).toContain('Which file was it?');
  });

  test('activity reads a legacy file: the write, the reads and the cancelled edit', async () => {
    const r = await cli(['activity', join(EXTERNAL, 'entireio-cli/12cbfeaa512b'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('test-gemini.txt');
    expect(r.stdout).toContain('[Operation Cancelled] Reason: User cancelled the operation.');
  });
});
