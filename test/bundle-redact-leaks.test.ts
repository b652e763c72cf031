/**
 * `bundle --redact` leaves no secret in any member of the bag: not in the payload, and not in what is derived from
 * it (timelines, audit-report.json finding messages, inventory, bag-info, custody statement), whole or clipped, in
 * every archive form.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';
import { filesUnder, unpack } from './helpers/bags.js';
import Database from 'better-sqlite3';
import { scrubSecrets } from '../src/bundle/derived.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-redact-leaks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const id = '019a3f2e-0f10-7c42-8000-00000000a003';
/** One value per kind `--redact` knows (the part a redaction replaces), and a `--redact-pattern` match. */
const SECRETS: Record<string, string> = {
  xai: `xai-${'AbCdEfGhIjKlMnOp'.repeat(2)}`,
  anthropic: `sk-ant-api03-${'Q7x'.repeat(10)}`,
  openai: `sk-proj-${'Pq9Rs8Tu7'.repeat(3)}`,
  akia: 'AKIAABCDEFGHIJKLMNOP',
  asia: 'ASIAQRSTUVWXYZ234567',
  github: `ghp_${'Gh1'.repeat(12)}`,
  githubPat: `github_pat_${'Pat2'.repeat(9)}`,
  gitlab: `glpat-${'Gl3ab'.repeat(5)}`,
  slack: `xoxb-${'1234567890'.repeat(2)}-Sl4ck`,
  google: `AIza${'G00gleKey5'.repeat(3)}abcde`,
  stripe: `sk_live_${'Str1pe'.repeat(4)}`,
  huggingface: `hf_${'Hug6'.repeat(9)}`,
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  pemBody: 'MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g',
  bearer: `T0ken${'Bearer7'.repeat(4)}`,
  cookie: `session=${'C00kie8'.repeat(4)}`,
  assigned: `Assigned9${'Value'.repeat(4)}`,
  uriPassword: `Ur1Pa55${'word'.repeat(4)}`,
  password: `Pa55${'W0rd'.repeat(5)}`,
  custom: 'ACME-654321-SECRET',
  /** A secret given literally as a --redact-pattern: the pattern itself must not be recorded either. */
  literal: 'Literal-Secret-0042-zq',
};
/** A key the timeline's summary cuts after its 8th character: too few for a detector, or for the ledger (12). */
const SHORT_CUT = `xai-Sh0rtCut${'Qq'.repeat(10)}`;
/** Streamed in two chunks, cut after its 11th character. */
const SPLIT_KEY = `xai-Split${'ZyXwVuTsRq'.repeat(3)}`;
const PEM = `-----BEGIN PRIVATE KEY-----\n${SECRETS.pemBody}\n-----END PRIVATE KEY-----`;

const update = (timestamp: unknown, u: Record<string, unknown>): string =>
  `${JSON.stringify({ timestamp, method: 'session/update', params: { sessionId: id, update: u } })}\n`;
