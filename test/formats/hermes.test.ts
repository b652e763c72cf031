/**
 * Hermes homes: the corpora are what the generator writes (byte-stable, database included), the models agree with
 * their JSON Schemas, state.db is read only through a private copy (a live WAL-mode home is byte-, mode- and
 * mtime-identical after every command, with no -wal/-shm/-journal appearing), committed transactions still in the
 * WAL are read, and a bundle captures the database with its WAL and SHM byte for byte.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { generateAgentCorpora } from '../../scripts/gen-corpora.js';
import { hermesCases, hermesCleanTree, hermesSessions, HERMES_IDS } from '../../scripts/corpora/cases-hermes.js';
import { snapshot, stateDb, transcript, walPair } from '../../scripts/corpora/hermes-builder.js';
import { catalog } from '../../src/checks/catalog.js';
import { copyDatabase } from '../../src/formats/shared/sqlite/copy.js';
import { walState } from '../../src/formats/shared/sqlite/wal.js';
import type { SessionSource } from '../../src/model/source.js';
import { Message } from '../../src/formats/hermes/models.js';
import { HermesNormalizer, approvalMarker } from '../../src/formats/hermes/normalize.js';
import { HERMES_SCHEMAS } from '../../src/formats/hermes/schemas.js';
import { validator } from '../../src/formats/schema-runtime.js';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { diffStates, treeState } from '../helpers/tree-hash.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-hermes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const codes = (r: { stdout: string }): string[] =>
  (JSON.parse(r.stdout) as AuditReport).findings.map((f) => `${f.code} ${f.severity}`);
const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

test('the checked-in Hermes corpora are exactly what the generator writes, state.db included (byte-stable)', () => {
  const codesAll = catalog().map((e) => e.code);
  const a = join(scratch, 'gen-a');
  const b = join(scratch, 'gen-b');
  generateAgentCorpora(a, 'hermes', 'Hermes Agent', 'a home', hermesCleanTree(), hermesCases(), codesAll);
  generateAgentCorpora(b, 'hermes', 'Hermes Agent', 'a home', hermesCleanTree(), hermesCases(), codesAll);
  expect(treeState(join(a, 'hermes'), { meta: false })).toEqual(treeState(join(b, 'hermes'), { meta: false }));
  // The README names the layout as gen-corpora.ts words it; the cases are compared one by one.
  for (const n of readdirSync(join(CORPORA, 'hermes')).filter((x) => x !== 'README.md'))
    expect(treeState(join(a, 'hermes', n), { meta: false })).toEqual(
      treeState(join(CORPORA, 'hermes', n), { meta: false }),
    );
});

test('zod and the generated JSON Schema agree on every transcript line of the Hermes corpora', () => {
  const schema = validator(HERMES_SCHEMAS.transcript!.file);
  let n = 0;
  for (const c of readdirSync(join(CORPORA, 'hermes'))) {
    const dir = join(CORPORA, 'hermes', c, 'sessions');
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((x) => x.endsWith('.jsonl'));
    } catch {
      continue;
    }
    for (const name of names)
      for (const line of readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean)) {
        const v = JSON.parse(line) as unknown;
        n++;
        expect(Message.safeParse(v).success, line.slice(0, 80)).toBe(schema(v) as boolean);
      }
  }
  expect(n).toBeGreaterThan(20);
  // And they disagree together on a tool message without its tool_call_id.
  const bad = { role: 'tool', content: 'x' };
  expect(Message.safeParse(bad).success).toBe(false);
  expect(schema(bad)).toBe(false);
});

describe('the write-ahead log parser', () => {
  const base = stateDb(hermesSessions());
  const later = stateDb(
    hermesSessions().map((s) =>
      s.id === HERMES_IDS.gateway
        ? { ...s, messages: [...s.messages, { role: 'user' as const, content: 'x', ts: 1 }] }
        : s,
    ),
  );

  test('counts committed frames, and frames after the last commit apart', () => {
    const { wal } = walPair(base, later, 3);
    const w = walState(wal);
    expect(w.problem).toBeUndefined();
    expect(w.commits).toBe(1);
    expect(w.uncommittedFrames).toBe(3);
    expect(w.committedFrames).toBe(w.frames - 3);
  });

  test('a frame whose checksum breaks ends the log there (SQLite reads nothing after it)', () => {
    const { wal } = walPair(base, later, 0);
    const page = wal.readUInt32BE(8);
    const broken = Buffer.from(wal);
    broken[32 + 24 + 100] = broken[32 + 24 + 100]! ^ 0xff; // inside the first frame's page
    const w = walState(broken);
    expect(w.frames).toBe(0);
    expect(w.staleFrames).toBe((wal.length - 32) / (24 + page));
  });

  test('agrees with SQLite on a WAL SQLite wrote itself (every frame committed, nothing torn)', () => {
    const dir = join(scratch, 'sqlite-wal');
    mkdirSync(dir);
    const db = new Database(join(dir, 'x.db'));
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE t (x TEXT)');
    for (let i = 0; i < 5; i++) db.prepare('INSERT INTO t VALUES (?)').run(`row ${i}`);
    const w = walState(readFileSync(join(dir, 'x.db-wal')));
    db.close();
    expect(w.problem).toBeUndefined();
    expect(w.commits).toBe(6);
    expect(w.uncommittedFrames).toBe(0);
    expect(w.committedFrames).toBe(w.frames);
  });
});

describe('a live WAL-mode Hermes home is never changed, whatever the command', () => {
  const home = join(scratch, 'live', '.hermes');
  const out = join(scratch, 'out');
  mkdirSync(join(home, 'sessions'), { recursive: true });
  mkdirSync(out);
  const sessions = hermesSessions();
  const gw = sessions.find((s) => s.id === HERMES_IDS.gateway)!;
  writeFileSync(join(home, 'config.yaml'), 'model:\n  default: x\n');
  writeFileSync(join(home, 'sessions', `${gw.id}.jsonl`), transcript(gw));
  writeFileSync(join(home, 'sessions', `session_${gw.id}.json`), snapshot(gw));
  // A real database in WAL mode with its writer still open: every row is in the -wal, none checkpointed.
  writeFileSync(join(home, 'state.db'), stateDb([]));
  const live = new Database(join(home, 'state.db'));
  live.pragma('journal_mode = WAL');
  live.pragma('wal_autocheckpoint = 0');
  const rows = new Database(stateDb(sessions));
  live.exec('DELETE FROM sessions; DELETE FROM messages;');
  for (const s of rows.prepare('SELECT * FROM sessions').all() as Record<string, unknown>[]) {
    const cols = Object.keys(s);
    live
      .prepare(`INSERT INTO sessions (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`)
      .run(...Object.values(s));
  }
  for (const m of rows.prepare('SELECT * FROM messages').all() as Record<string, unknown>[]) {
    const cols = Object.keys(m);
    live
      .prepare(`INSERT INTO messages (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`)
      .run(...Object.values(m));
  }
  rows.close();
  afterAll(() => live.close());

  const commands: Array<[string, () => string[]]> = [
    ['audit', () => ['audit', home, '--format', 'json', '--fail-on', 'never']],
    ['validate', () => ['validate', home, '--fail-on', 'never']],
    ['timeline', () => ['timeline', home]],
    ['pairs', () => ['pairs', home]],
    ['inspect', () => ['inspect', home, '--fail-on', 'never']],
    ['lineage', () => ['lineage', home]],
    ['bundle', () => ['bundle', home, '-o', join(out, 'bag')]],
    ['verify --against', () => ['verify', join(out, 'bag'), '--against', home, '--fail-on', 'never']],
  ];
  test.each(commands)('%s', async (_name, args) => {
    const before = treeState(join(scratch, 'live'));
    const r = await cli(args());
    expect(r.code, r.stderr).toBe(0);
    expect(diffStates(before, treeState(join(scratch, 'live')))).toEqual([]);
    const names = readdirSync(home);
    expect(names.filter((n) => n.endsWith('-journal'))).toEqual([]);
    expect(names.filter((n) => /^state\.db-(wal|shm)$/.test(n)).sort()).toEqual(['state.db-shm', 'state.db-wal']);
  });

  test('rows only in the WAL are read: the transcript agrees with them, the pending frames are a note', async () => {
    const found = codes(await cli(['audit', home, '--format', 'json', '--fail-on', 'never']));
    expect(found).toContain('HERMES_DB_WAL_PENDING note');
    expect(found.filter((c) => !c.startsWith('HERMES_DB_WAL_PENDING'))).toEqual([]);
  });

  test('the bag holds state.db, its -wal and its -shm byte for byte', () => {
    for (const f of ['state.db', 'state.db-wal', 'state.db-shm']) {
      const inBag = readdirSync(join(out, 'bag', 'data'), { recursive: true })
        .map(String)
        .find((p) => p.endsWith(`/${f}`) || p === f);
      expect(inBag, f).toBeDefined();
      expect(sha(join(out, 'bag', 'data', inBag!))).toBe(sha(join(home, f)));
    }
  });
});

test('a snapshot left from a deleted session, and a home without a database, still audit', async () => {
  const dir = join(scratch, 'nodb', '.hermes');
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  const gw = hermesSessions()[0]!;
  writeFileSync(join(dir, 'state.db'), 'SQLite format 3\u0000 cut short');
  writeFileSync(join(dir, 'sessions', `${gw.id}.jsonl`), transcript(gw));
  const found = codes(await cli(['audit', dir, '--format', 'json', '--fail-on', 'never']));
  expect(found).toEqual(['HERMES_DB_UNREADABLE error']);
});

test("timeline: state.db's rows on the database's clock (UTC), the transcripts' local times unconverted", async () => {
  const r = await cli(['timeline', join(CORPORA, 'hermes', 'clean'), '--format', 'jsonl']);
  expect(r.code).toBe(0);
  const events = r.stdout
    .split('\n')
    .filter(Boolean)
    .map(
      (l) => JSON.parse(l) as { file: string; line: number; time: string | null; timeSource: string; summary: string },
    );
  const db = events.filter((e) => e.file === 'state.db');
  const rows = hermesSessions().flatMap((s) => s.messages);
  expect(db.length).toBe(rows.length);
  // Row 1 is the gateway's first prompt, stamped T0 + 1 s in UTC epoch seconds.
  expect(db[0]).toMatchObject({ line: 1, timeSource: 'line', time: '2026-05-12T21:16:44.000Z' });
  const file = events.filter((e) => e.file.endsWith('.jsonl'));
  expect(file.length).toBe(5);
  for (const e of file) expect(e).toMatchObject({ time: null, timeSource: 'none' });
  // The same prompt in the transcript: the host's local time (UTC+2 in this home), as written.
  expect(file[1]!.summary).toContain('[local 2026-05-12T23:16:44.000000]');
});

test('a database that changes on every copy is refused with a clear error, never read half-old', () => {
  let n = 0;
  const fake = {
    entry: (rel: string) => (rel === 'state.db' ? { path: rel, type: 'file', size: 4 } : undefined),
    streamRaw: (_rel: string, onChunk: (b: Buffer) => void) => {
      const b = Buffer.from(`v${n++}`);
      onChunk(b);
      return { ok: true, value: { sha256: createHash('sha256').update(b).digest('hex'), size: b.length } };
    },
  } as unknown as SessionSource;
  const r = copyDatabase(fake, 'state.db');
  expect(r.ok).toBe(false);
  expect(!r.ok && r.error).toMatch(/changed while it was being copied, 3 times \(state\.db\)/);
  expect(n).toBe(6);
});

test('a home from before the database (sessions/ and config.yaml, no state.db) is found and audited', async () => {
  const dir = join(scratch, 'predb', '.hermes');
  mkdirSync(join(dir, 'sessions'), { recursive: true });
  mkdirSync(join(dir, 'memories'));
  writeFileSync(join(dir, 'config.yaml'), 'model: x\n');
  const gw = hermesSessions()[0]!;
  writeFileSync(join(dir, 'sessions', `${gw.id}.jsonl`), transcript(gw));
  const r = await cli(['audit', dir, '--format', 'json', '--fail-on', 'never']);
  const report = JSON.parse(r.stdout) as AuditReport;
  expect(report.sessions.map((s) => s.format)).toEqual(['hermes']);
  expect(report.findings).toEqual([]);
});

test("the approval gate's markers in a terminal result are shown as written, a blocked command as failed", () => {
  const blocked =
    '{"output": "", "status": "blocked", "error": "BLOCKED: User denied this potentially dangerous command"}';
  const approved =
    '{"output": "ok", "exit_code": 0, "approval": ' +
    '"Command required approval (recursive delete) and was approved by the user."}';
  expect(approvalMarker(blocked)).toBe('blocked');
  expect(approvalMarker(approved)).toBe('approved');
  expect(approvalMarker('{"output": "ok", "approval": "… was auto-approved by smart approval."}')).toBe(
    'auto-approved',
  );
  expect(approvalMarker('{"status": "pending_approval", "command": "rm -rf /tmp/x"}')).toBe('pending');
  // A command that mentions the word in its output is not a marker.
  expect(approvalMarker('{"output": "grep BLOCKED log.txt: 0 matches", "exit_code": 0}')).toBeUndefined();
  const n = new HermesNormalizer('t.jsonl', 't');
  const step = n.push({
    line: 1,
    byteOffset: 0,
    byteLength: 1,
    value: { role: 'tool', tool_call_id: 'c1', content: blocked },
  });
  expect(step.event.toolStatus).toBe('failed');
  expect(step.event.summary).toContain("blocked by Hermes's approval gate");
});

test('pairs lists the calls of the sessions only state.db holds, at their rows, beside the transcripts', async () => {
  const r = await cli(['pairs', join(CORPORA, 'hermes', 'clean')]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('5 tool call(s)');
  // The gateway session has a transcript: its call is placed there; the others are the database's rows.
  expect(r.stdout).toMatch(/call_df01[^\n]*\n?[^\n]*sessions\/20260512_231643_a1b2c3d4\.jsonl:3/);
  for (const row of ['state.db:6', 'state.db:10', 'state.db:11', 'state.db:12', 'state.db:15', 'state.db:16'])
    expect(r.stdout).toContain(row);
});
