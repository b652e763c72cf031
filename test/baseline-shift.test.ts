/**
 * Baselines survive a shifted line: a fingerprint is the code, the session, the file, the pointer, the check's key,
 * a digest of the bytes the finding points at and its occurrence among identical ones, never the line number. A
 * baseline written before fingerprint version 2 is matched by place, as it always was, and the report says so.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { finishFingerprints, makeFinding } from '../src/checks/findings.js';
import type { AuditReport } from '../src/model/report.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const ID = '019a3f2c-1d00-7a3e-8000-00000000a001';

describe('a baseline and a line inserted above a known finding', () => {
  let tmp = '';
  let root = '';
  let log = '';
  let baseline = '';
  let before: AuditReport;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-baseline-'));
    root = join(tmp, 'case');
    cpSync(join(CORPORA, 'grok', 'tool-interrupted-call'), root, { recursive: true });
    log = join(root, 'sessions', '%2Fhome%2Fdev%2Fproj', ID, 'chat_history.jsonl');
    const r = await cli(['audit', root, '--format', 'json', '--fail-on', 'never']);
    before = JSON.parse(r.stdout) as AuditReport;
    baseline = join(tmp, 'baseline.json');
    writeFileSync(baseline, r.stdout);
    // A line inserted near the top of the log the findings point into (a copy of its first line, further down).
    const lines = readFileSync(log, 'utf8').split('\n');
    lines.splice(2, 0, lines[0]!);
    writeFileSync(log, lines.join('\n'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test('the known findings moved down a line and are still suppressed; none is listed as gone', async () => {
    const known = before.findings.filter((f) => f.location.file === 'chat_history.jsonl' && f.location.line! > 3);
    expect(known.length).toBeGreaterThan(0);
    const now = JSON.parse(
      (await cli(['audit', root, '--format', 'json', '--fail-on', 'never', '--baseline', baseline])).stdout,
    ) as AuditReport;
    expect(now.baseline!.matchedBy).toBe('fingerprint');
    expect(now.baseline!.absent).toEqual([]);
    expect(now.baseline!.suppressed).toBe(before.findings.length);
    // What is left is what the inserted line itself caused, not the findings that moved.
    for (const f of now.findings) expect(known.map((k) => k.code)).not.toContain(f.code);
    const unsuppressed = JSON.parse(
      (await cli(['audit', root, '--format', 'json', '--fail-on', 'never'])).stdout,
    ) as AuditReport;
    for (const k of known) {
      const moved = unsuppressed.findings.find((f) => f.fingerprint === k.fingerprint)!;
      expect(moved.location.line).toBe(k.location.line! + 1);
    }
    const table = (await cli(['audit', root, '--fail-on', 'never', '--baseline', baseline])).stdout;
    expect(table).toContain(
      `Baseline ${baseline}: ${before.findings.length} known findings suppressed; 0 baseline entries`,
    );
  });

  test('a baseline written before fingerprint version 2 is matched by place, and the report says so', async () => {
    const old = join(tmp, 'old-baseline.json');
    const { configuration: _c, ...v1 } = before;
    writeFileSync(
      old,
      JSON.stringify({ ...v1, findings: v1.findings.map((f) => ({ ...f, fingerprint: `v1-${f.code}` })) }),
    );
    const audit = async (dir: string): Promise<AuditReport> =>
      JSON.parse(
        (await cli(['audit', dir, '--format', 'json', '--fail-on', 'never', '--baseline', old])).stdout,
      ) as AuditReport;
    // The evidence as it was: every finding matched at its place.
    const same = await audit(join(CORPORA, 'grok', 'tool-interrupted-call'));
    expect(same.baseline!.matchedBy).toBe('place');
    expect(same.baseline!.suppressed).toBe(before.findings.length);
    expect(same.findings).toEqual([]);
    // Shifted: under the old rule the moved findings are new again, and their old entries gone; findings in the
    // other log (updates.jsonl) did not move and are still matched.
    const moved = before.findings.filter((f) => f.location.file === 'chat_history.jsonl' && f.location.line! > 2);
    expect(moved.length).toBeGreaterThan(0);
    const r = await audit(root);
    expect(r.baseline!.matchedBy).toBe('place');
    expect(r.baseline!.suppressed).toBe(before.findings.length - moved.length);
    expect(r.baseline!.absent).toHaveLength(moved.length);
    const table = (await cli(['audit', root, '--fail-on', 'never', '--baseline', old])).stdout;
    expect(table).toMatch(/predates fingerprint version 2: its entries are matched by code, session, file and line/);
  });
});

test('identical findings on identical bytes are told apart by their occurrence, stably', () => {
  const at = (line: number) =>
    makeFinding({
      code: 'JSONL_DUPLICATE_LINE',
      info: { severity: 'warning' },
      check: 'jsonl-integrity',
      session: { id: 's', path: 'p/s' },
      location: { file: 'updates.jsonl', line, byteOffset: line * 10 },
      message: 'dup',
    });
  const a = [at(3), at(7)];
  finishFingerprints(a, () => 'same-bytes');
  expect(a[0]!.fingerprint).not.toBe(a[1]!.fingerprint);
  // The same two, shifted by an inserted line: the same fingerprints.
  const b = [at(4), at(8)];
  finishFingerprints(b, () => 'same-bytes');
  expect(b.map((f) => f.fingerprint)).toEqual(a.map((f) => f.fingerprint));
  // Different bytes at the same place: a different finding.
  const c = [at(3)];
  finishFingerprints(c, () => 'other-bytes');
  expect(c[0]!.fingerprint).not.toBe(a[0]!.fingerprint);
});
