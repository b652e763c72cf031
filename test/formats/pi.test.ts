/**
 * Pi sessions: the two real v1 files in ../shared/external/pi audit to exactly the findings that are really in them,
 * every command runs on them (and on one file) without changing a byte, pairing matches a count made here from the
 * raw lines, compaction indexes resolve; plus the synthetic corpora (checked-in = generated), detection by content
 * in every layout, and the evidence warnings of inspect.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { generateAgentCorpora } from '../../scripts/gen-corpora.js';
import { PI_LAYOUT, piCases, piCleanTree } from '../../scripts/corpora/cases-pi.js';
import { catalog } from '../../src/checks/catalog.js';
import { validator } from '../../src/formats/schema-runtime.js';
import { SessionLine } from '../../src/formats/pi/models.js';
import { PI_SCHEMAS } from '../../src/formats/pi/schemas.js';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { expectModelAndSchemaAgree, expectShippedCorpora } from '../helpers/agent-corpora.js';
import { diffStates, treeState } from '../helpers/tree-hash.js';

const EXTERNAL = fileURLToPath(new URL('../../../shared/external/pi', import.meta.url));
const present = existsSync(EXTERNAL);
if (!present)
  console.warn(`skipping the real Pi session files: ${EXTERNAL} is absent (third-party data outside the repository)`);

const scratch = mkdtempSync(join(tmpdir(), 'sa-pi-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Block = { type?: string; id?: string };
type Rec = { type?: string; message?: { role?: string; stopReason?: string; toolCallId?: string; content?: unknown } };
const records = (name: string): Rec[] =>
  readFileSync(join(EXTERNAL, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Rec);
const calls = (r: Rec): Block[] =>
  r.message?.role === 'assistant' && Array.isArray(r.message.content)
    ? (r.message.content as Block[]).filter((b) => b.type === 'toolCall')
    : [];

const audit = async (...args: string[]): Promise<AuditReport> => {
  const r = await cli(['audit', ...args, '--format', 'json', '--fail-on', 'never']);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as AuditReport;
};
const summary = (rep: AuditReport): string[] =>
  rep.findings.map((f) => `${f.location.file}:${f.location.line ?? ''} ${f.code} ${f.severity}`).sort();

describe.skipIf(!present)('the real Pi files (../shared/external/pi)', () => {
  /**
   * Every finding, each confirmed against the file:
   * - both files are v1 (no `version` in the header): Pi would migrate and rewrite them on open (PI_VERSION_OLD);
   * - before-compaction.jsonl's header names `branchedFrom` …/2025-12-09T00-52-54-397Z_d97339c6-….jsonl, a session
   *   that is not in the set (LINEAGE_PARENT_MISSING);
   * - before-compaction.jsonl: 5 calls in assistant messages with stopReason "aborted" (lines 374, 386 ×3, 678)
   *   never ran (expected: no finding); line 628 is a toolUse message whose call has no result and the next entry
   *   (629) is a compaction: the turn was cut off, a warning;
   * - large-session.jsonl: all 18 calls without a result are in "error"/"aborted" messages (no finding); a time gap
   *   before a later prompt reads as a resume (TIME_RESUME_BOUNDARY, a note).
   * No error: nothing in these files is broken.
   */
  test('they audit to exactly the findings that are really in them, and none is an error', async () => {
    const rep = await audit(EXTERNAL);
    expect(rep.toolErrors).toEqual([]);
    const got = summary(rep);
    expect(got.filter((s) => s.endsWith(' error'))).toEqual([]);
    const count = (re: RegExp): number => got.filter((s) => re.test(s)).length;
    expect(count(/^before-compaction\.jsonl:1 PI_VERSION_OLD note$/)).toBe(1);
    expect(count(/^large-session\.jsonl:1 PI_VERSION_OLD note$/)).toBe(1);
    expect(count(/^before-compaction\.jsonl:1 LINEAGE_PARENT_MISSING warning$/)).toBe(1);
    // The calls of the responses that ended with stopReason "error" or "aborted" (5 and 18) have no result by
    // design: Pi runs none of them, in every session the user interrupts. Not a finding; the one cut off is.
    expect(got.filter((s) => s.includes('TOOL_INTERRUPTED_CALL'))).toEqual([
      'before-compaction.jsonl:628 TOOL_INTERRUPTED_CALL warning',
    ]);
    expect(count(/^large-session\.jsonl:\d+ TIME_RESUME_BOUNDARY note$/)).toBe(1);
    expect(got.length).toBe(3 + 1 + 1);
  });

  test('every call without a result is in an error or aborted response, but one cut off by a compaction', () => {
    for (const name of ['large-session.jsonl', 'before-compaction.jsonl']) {
      const recs = records(name);
      const answered = new Set(recs.map((r) => r.message?.toolCallId).filter(Boolean));
      const orphans = recs.flatMap((r, i) =>
        calls(r)
          .filter((b) => !answered.has(b.id))
          .map(() => ({ line: i + 1, stop: r.message?.stopReason })),
      );
      const expected = name === 'large-session.jsonl' ? 18 : 6;
      expect(orphans.length).toBe(expected);
      const unexplained = orphans.filter((o) => o.stop !== 'error' && o.stop !== 'aborted');
      expect(unexplained).toEqual(name === 'large-session.jsonl' ? [] : [{ line: 628, stop: 'toolUse' }]);
      expect(recs[628]?.type).toBe(name === 'large-session.jsonl' ? recs[628]?.type : 'compaction');
    }
  });

  test('pairs lists each call with its status: 391 calls, 373 answered, 18 never ran (large-session)', async () => {
    const r = await cli(['pairs', join(EXTERNAL, 'large-session.jsonl'), '--format', 'json']);
    expect(r.code).toBe(0);
    const rows = (JSON.parse(r.stdout) as { sessions: Array<{ rows: Array<{ status: string }> }> }).sessions[0]!.rows;
    const by = (s: string): number => rows.filter((x) => x.status === s).length;
    expect([rows.length, by('answered'), by('abandoned')]).toEqual([391, 373, 18]);
  });

  test('v1 compactions name their first kept entry by index, and it resolves (a user message before)', async () => {
    const recs = records('before-compaction.jsonl') as Array<Rec & { firstKeptEntryIndex?: number }>;
    const compactions = recs.map((r, i) => ({ r, i })).filter(({ r }) => r.type === 'compaction');
    expect(compactions.length).toBe(2);
    for (const { r, i } of compactions) {
      const idx = r.firstKeptEntryIndex!;
      expect(idx).toBeLessThan(i);
      expect(recs[idx]?.message?.role).toBe('user');
    }
    const rep = await audit(join(EXTERNAL, 'before-compaction.jsonl'));
    expect(rep.findings.map((f) => f.code)).not.toContain('PI_COMPACTION_UNRESOLVED');
  });

  test('every command runs on the root and on one file, and no byte, mode or mtime changes', async () => {
    const before = treeState(EXTERNAL);
    const file = join(EXTERNAL, 'before-compaction.jsonl');
    for (const target of [EXTERNAL, file]) {
      for (const cmd of [['audit', '--fail-on', 'never'], ['validate', '--fail-on', 'never'], ['lineage']]) {
        const r = await cli([cmd[0]!, target, ...cmd.slice(1)]);
        expect(r.code, `${cmd[0]} ${target}: ${r.stderr}`).toBe(0);
      }
    }
    for (const cmd of ['timeline', 'pairs', 'inspect']) {
      const r = await cli([cmd, file]);
      // The file ends with an edit in flight (a real interrupted call): not safe to resume, exit 4.
      expect(r.code, `${cmd}: ${r.stderr}`).toBe(cmd === 'inspect' ? 4 : 0);
      expect(r.stdout.length).toBeGreaterThan(0);
    }
    const bag = join(scratch, 'real.zip');
    expect((await cli(['bundle', EXTERNAL, '-o', bag])).code).toBe(0);
    const v = await cli(['verify', bag, '--against', EXTERNAL]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(diffStates(before, treeState(EXTERNAL))).toEqual([]);
  });

  test('inspect says plainly that opening an old file in Pi destroys it: bundle first', async () => {
    const r = await cli(['inspect', join(EXTERNAL, 'large-session.jsonl')]);
    expect(r.stdout).toContain('Opening the file in Pi can destroy evidence');
    expect(r.stdout).toMatch(/v1 or v2 file is migrated to v3 in place/);
    expect(r.stdout).toContain('Bundle first');
  });
});

