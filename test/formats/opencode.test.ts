/**
 * opencode data directories: the real E0 tree and E2 channel database in ../shared/external/opencode audit to
 * exactly the findings that are really in them; every command runs on them, and on a synthetic directory whose rows
 * live only in a live -wal, without changing a byte, a mode, an mtime or a directory listing; the credential rows
 * and files never reach a report, a timeline, the index or a bag; the corpora (checked-in = generated); the read
 * of the rows (terminal states only pair); inspect's warning that opening the data with opencode destroys evidence.
 */
import Database from 'better-sqlite3';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { generateAgentCorpora } from '../../scripts/gen-corpora.js';
import { OPENCODE_LAYOUT, opencodeCorpus } from '../../scripts/corpora/cases-opencode.js';
import { catalog } from '../../src/checks/catalog.js';
import type { AuditReport } from '../../src/model/report.js';
import { expectShippedCorpora } from '../helpers/agent-corpora.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { changes, fingerprint } from '../helpers/fingerprint.js';

const EXTERNAL = [join(CORPORA, '..', '..', 'shared', 'external', 'opencode'), '/work/shared/external/opencode'].find(
  (p) => existsSync(p),
);
if (!EXTERNAL) console.warn('skipping the real opencode files: ../shared/external/opencode is absent');
const DATA = EXTERNAL && join(EXTERNAL, 'Saintcyberwarrior__dotfiles', '.local', 'share', 'opencode');

const scratch = mkdtempSync(join(tmpdir(), 'sa-opencode-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const audit = async (...args: string[]): Promise<AuditReport> => {
  const r = await cli(['audit', ...args, '--format', 'json', '--fail-on', 'never']);
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as AuditReport;
};
const summary = (rep: AuditReport): string[] =>
  rep.findings.map((f) => `${f.location.file}:${f.location.line ?? ''} ${f.code} ${f.severity}`).sort();

/**
 * Every command a user has, on `target` (a data directory or one database), into `scratch`/`tag`; returns all the
 * text the commands wrote. Each must succeed.
 */
async function everyCommand(target: string, tag: string, word: string): Promise<string> {
  let out = '';
  const run = async (args: string[]) => {
    const r = await cli(args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    out += r.stdout + r.stderr;
  };
  await run(['audit', target, '--fail-on', 'never', '--format', 'json']);
  await run(['validate', target, '--fail-on', 'never']);
  for (const c of ['timeline', 'pairs', 'inspect', 'lineage', 'transcript', 'activity', 'sessions'])
    await run([c, target]);
  await run(['timeline', target, '--format', 'jsonl']);
  const bag = join(scratch, `${tag}.zip`);
  await run(['bundle', target, '-o', bag]);
  await run(['verify', bag, '--against', target]);
  const store = join(scratch, `${tag}-store`);
  await run(['archive', target, '--store', store]);
  await run(['search', word, '--store', store]);
  return out;
}

describe.skipIf(!DATA)('the real opencode data directory (../shared/external/opencode)', () => {
  /**
   * Every finding, each confirmed against the files:
   * - project/global/ is an E0 tree (opencode 0.5.28): its two sessions are in no newer store (opencode ≥0.6 never
   *   migrates the `global` project, and opencode-stable.db holds only ses_2c01b767…): OPENCODE_LEGACY_NOT_IMPORTED,
   *   a warning each: true, opencode cannot show them.
   * - opencode-stable.db (E2, 8 drizzle migrations, all known; an empty -wal: nothing uncheckpointed; no credential
   *   row; one session whose assistant message failed with APIError 402 and has no parts): nothing.
   */
  test('it audits to exactly the findings that are really in it, and none is an error', async () => {
    const rep = await audit(DATA!);
    expect(rep.toolErrors).toEqual([]);
    expect(summary(rep)).toEqual([
      'project/global/storage/session/info/ses_4343439b2ffe8vCbtGr04gHePJ.json: OPENCODE_LEGACY_NOT_IMPORTED warning',
      'project/global/storage/session/info/ses_44234b4aeffe6EUGUjiyzSIEZV.json: OPENCODE_LEGACY_NOT_IMPORTED warning',
    ]);
    const db = await audit(join(DATA!, 'opencode-stable.db'));
    expect(db.findings).toEqual([]);
  });

  test('every command runs on the directory and on the database alone, and nothing changes', async () => {
    const before = fingerprint(EXTERNAL!);
    await everyCommand(DATA!, 'real', 'hello');
    await everyCommand(join(DATA!, 'opencode-stable.db'), 'real-db', 'hello');
    expect(changes(before, fingerprint(EXTERNAL!))).toEqual([]);
  });

  test('the timeline has every prompt of both eras, by time, each with its own clock', async () => {
    const r = await cli(['timeline', DATA!, '--format', 'jsonl']);
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; summary?: string; what?: string });
    const prompts = events.filter((e) => e.kind === 'user_prompt').map((e) => JSON.stringify(e));
    expect(prompts.length).toBe(3);
    expect(prompts.join('\n')).toContain('How are you');
    expect(prompts.join('\n')).toContain('Explain surface codes');
    expect(prompts.join('\n')).toContain('hello');
  });

  test('inspect names the resume command and says that opening the data with opencode deletes rows', async () => {
    for (const target of [DATA!, join(DATA!, 'opencode-stable.db')]) {
      const r = await cli(['inspect', target]);
      expect(r.stdout).toContain('opencode --session');
      expect(r.stdout).toContain('Opening the data with opencode deletes rows and drops tables');
      expect(r.stdout).toContain('Bundle first');
      expect(r.stdout).toContain('A resume appends the next prompt to the same rows');
    }
  });
});

