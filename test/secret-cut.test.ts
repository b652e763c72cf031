/**
 * Secrets where a text is cut (src/secrets/cut.ts): a secret a cut goes through leaves none of its characters,
 * whatever its kind and wherever the cut falls; and the two password detectors, with what they leave alone.
 */
import { describe, expect, test } from 'vitest';
import { redactJsonLine, redactor, redactText } from '../src/bundle/redact.js';
import { findInCut } from '../src/secrets/cut.js';
import { findSecrets } from '../src/secrets/detectors.js';
import { clipTitle } from '../src/pairing/log-call-table.js';
import { clipped } from '../src/formats/schema-runtime.js';
import { PLANTED } from '../scripts/corpora/secrets.js';

const kinds = (text: string) => findSecrets(text).map((m) => m.kind);
/** The value of each planted secret (after its kept header or name). */
const value = (secret: string): string => {
  const [m] = findSecrets(secret);
  return secret.slice(m!.valueStart, m!.end).replace(/^["']|["']$/g, '');
};

describe('a secret cut short', () => {
  /** Characters of each kind's value that are its detector's literal, not secret (a cut inside them leaves none). */
  const LITERAL: Record<string, number> = { 'pem-private-key': 28, jwt: 3, 'api-key': 4 };
  test.each(Object.entries(PLANTED))('a %s cut anywhere in its value leaves no character of it', (kind, secret) => {
    const v = value(secret);
    const from = secret.indexOf(v);
    for (let cut = from + (LITERAL[kind] ?? 0) + 1; cut < from + v.length; cut++) {
      const out = redactText(`before ${secret.slice(0, cut)}…`, redactor(), true).text;
      expect(out, `cut at ${cut}`).toBe(`before ${secret.slice(0, from)}[REDACTED:${kind}]…`);
    }
  });

  test('a `…` in the middle is a cut too, and matches never span it', () => {
    const text = `ran curl -H "Authorization: Bearer abc12…" then xai-${'k'.repeat(5)}… and xai-${'z'.repeat(25)} ok`;
    expect(findInCut(text).map((m) => [m.kind, text.slice(m.valueStart, m.end)])).toEqual([
      ['auth-header', 'abc12'],
      ['api-key', `xai-${'k'.repeat(5)}`],
      ['api-key', `xai-${'z'.repeat(25)}`],
    ]);
    // Without a cut, the short key is not one.
    expect(kinds(`xai-${'k'.repeat(5)} ok`)).toEqual([]);
  });

  test("a tool's title cut to 120 characters is marked, and the index and the page redact across the mark", () => {
    const title = `Run \`curl -H 'Authorization: Bearer ${'x'.repeat(60)}' https://api.example.com/${'a'.repeat(40)}\``;
    const token = `${'Qk7'.repeat(12)}`;
    const withKey = `Run ${'.'.repeat(100)} ghp_${token} and more`;
    expect(clipTitle(title)).toHaveLength(120);
    expect(clipTitle(title).endsWith('\u2026')).toBe(true);
    expect(clipTitle('short')).toBe('short');
    const out = redactText(clipTitle(withKey), redactor(), true).text;
    expect(out).toBe(`Run ${'.'.repeat(100)} [REDACTED:api-key]\u2026`);
  });

  test('a value a schema finding quotes is cut at 40 characters with the mark', () => {
    const quoted = clipped(JSON.stringify(`ts ${'1'.repeat(20)} ghp_${'Qk7'.repeat(12)}`))!;
    expect(quoted).toHaveLength(40);
    expect(redactText(`found ${quoted}`, redactor(), true).text).toBe(
      `found "ts ${'1'.repeat(20)} [REDACTED:api-key]…`,
    );
    expect(clipped('"short"')).toBe('"short"');
    expect(clipped(undefined)).toBeUndefined();
  });

  test('a JSON line whose strings were cut keeps parsing', () => {
    const out = redactJsonLine(JSON.stringify({ summary: 'export GH_TOKEN="ghp_abc…', n: 1 }), redactor(), true);
    expect(JSON.parse(out.text)).toEqual({ summary: 'export GH_TOKEN="[REDACTED:api-key]…', n: 1 });
  });
});

describe('uri-password', () => {
  test.each([
    ['postgres://app:s3cr3t-pw@db:5432/x', 's3cr3t-pw'],
    ['mongodb+srv://admin:Zq9%21xx@cluster0.example.net/db', 'Zq9%21xx'],
    ['redis://:hunter2hunter2@cache:6379', 'hunter2hunter2'],
    ['DATABASE_URL is amqp://guest:Gu3st!pw@rabbit/', 'Gu3st!pw'],
  ])('%s', (text, pw) => {
    const found = findSecrets(text);
    expect(found.map((m) => m.kind)).toEqual(['uri-password']);
    expect(text.slice(found[0]!.valueStart, found[0]!.end)).toBe(pw);
    expect(redactText(text, redactor()).text).toBe(text.replace(pw, '[REDACTED:uri-password]'));
  });

  test.each([
    'https://example.com:8443/path',
    'ssh://git@github.com:22/repo.git',
    'postgres://user:password@localhost/db',
    'postgres://user:***@host/db',
    'postgres://user:<password>@host/db',
    'postgres://user:$' + '{DB_PASSWORD}@host/db',
    'postgres://user:$PGPASS@host/db',
    'see http://user:@host/ and ://x:y@z',
    "new URL('https://abc:xyz@example.com')",
  ])('not %s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

describe('password', () => {
  test.each([
    ['password=Tr0ub4dor&3', 'Tr0ub4dor'],
    ['mysql -u root --password=S3cretPass!', 'S3cretPass!'],
    ['{"username": "bob", "password": "c0rrect horse"}', 'c0rrect horse'],
    ["$db = ['pass' => 'Pa55w0rdX'];", 'Pa55w0rdX'],
    ['db_pass=qwerty123', 'qwerty123'],
    ['userPassword: "n0tT3lling"', 'n0tT3lling'],
    ['  password: hunter2hunter2\n', 'hunter2hunter2'],
    ['passwd=abcd1234', 'abcd1234'],
    ['login?user=bob&pwd=Zz9yY8xX&next=/', 'Zz9yY8xX'],
    ['PASSWORD=letmein99', 'letmein99'],
  ])('%s', (text, pw) => {
    const found = findSecrets(text);
    expect(found.map((m) => m.kind)).toEqual(['password']);
    expect(text.slice(found[0]!.valueStart, found[0]!.end)).toBe(pw);
  });

  test('the quotes of a JSON value stay, so the JSON still parses', () => {
    const out = redactText('{"password": "c0rrect horse"}', redactor()).text;
    expect(JSON.parse(out)).toEqual({ password: '[REDACTED:password]' });
  });

  test.each([
    'password=',
    'password=***',
    'password=********',
    'password=<password>',
    'password=$' + '{DB_PASSWORD}',
    'password=$PASS',
    'password=password',
    '{"password": ""}',
    '{"password": null}',
    'connect(user=user, password=password)',
    'password=self.password',
    'password=getpass()',
    "$password = App::$_CONF->getValue('DB_PASSWORD');",
    "password=cfg['db']",
    'pass=3 fail=0',
    'PWD=/home/dev/project',
    'Password: see the vault for it',
    'if password == "x": return',
    'bypass=yes compass=north passport=x123456',
    'the passwords=are not here',
    'password=abc',
    'password=your-password',
    'password=changeme',
  ])('not %s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  test('an upper-case NAME_PASSWORD= is still the assignment it was', () => {
    expect(kinds('DB_PASSWORD=hunter2hunter2')).toEqual(['assignment']);
  });
});
