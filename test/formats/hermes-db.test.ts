/**
 * Hermes's state.db at scale and with logs that are not its own: the rows are streamed (a few hundred thousand
 * rows audit under a 64 MiB heap), a database over --max-db-bytes is reported and not copied, a foreign -wal or
 * hot -journal is left out and the database read as it is, and the private copy is sparse and always removed.
 */
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import type { Files } from '../../scripts/corpora/case-kit.js';
import { hermesCleanTree, hermesHome, hermesSessions } from '../../scripts/corpora/cases-hermes.js';
import {
  inWalMode,
  stateDb,
  walHolding,
  walPair,
  withCounter,
  type HermesSession,
} from '../../scripts/corpora/hermes-builder.js';
import { writeHermesHome } from '../../scripts/bench/hermes-db.js';
import { copyDatabase } from '../../src/formats/shared/sqlite/copy.js';
import type { SessionSource } from '../../src/model/source.js';
import type { AuditReport } from '../../src/model/report.js';
import { BUILT, runBuilt } from '../helpers/cli-child.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-hermes-db-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A private TMPDIR per run, so that what a run leaves there can be seen. */
function run(args: string[], o: { maxOldSpaceMb?: number } = {}) {
  const tmp = mkdtempSync(join(scratch, 'tmp-'));
  const r = runBuilt(args, { env: { TMPDIR: tmp }, timeoutMs: 60_000, ...o });
  return { ...r, left: readdirSync(tmp) };
}

function writeHome(name: string, files: Files): string {
  const dir = join(scratch, name, '.hermes');
  for (const [rel, body] of files) {
    if (typeof body !== 'string' && !Buffer.isBuffer(body)) throw new Error(`${rel}: not a file`);
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), body);
  }
  return dir;
}

/** Newlines in a file, read a MiB at a time. */
function lines(path: string): number {
  const fd = openSync(path, 'r');
  const b = Buffer.alloc(1 << 20);
  let n = 0;
  try {
    for (let got = readSync(fd, b); got > 0; got = readSync(fd, b))
      for (let i = b.indexOf(10); i >= 0 && i < got; i = b.indexOf(10, i + 1)) n++;
  } finally {
    closeSync(fd);
  }
  return n;
}

const findings = (stdout: string) => (JSON.parse(stdout) as AuditReport).findings;