describe('a data directory whose rows live only in a live -wal', () => {
  test('every command reads the rows through the log, and no byte, mode, mtime or listing changes', async () => {
    const dir = join(scratch, 'wal');
    cpSync(join(CORPORA, 'opencode', 'wal-uncheckpointed'), dir, { recursive: true });
    rmSync(join(dir, 'expected.json'));
    const before = fingerprint(dir);
    const out = await everyCommand(dir, 'wal', 'health');
    expect(changes(before, fingerprint(dir))).toEqual([]);
    // The rows were read through the -wal: the prompt and the subagent's reply are there.
    expect(out).toContain('Add a /health endpoint and run the tests.');
    const rep = await audit(dir);
    expect(rep.findings.map((f) => f.code)).toEqual(['OPENCODE_WAL_UNCHECKPOINTED']);
    expect(rep.findings[0]!.message).toMatch(/committed frame\(s\)/);
  });
});

describe('a -wal SQLite does not read', () => {
  test('frames past a broken header are counted and kept, the database read without them', async () => {
    const dir = join(scratch, 'stale');
    cpSync(join(CORPORA, 'opencode', 'clean'), dir, { recursive: true });
    const wal = Buffer.from(readFileSync(join(CORPORA, 'opencode', 'wal-uncheckpointed', 'opencode.db-wal')));
    wal.writeUInt32BE((wal.readUInt32BE(16) + 1) >>> 0, 16);
    writeFileSync(join(dir, 'opencode.db-wal'), wal);
    const rep = await audit(dir);
    expect(rep.findings.map((f) => `${f.code} ${f.severity}`)).toEqual(['OPENCODE_WAL_UNCHECKPOINTED note']);
    expect(rep.findings[0]!.message).toMatch(/no committed frame SQLite reads \(the header checksum/);
  });
});

describe('credentials', () => {
  test('an account token and auth.json never reach a report, a timeline, the index or a bag', async () => {
    const dir = join(scratch, 'secrets');
    cpSync(join(CORPORA, 'opencode', 'secret-rows'), dir, { recursive: true });
    cpSync(join(CORPORA, 'opencode', 'secret-file', 'auth.json'), join(dir, 'auth.json'));
    const out = await everyCommand(dir, 'secrets', 'health');
    expect(out).not.toContain('sk-oc-FAKE');
    expect(out).not.toContain('sk-ant-api03-FAKE');
    const rep = await audit(dir);
    expect(rep.findings.map((f) => f.code).sort()).toEqual(['OPENCODE_SECRET_FILE', 'OPENCODE_SECRET_ROWS']);
    // Bags as directories, read whole: a plain bag and a redacted one hold neither token.
    for (const args of [[], ['--redact']]) {
      const bag = join(scratch, `secrets-bag${args.length}`);
      expect((await cli(['bundle', dir, '-o', bag, ...args])).code).toBe(0);
      const text = readdirSync(bag, { recursive: true, encoding: 'utf8' })
        .map((p) => join(bag, p))
        .filter((p) => statSync(p).isFile())
        .map((p) => readFileSync(p, 'latin1'))
        .join('\n');
      expect(text).not.toContain('sk-ant-api03-FAKE');
      if (args.length) expect(text).not.toContain('sk-oc-FAKE');
      expect(text).toContain("withheld: a copy of the user's files or a secret the agent keeps");
    }
  });
});

describe('pairing reads terminal states only', () => {
  test('completed parts are answered; one left running is interrupted, one left pending unanswered', async () => {
    const rows = async (name: string) => {
      const r = await cli(['pairs', join(CORPORA, 'opencode', name), '--format', 'json']);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { sessions: Array<{ rows: Array<{ id: string; status: string }> }> }).sessions[0]!
        .rows;
    };
    expect((await rows('clean')).map((x) => `${x.id} ${x.status}`)).toEqual([
      'toolu_01bash answered',
      'toolu_02edit answered',
      'toolu_03task answered',
      'toolu_04grep answered',
    ]);
    expect((await rows('tool-interrupted')).find((x) => x.id === 'toolu_09bash')?.status).toBe('interrupted');
    expect((await rows('tool-unanswered')).find((x) => x.id === 'toolu_02edit')?.status).toBe('unanswered');
  });

  test('activity reads the shell command, the edited file and the subagent', async () => {
    const r = await cli(['activity', join(CORPORA, 'opencode', 'clean'), '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('npm test');
    expect(r.stdout).toContain('/home/dev/app/src/server.ts');
  });
});

describe('hostile databases', () => {
  test('a foreign schema, a database that is a directory, an empty one: findings, never a crash', async () => {
    const make = (name: string, sql: string[]): string => {
      const dir = join(scratch, name);
      mkdirSync(dir);
      const db = new Database(':memory:');
      for (const q of sql) db.exec(q);
      writeFileSync(join(dir, 'opencode.db'), db.serialize());
      db.close();
      return dir;
    };
    const foreign = make('foreign', [
      'CREATE TABLE session (id text)',
      'CREATE TABLE message (id text, session_id text)',
      'CREATE TABLE part (id text)',
      "INSERT INTO session VALUES ('s1')",
      "INSERT INTO message VALUES ('m1', 's1')",
    ]);
    const asDir = join(scratch, 'as-dir');
    mkdirSync(join(asDir, 'opencode.db'), { recursive: true });
    const empty = join(scratch, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'opencode-dev.db'), '');
    const codes = async (dir: string) => (await audit(dir)).findings.map((f) => f.code);
    expect(await codes(foreign)).toEqual(['OPENCODE_ROW_UNREADABLE']);
    expect(await codes(asDir)).toEqual(['OPENCODE_DB_UNREADABLE']);
    expect(await codes(empty)).toEqual(['OPENCODE_DB_UNREADABLE']);
    for (const dir of [foreign, asDir, empty])
      for (const c of ['timeline', 'inspect', 'transcript', 'pairs']) {
        const r = await cli([c, dir]);
        expect(r.stderr, `${c} ${dir}`).toBe('');
      }
  });
});

describe('the timeline of an E3 database', () => {
  test("tells a session from its event log: each tool part's pending, running, completed states", async () => {
    const r = await cli(['timeline', join(CORPORA, 'opencode', 'clean'), '--format', 'jsonl']);
    expect(r.code, r.stderr).toBe(0);
    const bash = r.stdout
      .split('\n')
      .filter((l) => l.includes('bash {'))
      .map((l) => (JSON.parse(l) as { kind: string }).kind);
    expect(bash).toEqual(['tool_update', 'tool_call', 'tool_update']);
    expect(r.stdout).toContain('[pending]');
    expect(r.stdout).toContain('[running]');
    // Without an event log (E2, or E3 after the 1.16 wipe) each row's last state only.
    const e2 = await cli(['timeline', join(CORPORA, 'opencode', 'events-empty'), '--format', 'jsonl']);
    expect(e2.stdout).not.toContain('[pending]');
  });
});

describe('the opencode corpora', () => {
  test('checked-in corpora/opencode is what the generator writes', () => {
    const out = mkdtempSync(join(scratch, 'corpora-'));
    generateAgentCorpora(
      out,
      'opencode',
      'opencode',
      OPENCODE_LAYOUT,
      ...opencodeCorpus(),
      catalog().map((e) => e.code),
    );
    expectShippedCorpora(out, 'opencode');
  });

  test('every OPENCODE_ code has a case that must produce it', () => {
    const must = new Set(opencodeCorpus()[1].flatMap((c) => c.must));
    const own = catalog()
      .map((e) => e.code)
      .filter((c) => c.startsWith('OPENCODE_'));
    expect(own.filter((c) => !must.has(c))).toEqual([]);
  });
});
