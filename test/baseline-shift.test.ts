/**
 * Baselines survive a shifted line: a fingerprint is the code, the session, the file, the pointer, the check's key,
 * a digest of the bytes the finding points at and its occurrence among identical ones, never the line number; no
 * check puts a position in its key. A baseline written before fingerprint version 2 is matched by place, as it
 * always was, and the report says so.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { finishFingerprints, makeFinding } from '../src/checks/findings.js';
import type { AuditOptions } from '../src/engine/audit-session.js';
import { runAudit, type TreeOptions } from '../src/engine/tree.js';
import type { Finding } from '../src/model/finding.js';
import type { AuditReport } from '../src/model/report.js';
import { applyBaseline } from '../src/report/baseline.js';
import { cli } from './helpers/cli.js';
import { CORPORA, type CorpusCase, corpusCases } from './helpers/corpora.js';
import { harmlessLine, indentJson, insertLine, type Insertion } from './helpers/harmless-lines.js';

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

/** The audit a case's expected.json asks for, in-process. */
function auditCase(c: CorpusCase, dir: string): AuditReport {
  const options: AuditOptions = { command: 'audit' };
  const tree: TreeOptions = {};
  const args = c.expected.args ?? [];
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i], args[i + 1]!];
    if (flag === '--max-line-bytes') options.maxLineBytes = Number(value);
    else if (flag === '--max-db-bytes') options.maxDbBytes = Number(value);
    else if (flag === '--sandbox-config') tree.sandboxConfig = [join(dir, value)];
    else throw new Error(`${c.format}/${c.name}: ${flag} is not known to this test`);
  }
  return runAudit([c.expected.target === undefined ? dir : join(dir, c.expected.target)], options, tree);
}

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) yield* filesUnder(p);
    else if (st.isFile()) yield p;
  }
}

interface Shift {
  /** What went wrong: a baseline entry gone, a new finding the insertion does not explain, one that did not move. */
  problems: string[];
  /** Codes of findings on lines that were matched on another line. */
  moved: Set<string>;
  /** Codes of findings on lines that were matched on the same line. */
  stayed: Set<string>;
  /** Logs holding findings on lines that got no line (their kind takes none). */
  untouched: string[];
}

/**
 * A case's baseline, then a harmless line inserted near the top of every log holding findings on lines (above the
 * first of them, unless that is a first line no record may precede), whitespace before every JSON document, and
 * the audit again with the baseline.
 */