describe('detection by content', () => {
  const clean = join(CORPORA, 'pi', 'clean');

  test('a ~/.pi/agent tree: per-cwd sessions, the old ~/.pi/agent/*.jsonl placement and a --session-dir', async () => {
    const rep = await audit(clean);
    expect(rep.findings).toEqual([]);
    expect(rep.sessions.map((s) => s.path.replace(`${clean}/`, '')).sort()).toEqual([
      '2026-03-11T09-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a03.jsonl',
      'pi-sessions/2026-03-12T11-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a04.jsonl',
      'sessions/--home-dev-app--/2026-03-12T09-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a01.jsonl',
      'sessions/--home-dev-app--/2026-03-12T10-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a02.jsonl',
    ]);
  });

  test('a Pi file under any name is found by its header line, and a .jsonl that is not one is not', async () => {
    const dir = join(scratch, 'renamed');
    mkdirSync(dir, { recursive: true });
    copyFileSync(
      join(clean, 'sessions/--home-dev-app--/2026-03-12T09-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a01.jsonl'),
      join(dir, 'evidence.jsonl'),
    );
    writeFileSync(join(dir, 'other.jsonl'), '{"type":"message","timestamp":"2026-01-01T00:00:00Z"}\n');
    const rep = await audit(dir);
    expect(rep.sessions.map((s) => s.path.split('/').pop())).toEqual(['evidence.jsonl']);
  });

  test('the fork is a child of the session its header parentSession names', async () => {
    const r = await cli(['lineage', clean, '--format', 'json']);
    type Node = { id: string; kind: string; children: Node[] };
    const view = JSON.parse(r.stdout) as { roots: Array<{ trees: Node[] }> };
    const main = view.roots[0]!.trees.find((t) => t.id === '7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a01')!;
    expect(main.children.map((c) => [c.id, c.kind])).toEqual([['7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a02', 'fork']]);
  });
});