describe.skipIf(!BUILT)('state.db (the built CLI)', () => {
  test('a foreign -wal beside a clean database is left out: every session is still there', () => {
    const sessions = hermesSessions();
    const files = hermesHome(sessions, withCounter(inWalMode(stateDb(sessions)), 212));
    // Another home's younger database of one session, every page in its log.
    files.set('state.db-wal', walHolding(withCounter(inWalMode(stateDb([sessions[0]!])), 9)));
    const home = writeHome('wal-foreign', files);
    const r = run(['audit', home, '--format', 'json', '--fail-on', 'never']);
    expect(r.code, r.stderr).toBe(0);
    const f = findings(r.stdout);
    const foreign = f.find((x) => x.code === 'HERMES_DB_WAL_FOREIGN');
    expect(foreign?.message).toMatch(/change counter 9, older than the database's 212/);
    expect(foreign?.message).toContain(`holds ${sessions.length} session(s)`);
    // Read without it, the database agrees with the transcript and snapshots: nothing else is found.
    expect(f.map((x) => x.code)).toEqual(['HERMES_DB_WAL_FOREIGN']);
    expect(r.left).toEqual([]);
  });

  test("a -wal whose frames make a damaged database of an intact one is not the database's", () => {
    const sessions = hermesSessions();
    const other: HermesSession[] = [{ ...sessions[0]!, id: '20260601_101010_07h3r', messages: [] }];
    const later: HermesSession[] = [{ ...other[0]!, messages: sessions.flatMap((s) => s.messages) }];
    // A log of another database's growth: same page size, same counters, pages that do not fit this one.
    const { wal } = walPair(stateDb(other), stateDb(later));
    const files = hermesHome(sessions, inWalMode(stateDb(sessions)));
    files.set('state.db-wal', wal);
    const home = writeHome('wal-frames', files);
    const r = run(['audit', home, '--format', 'json', '--fail-on', 'never']);
    const f = findings(r.stdout);
    expect(f.find((x) => x.code === 'HERMES_DB_WAL_FOREIGN')?.message, r.stdout).toMatch(
      /with its frames, integrity_check reports/,
    );
    expect(f.map((x) => x.code)).toEqual(['HERMES_DB_WAL_FOREIGN']);
  });

  test('a database over --max-db-bytes is reported, not copied, not read', () => {
    const home = writeHome('too-large', hermesCleanTree());
    for (const cmd of [['audit'], ['validate'], ['timeline']]) {
      const r = run([...cmd, home, '--max-db-bytes', '4096', ...(cmd[0] === 'timeline' ? [] : ['--format', 'json'])]);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
      if (cmd[0] !== 'timeline') {
        expect(findings(r.stdout).map((x) => x.code)).toContain('HERMES_DB_TOO_LARGE');
        expect(r.code).toBe(1);
      } else expect(r.stdout).not.toContain('state.db');
      expect(r.left).toEqual([]);
    }
    const inspect = run(['inspect', home, '--format', 'json', '--max-db-bytes', '4096']);
    expect(inspect.stdout).toContain('HERMES_DB_TOO_LARGE');
    // pairs places no call at a row of a database it did not read.
    expect(run(['pairs', home, '--max-db-bytes', '4096']).stdout).not.toMatch(/state\.db:\d/);
    expect(run(['pairs', home]).stdout).toMatch(/state\.db:\d/);
    const ok = run(['audit', home, '--format', 'json', '--max-db-bytes', String(1 << 20)]);
    expect(ok.code, ok.stdout).toBe(0);
    expect(run(['audit', home, '--max-db-bytes', 'x']).stderr).toMatch(/--max-db-bytes "x": expected a number/);
  });

  test('100,000 rows are streamed: the audit and the timeline run under a 64 MiB heap', () => {
    const home = join(scratch, 'big', '.hermes');
    writeHermesHome(home, 100_000);
    const a = run(['audit', home, '--format', 'json', '--fail-on', 'never'], { maxOldSpaceMb: 64 });
    expect(a.code, a.stderr.slice(0, 2000)).toBe(0);
    expect(findings(a.stdout).filter((x) => x.code.startsWith('HERMES_DB_') && x.code !== 'HERMES_DB_SCHEMA')).toEqual(
      [],
    );
    expect(a.left).toEqual([]);
    const out = join(scratch, 'big-timeline.jsonl');
    const t = run(['timeline', home, '--format', 'jsonl', '-o', out], { maxOldSpaceMb: 64 });
    expect(t.code, t.stderr.slice(0, 2000)).toBe(0);
    expect(lines(out)).toBe(100_000);
  }, 120_000);
});

test('the private copy leaves holes as holes', () => {
  const hole = 64 * 1024 * 1024;
  const body = Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(hole), Buffer.from('end')]);
  const source = {
    entry: (rel: string) => (rel === 'state.db' ? { path: rel, type: 'file', size: body.length } : undefined),
    streamRaw: (_rel: string, onChunk: (b: Buffer) => void) => {
      for (let i = 0; i < body.length; i += 1 << 20) onChunk(body.subarray(i, i + (1 << 20)));
      return { ok: true, value: { sha256: 'x', size: body.length } };
    },
  } as unknown as SessionSource;
  const r = copyDatabase(source, 'state.db');
  expect(r.ok).toBe(true);
  if (!r.ok) return;
  try {
    const st = statSync(r.value.path);
    expect(st.size).toBe(body.length);
    expect(st.blocks * 512).toBeLessThan(1024 * 1024);
  } finally {
    r.value.remove();
  }
  expect(() => statSync(r.value.dir)).toThrow();
});