function shiftCase(c: CorpusCase): Shift {
  const tmp = mkdtempSync(join(tmpdir(), `sa-shift-${c.name}-`));
  try {
    cpSync(c.dir, tmp, { recursive: true, verbatimSymlinks: true });
    for (const step of c.expected.setup ?? []) if ('mkfifo' in step) execFileSync('mkfifo', [join(tmp, step.mkfifo)]);
    const before = auditCase(c, tmp);
    const dirOf = new Map(before.sessions.map((s) => [s.path, s.dir ?? s.path]));
    const where = (f: Finding): string => join(dirOf.get(f.sessionPath)!, f.location.file);
    const logs = new Set(before.findings.filter((f) => f.location.line !== undefined).map(where));
    const inserted = new Map<string, Insertion>();
    const out: Shift = { problems: [], moved: new Set(), stayed: new Set(), untouched: [] };
    for (const log of logs) {
      const ins = harmlessLine(c.format, log);
      if (ins) inserted.set(log, ins);
      else out.untouched.push(`${c.format} ${basename(log)}`);
    }
    for (const [log, ins] of inserted) insertLine(log, ins);
    for (const f of filesUnder(tmp))
      if (f.endsWith('.json') && !inserted.has(f) && !/expected(-timeline)?\.json$/.test(f)) indentJson(f);

    const after = auditCase(c, tmp);
    const r = applyBaseline(after, { entries: before.findings, matchedBy: 'fingerprint' }, 'baseline.json');
    for (const a of r.baseline!.absent) out.problems.push(`gone: ${a.code} ${a.file}:${a.line ?? ''}`);
    const caused = [...inserted].flatMap(([log, ins]) => ins.causes.map((code) => `${code} ${log}:${ins.at + 1}`));
    const unexplained = r.findings.map((f) => `${f.code} ${where(f)}:${f.location.line ?? ''}`);
    for (const n of unexplained.filter((x) => !caused.includes(x))) out.problems.push(`new: ${n}`);
    for (const n of caused.filter((x) => !unexplained.includes(x))) out.problems.push(`not caused: ${n}`);
    // Every finding below an inserted line is matched one line lower, the others where they were; the CRLF
    // finding is the first CRLF line's, and a line inserted above it ends in CRLF as the file's lines do.
    const now = new Map(after.findings.map((f) => [f.fingerprint, f]));
    for (const f of before.findings) {
      if (f.location.line === undefined) continue;
      const ins = inserted.get(where(f));
      const below = ins !== undefined && f.location.line > ins.at;
      const line = now.get(f.fingerprint)?.location.line;
      if (line === undefined) continue;
      const expected = below && f.code === 'JSONL_CRLF' ? ins.at + 1 : f.location.line + (below ? 1 : 0);
      if (line !== expected) out.problems.push(`${f.code} ${f.location.file}:${f.location.line} is now at ${line}`);
      (line !== f.location.line ? out.moved : out.stayed).add(f.code);
    }
    // Two findings are never one: fingerprints are unique within a session.
    const seen = new Set<string>();
    for (const f of before.findings) {
      const k = `${f.sessionPath}\u0000${f.fingerprint}`;
      if (seen.has(k)) out.problems.push(`two findings share a fingerprint: ${f.code} ${f.location.file}`);
      seen.add(k);
    }
    return out;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const AUDITED = corpusCases().filter((c) => (c.expected.command ?? 'audit') === 'audit');
const shifts = new Map<CorpusCase, Shift>();
const shifted = (c: CorpusCase): Shift => {
  let s = shifts.get(c);
  if (!s) shifts.set(c, (s = shiftCase(c)));
  return s;
};

describe('every corpora case: a harmless line inserted above its findings, audited with the earlier baseline', () => {
  test.each(AUDITED)(
    '$format/$name: every known finding is matched, nothing is new but the inserted line itself',
    (c) => {
      expect(shifted(c).problems).toEqual([]);
    },
  );

  test('every code found on a line was found moved, but those a first line holds', () => {
    const all = AUDITED.map(shifted);
    const moved = new Set(all.flatMap((s) => [...s.moved]));
    const onLines = new Set(all.flatMap((s) => [...s.moved, ...s.stayed]));
    // Found only on a line no harmless line can precede: the first line, which Codex's reader wants to be
    // session_meta (the parent it names: LINEAGE_PARENT_MISSING), Pi's header, a BOM at a file's start, the system
    // item Grok's history opens with; and JSONL_CRLF, the first CRLF line's, which the inserted line becomes (it
    // ends in CRLF as the file's lines do).
    const pinned = [
      'CODEX_FIRST_LINE_NOT_META',
      'JSONL_BOM',
      'JSONL_CRLF',
      'LINEAGE_PARENT_MISSING',
      ...['OPENCODE_ROW_UNREADABLE', 'OPENCODE_TIME_COLUMN', 'OPENCODE_TIME_IMPORTED'], // rows of a database, no line
      'PI_HEADER_INVALID',
      'PI_VERSION_OLD',
      'PI_VERSION_UNKNOWN',
    ];
    expect([...onLines].filter((code) => !moved.has(code)).sort()).toEqual(pinned);
    expect(moved.size).toBeGreaterThan(40);
    // Hermes keeps its conversation in state.db, where a finding's line is its row's id.
    expect([...new Set(all.flatMap((s) => s.untouched))].sort()).toEqual(['hermes state.db', 'opencode opencode.db']);
  });
});

test('two byte-identical results for one call are two findings, both still known after a line is inserted', () => {
  const c = AUDITED.find((x) => x.format === 'grok' && x.name === 'tool-duplicate-result')!;
  const tmp = mkdtempSync(join(tmpdir(), 'sa-shift-twice-'));
  try {
    cpSync(c.dir, tmp, { recursive: true });
    const chat = join(
      tmp,
      'sessions',
      '%2Fhome%2Fdev%2Fproj',
      '019a3f2c-1d00-7a3e-8000-00000000a001',
      'chat_history.jsonl',
    );
    // The duplicate result (line 7) once more, after the assistant's answer (line 8), so not adjacent to itself.
    const copy = readFileSync(chat, 'utf8').split('\n')[6]!;
    expect(copy).toContain('"tool_call_id":"call_p2_test"');
    insertLine(chat, { at: 8, text: copy, causes: [], counted: 'num_chat_messages' });
    const dups = (r: AuditReport) => r.findings.filter((f) => f.code === 'TOOL_DUPLICATE_RESULT');
    const before = auditCase(c, tmp);
    expect(dups(before).map((f) => f.location.line)).toEqual([7, 9]);
    expect(new Set(dups(before).map((f) => f.fingerprint)).size).toBe(2);
    insertLine(chat, harmlessLine('grok', chat)!);
    const after = auditCase(c, tmp);
    expect(dups(after).map((f) => f.location.line)).toEqual([8, 10]);
    expect(dups(after).map((f) => f.fingerprint)).toEqual(dups(before).map((f) => f.fingerprint));
    const r = applyBaseline(after, { entries: before.findings, matchedBy: 'fingerprint' }, 'baseline.json');
    expect(r.findings).toEqual([]);
    expect(r.baseline!.absent).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