const say = (t: number, text: string): string =>
  update(t, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

/** A copy of a clean Grok session with every secret planted where the analysis quotes it. */
function plantedSession(): string {
  const root = join(scratch, 'src');
  cpSync(join(CORPORA, 'grok', 'clean'), root, { recursive: true });
  const group = readdirSync(join(root, 'sessions'))[0]!;
  const dir = join(root, 'sessions', group, id);
  const s = SECRETS;
  appendFileSync(
    join(dir, 'updates.jsonl'),
    [
      // Each key at the end of a long message: the timeline's summary clips it.
      ...[s.xai, s.anthropic, s.openai, s.akia, s.asia, s.github, s.githubPat, s.gitlab, s.slack, s.google]
        .concat([s.stripe, s.huggingface, s.jwt])
        .map((k, i) => say(1787140000 + i, `${'y'.repeat(100 + i)} ${k}`)),
      say(1787140100, `${'z'.repeat(90)}\n${PEM}`),
      say(1787140101, `curl -H "Authorization: Bearer ${s.bearer}" -H "Cookie: ${s.cookie}"`),
      say(1787140102, `export DEPLOY_TOKEN=${s.assigned}`),
      say(1787140103, `order ${s.custom} shipped, ref ${s.literal}`),
      say(1787140107, `psql postgres://app:${s.uriPassword}@db.internal/app`),
      say(1787140108, `mysql --password=${s.password} -h db`),
      say(1787140109, `${'w'.repeat(110)} ${SHORT_CUT}`),
      // A key split across two streamed chunks of one message: each half alone matches no detector.
      say(1787140105, `the new key is ${SPLIT_KEY.slice(0, 11)}`),
      say(1787140106, `${SPLIT_KEY.slice(11)} (keep it safe)`),
      // A secret as a tool call id (finding messages quote it) and as a bad timestamp.
      update(1787140104, {
        sessionUpdate: 'tool_call',
        toolCallId: s.anthropic,
        title: 'run',
        kind: 'execute',
        status: 'pending',
        rawInput: {},
      }),
      say(s.xai as unknown as number, 'hi'),
    ].join(''),
  );
  return dir;
}

const session = plantedSession();

/** Every secret (or a 16-character start of it) found in any member of the unpacked bag. */
function leaks(dir: string): string[] {
  const found: string[] = [];
  for (const f of filesUnder(dir)) {
    const b = readFileSync(join(dir, f)).toString('utf8');
    for (const [kind, v] of Object.entries(SECRETS)) if (b.includes(v.slice(0, 16))) found.push(`${kind} in ${f}`);
    if (b.includes(SPLIT_KEY.slice(0, 11)) || b.includes(SPLIT_KEY.slice(11, 27))) found.push(`split key in ${f}`);
    if (b.includes(SHORT_CUT.slice(0, 8))) found.push(`short cut key in ${f}`);
  }
  return found;
}

describe('bundle --redact leaves no secret in any member', () => {
  test('without --redact the analysis quotes the secrets (what the redacted bag must not)', async () => {
    const out = join(scratch, 'plain');
    expect((await cli(['bundle', session, '-o', out])).code).toBe(0);
    const found = leaks(out);
    expect(found).toContain('anthropic in audit-report.json');
    expect(found.filter((f) => f.startsWith('split key in data/'))).toHaveLength(1);
    expect(found.filter((f) => f.includes('timelines/')).length).toBeGreaterThan(10);
    expect(found.filter((f) => /^(uriPassword|password) in data\/.*updates\.jsonl$/.test(f))).toHaveLength(2);
    expect(found.filter((f) => f.startsWith('short cut key in timelines/'))).not.toEqual([]);
  });

  test.each(['zip', 'tar', 'tgz', 'dir'])('%s', async (form) => {
    const out = join(scratch, form === 'dir' ? 'bag-dir' : `bag.${form}`);
    const r = await cli([
      'bundle',
      session,
      '-o',
      out,
      '--redact',
      '--redact-pattern',
      'ACME-[0-9]{6}-SECRET',
      '--redact-pattern',
      SECRETS.literal!,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const dir = unpack(out, join(scratch, `unpacked-${form}`));
    expect(filesUnder(dir).some((f) => f.startsWith('timelines/'))).toBe(true);
    expect(leaks(dir)).toEqual([]);
    expect((await cli(['verify', out])).code).toBe(0);
  });
});

describe('scrubbing derived text', () => {
  const ledger = new Map([[SECRETS.xai!, 'api-key']]);
  test('a clipped start of a secret is replaced, a short coincidence is not', () => {
    expect(scrubSecrets(`say ${SECRETS.xai!.slice(0, 18)}… end`, ledger)).toBe('say [REDACTED:api-key]… end');
    expect(scrubSecrets('xai-AbCd is a prefix', ledger)).toBe('xai-AbCd is a prefix');
  });
  test('a JSON escape is never cut in half', () => {
    const pem = new Map([['ABCDEFGHIJKLM\nZ', 'pem-private-key']]);
    expect(scrubSecrets('"ABCDEFGHIJKLM\\u0000"', pem)).toBe('"[REDACTED:pem-private-key]\\u0000"');
  });
});

describe('bundle --redact and files that are not text', () => {
  /** A copy of the clean Hermes home with a key in a message row of state.db (a database cannot be redacted). */
  function hermesWithKey(): string {
    const home = join(scratch, 'hermes-home');
    cpSync(join(CORPORA, 'hermes', 'clean'), home, { recursive: true });
    const db = new Database(join(home, 'state.db'));
    db.prepare('UPDATE messages SET content = content || ? WHERE id = (SELECT min(id) FROM messages)').run(
      ` ${SECRETS.xai}`,
    );
    db.close();
    return home;
  }
  const home = hermesWithKey();

  test('a redacted bag leaves state.db out and says so; the key is in no member', async () => {
    const out = join(scratch, 'hermes-redacted');
    const r = await cli(['bundle', home, '-o', out, '--redact']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/not archived: data\/hermes\/.*state\.db: withheld by --redact: not text/);
    expect(filesUnder(out).some((f) => f.endsWith('state.db'))).toBe(false);
    expect(leaks(out)).toEqual([]);
    const inventory = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as unknown;
    expect(JSON.stringify(inventory)).toMatch(/state\.db.*"archived":false/);
    expect((await cli(['verify', out])).code).toBe(0);
  });

  test('without --redact the database is archived byte for byte (the key with it)', async () => {
    const out = join(scratch, 'hermes-plain');
    expect((await cli(['bundle', home, '-o', out])).code).toBe(0);
    expect(filesUnder(out).some((f) => f.endsWith('state.db'))).toBe(true);
    expect(leaks(out)).toContain('xai in data/hermes/hermes-home/state.db');
  });
});