test('the checked-in Pi corpora are exactly what the generator writes', () => {
  const out = mkdtempSync(join(scratch, 'gen-'));
  generateAgentCorpora(
    out,
    'pi',
    'Pi coding agent',
    PI_LAYOUT,
    piCleanTree(),
    piCases(),
    catalog().map((e) => e.code),
  );
  expectShippedCorpora(out, 'pi');
});

test('zod and the generated JSON Schema agree on every record of the pi corpora', () => {
  expectModelAndSchemaAgree('pi', SessionLine, validator(PI_SCHEMAS.session!.file));
});

test('an entry type Pi does not know is a note, not an error (a newer Pi or an extension wrote it)', async () => {
  const dir = join(scratch, 'unknown-type');
  mkdirSync(dir, { recursive: true });
  const src = join(
    CORPORA,
    'pi/clean/sessions/--home-dev-app--/2026-03-12T09-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a01.jsonl',
  );
  const lines = readFileSync(src, 'utf8').split('\n').filter(Boolean);
  const last = JSON.parse(lines.at(-1)!) as { id: string };
  lines.push(
    JSON.stringify({ type: 'bookmark', id: 'ffff0001', parentId: last.id, timestamp: '2026-03-12T09:10:00.000Z' }),
  );
  writeFileSync(join(dir, 'session.jsonl'), `${lines.join('\n')}\n`);
  const rep = await audit(dir);
  expect(summary(rep)).toEqual([`session.jsonl:${lines.length} SCHEMA_UNKNOWN_TYPE note`]);
});

test('a version that is not a number is unknown, not v1 (no migration claim)', async () => {
  const dir = join(scratch, 'version-string');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 's.jsonl'),
    '{"type":"session","version":"3","id":"x","timestamp":"2026-03-12T09:00:00.000Z","cwd":"/w"}\n',
  );
  const codes = (await audit(dir)).findings.map((f) => f.code).sort();
  expect(codes).toEqual(['PI_VERSION_UNKNOWN', 'SCHEMA_VIOLATION']);
});

test('bundle of ~/.pi/agent takes the session files only, never auth.json or settings.json beside them', async () => {
  const dir = join(scratch, 'agent-home');
  mkdirSync(dir, { recursive: true });
  const clean = join(CORPORA, 'pi', 'clean');
  const name = '2026-03-11T09-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a03.jsonl';
  copyFileSync(join(clean, name), join(dir, name));
  writeFileSync(join(dir, 'auth.json'), '{"anthropic":{"type":"api_key","key":"not-a-real-key"}}\n');
  writeFileSync(join(dir, 'settings.json'), '{}\n');
  const bag = join(scratch, 'home.zip');
  expect((await cli(['bundle', dir, '-o', bag])).code).toBe(0);
  const listing = readFileSync(bag).toString('latin1');
  expect(listing).toContain(name);
  expect(listing).not.toContain('auth.json');
  expect(listing).not.toContain('settings.json');
});

test('inspect counts only the turns on the path a resume continues: after /tree to a new root, one', async () => {
  const file = join(
    CORPORA,
    'pi/several-roots/sessions/--home-dev-app--/2026-03-12T09-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a01.jsonl',
  );
  const r = await cli(['inspect', file, '--format', 'json']);
  const rep = JSON.parse(r.stdout) as { replay: { liveTurns: number; logLines: number } };
  expect(rep.replay).toMatchObject({ liveTurns: 1, logLines: 12 });
});

test('verify --against reports a Pi file rewritten in place after the capture (BUNDLE_NOT_APPEND_ONLY)', async () => {
  const dir = join(scratch, 'migrated');
  mkdirSync(dir, { recursive: true });
  const clean = join(CORPORA, 'pi', 'clean');
  const name = '2026-03-11T09-00-00-000Z_7b1f0c2e-4a5d-4e6f-8a9b-0c1d2e3f4a03.jsonl';
  copyFileSync(join(clean, name), join(dir, name));
  const bag = join(scratch, 'migrated.zip');
  expect((await cli(['bundle', dir, '-o', bag])).code).toBe(0);
  // What Pi's load does to an older file: the whole file rewritten, here with the header's version changed.
  const text = readFileSync(join(dir, name), 'utf8').replace('"version":3', '"version":4');
  writeFileSync(join(dir, name), text);
  const v = await cli(['verify', bag, '--against', dir, '--format', 'json']);
  const codes = (JSON.parse(v.stdout) as AuditReport).findings.map((f) => f.code);
  expect(codes).toContain('BUNDLE_NOT_APPEND_ONLY');
  expect(v.code).not.toBe(0);
});
