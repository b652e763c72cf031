/**
 * Secrets and the evidence store's index, where a text is cut: an event's summary kept its text's first 120
 * characters, so a token the cut went through left its first characters in `index.sqlite` (too few for its
 * detector to know them); a password in a URI or an assignment was not known at all. The index holds no summary
 * since version 4, and every text it holds that may have been cut is redacted up to the cut. Read from the bytes of the
 * index file after `archive`, and from the audit's findings and the HTML report of the same session.
 */
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, test } from 'vitest';
import { cli } from '../helpers/cli.js';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');
const ID = '019a3f2e-0f10-7c42-8000-00000000a003';
const work = mkdtempSync(join(tmpdir(), 'sa-index-secrets-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A prompt padded to `n` characters: the secret's value after it starts 100 in, and the cut (120) goes through it. */
const pad = (s: string, n = 100): string => `${s} `.padEnd(n, '.');
const TOKEN = `ghp_${'Qk7'.repeat(12)}`;
const URI_PW = 'Vb9LmW4rTq2ZxN8cJd3FsY6hPu1GkE';
const PW = 'Hx8vK2pQ7zL4mN9wRtB5nC3jW6sD0a';
const PROMPTS = [
  `${pad('The CI token is')}${TOKEN} and nothing else.`,
  `${pad('Connect to the database at', 82)}postgres://deploy:${URI_PW}@db.internal:5432/app, then migrate.`,
  `${pad('Log in with', 91)}password=${PW} on the staging box.`,
  `Short ones: mysql://root:${URI_PW}x@localhost/db and {"password": "${PW}y"} and pwd=/home/dev/proj.`,
];
/** Every fragment a cut could leave: the value's first 8 characters after the key's prefix. */
const FRAGMENTS = [TOKEN.slice(4, 12), URI_PW.slice(0, 8), PW.slice(0, 8)];

describe('secrets in the index, the findings and the HTML report', () => {
  const root = join(work, 'root');
  const store = join(work, 'store');
  const dir = join(root, 'grok', '%2Fhome%2Fdev%2Fproj', ID);
  cpSync(join(CORPORA, 'grok', 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', ID), dir, { recursive: true });
  const log = join(dir, 'updates.jsonl');
  const first = readFileSync(log, 'utf8').split('\n')[0]!;
  for (const p of PROMPTS) appendFileSync(log, `${first.replace(/"text":"[^"]*"/, `"text":${JSON.stringify(p)}`)}\n`);

  test('the prompts are what they should be: each secret starts 100 characters in', () => {
    expect([TOKEN, URI_PW, PW].map((v, i) => PROMPTS[i]!.indexOf(v))).toEqual([100, 100, 100]);
  });

  test('no fragment of a cut secret, and no password, is in the bytes of index.sqlite', async () => {
    const a = await cli(['archive', root, '--store', store]);
    expect(a.code, a.stderr).toBe(0);
    const files = ['index.sqlite', 'index.sqlite-wal'].map((f) => join(store, f)).filter(existsSync);
    const bytes = Buffer.concat(files.map((f) => readFileSync(f)));
    for (const f of FRAGMENTS) expect(bytes.includes(f), f).toBe(false);
    const db = new Database(join(store, 'index.sqlite'), { readonly: true });
    try {
      const rows = db.prepare("SELECT text FROM event_rows WHERE kind = 'user_prompt'").all() as Array<{
        text: string;
      }>;
      const planted = rows.filter((r) => /CI token|database at|Log in|Short ones/.test(r.text));
      expect(planted).toHaveLength(4);
      const all = planted.map((r) => r.text).join('\n');
      expect(all).toContain('[REDACTED:api-key]');
      expect(all).toContain('postgres://deploy:[REDACTED:uri-password]@db.internal');
      expect(all).toContain('mysql://root:[REDACTED:uri-password]@localhost');
      expect(all).toContain('password=[REDACTED:password]');
      expect(all).toContain('{"password": "[REDACTED:password]"}');
      // A path is not a password.
      expect(all).toContain('pwd=/home/dev/proj');
    } finally {
      db.close();
    }
  });

  test('the audit reports each password as SECRET_IN_SESSION, never its value', async () => {
    const r = await cli(['audit', dir, '--format', 'json']);
    const found = (JSON.parse(r.stdout) as { findings: Array<{ code: string; message: string }> }).findings.filter(
      (f) => f.code === 'SECRET_IN_SESSION',
    );
    const kinds = found.map((f) => f.message.split(' ')[0]);
    expect(kinds.filter((k) => k === 'uri-password')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'password')).toHaveLength(2);
    for (const f of [...FRAGMENTS, URI_PW, PW]) expect(r.stdout).not.toContain(f);
  });

  test('the HTML report shows the session text without them', async () => {
    const r = await cli(['audit', dir, '--format', 'html']);
    for (const f of FRAGMENTS) expect(r.stdout).not.toContain(f);
    expect(r.stdout).toContain('REDACTED:uri-password');
    expect(r.stdout).toContain('REDACTED:password');
  });
});
