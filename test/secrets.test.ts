/**
 * The secret detectors (src/secrets/): what each kind finds, that a scan is linear whatever the input (adversarial
 * inputs of 1 MB in under a second), and that a user's pattern runs on the linear-time engine or is refused.
 */
import { describe, expect, test } from 'vitest';
import { redactJsonLine, redactor } from '../src/bundle/redact.js';
import { findInCut } from '../src/secrets/cut.js';
import { BUILTIN_DETECTORS, BUILTIN_KINDS, findSecrets } from '../src/secrets/detectors.js';
import { userDetector } from '../src/secrets/user-patterns.js';
import { PLANTED } from '../scripts/corpora/secrets.js';

const kinds = (text: string) => findSecrets(text).map((m) => m.kind);

describe('the built-in detectors', () => {
  test.each(Object.entries(PLANTED))('find a %s inside text', (kind, secret) => {
    expect(kinds(`before ${secret} after`)).toEqual([kind]);
  });

  test('cover every kind of the table, and find nothing in ordinary text', () => {
    expect(Object.keys(PLANTED).sort()).toEqual([...BUILTIN_KINDS].sort());
    expect(findSecrets('the task-runner-configuration-for-builds ran; see AKIA docs and eyJ notes')).toEqual([]);
  });

  test('find provider keys glued to a preceding word character', () => {
    expect(kinds(`xx${PLANTED['api-key']}`)).toEqual(['api-key']);
    expect(kinds(`token:sk-ant-api03-${'A'.repeat(30)}`)).toEqual(['api-key']);
    expect(kinds(`abcghp_${'B'.repeat(36)}`)).toEqual(['api-key']);
  });

  test('report the value only, after a kept header or variable name', () => {
    const text = `x ${PLANTED.assignment} y`;
    const [m] = findSecrets(text);
    expect(text.slice(m!.start, m!.valueStart)).toBe('OPENAI_API_KEY=');
    expect(text.slice(m!.valueStart, m!.end)).toBe('q'.repeat(40));
  });

  test('a key inside an Authorization header is found once, as the key', () => {
    expect(kinds(`Authorization: Bearer ${PLANTED['api-key']}`)).toEqual(['api-key']);
  });

  test('a header value with no letter or digit is no credential (prose such as "(Authorization: Bearer)")', () => {
    expect(kinds('認証: sessionToken (Authorization: Bearer)\n  Body:')).toEqual([]);
    expect(kinds('Cookie: ;')).toEqual([]);
    expect(kinds('Authorization: Bearer abc123-token')).toEqual(['auth-header']);
  });

  const adversarial: Record<string, string> = {
    'JWT-like runs': 'eyJaaaaaaaa-'.repeat(87382),
    'JWT runs with dots': 'eyJaaaaaaaa.'.repeat(87382),
    'key prefixes': 'ghp_xai-AIzasklive_hf_'.repeat(47663),
    'PEM headers': '-----BEGIN RSA PRIVATE KEY-----'.repeat(33825),
    'assignment names': 'AAAAAAAAAAAAAAAAAAAAAAA_KEY :'.repeat(36158),
    'header names': 'Authorization: Cookie: '.repeat(45590),
    'one long key': `xai-${'a'.repeat(1_048_572)}`,
    'spaces after a header': `Authorization:${' '.repeat(1_000_000)}`,
    'an unterminated quoted value': `API_KEY="${'x '.repeat(500_000)}`,
    'mixed quotes': 'A_KEY="x B_KEY=\'y '.repeat(62_500),
    'BEGIN lines without an END': `${'-----BEGIN PRIVATE KEY-----\nMIIE\n'.repeat(31_000)}`,
    'END lines without a BEGIN': `${'-----END PRIVATE KEY-----'.repeat(40_000)}-----BEGIN PRIVATE KEY-----`,
    // Each of these once took seconds for 70 KB or less (a placeholder's value read again for every name in it;
    // the trailing punctuation of a value stripped by a regular expression tried at every position).
    'placeholder values holding names': 'A_KEY=$'.repeat(150_000),
    'punctuation before the end of a value': `A_KEY=x${','.repeat(1_000_000)}y`,
    'URI schemes': 'a://b:c'.repeat(150_000),
    'URI users without a password': `x://${'u'.repeat(1_000_000)}`,
    'URI passwords without a host': 'postgres://u:p'.repeat(75_000),
    'password keys': 'password=password='.repeat(60_000),
    'password keys with open quotes': 'password="x pass=\'y '.repeat(50_000),
    'YAML password keys': `${'  password: '.repeat(90_000)}`,
    'camelCase keys': 'dbPassPwdPasswordPasswd'.repeat(45_000),
  };
  test.each(Object.entries(adversarial))('scan 1 MB of %s in under a second', (_name, text) => {
    expect(text.length).toBeGreaterThanOrEqual(1_000_000);
    let t = performance.now();
    findSecrets(text);
    expect(performance.now() - t).toBeLessThan(1000);
    // As a text cut short (cut.ts): every detector reads it with the end open.
    t = performance.now();
    findSecrets(text, BUILTIN_DETECTORS, true);
    findInCut(`${text}\u2026${text.slice(0, 1000)}`);
    expect(performance.now() - t).toBeLessThan(2000);
    t = performance.now();
    redactText1MB(text);
    expect(performance.now() - t).toBeLessThan(1000);
  });
});

function redactText1MB(text: string): void {
  redactJsonLine(JSON.stringify({ text }), redactor());
}

describe('a user pattern', () => {
  test('runs on the linear-time engine: (a+)+$ on 41 bytes ends at once', () => {
    const d = userDetector('(a+)+$', 'custom');
    const t = performance.now();
    expect(findSecrets(`${'a'.repeat(40)}!`, [d])).toEqual([]);
    expect(findSecrets('a'.repeat(100_000), [d])).toHaveLength(1);
    expect(performance.now() - t).toBeLessThan(1000);
  });

  test('that the linear-time engine cannot run is refused with one line', () => {
    expect(() => userDetector('(?=x)abc', 'custom')).toThrow(/linear-time engine/);
    expect(() => userDetector('(a)\\1', 'custom')).toThrow(/linear-time engine/);
    expect(() => userDetector('(', 'custom')).toThrow(/not a valid regular expression/);
  });

  test('that matches the empty string is refused', () => {
    expect(() => userDetector('a*', 'custom')).toThrow(/matches the empty string/);
  });
});

describe('redaction with the shared table', () => {
  test('a JSON-escaped key (\\u0078ai-…) is redacted and the line still parses', () => {
    const line = `{"text":"key \\u0078ai-${'Z'.repeat(30)} end"}`;
    const out = redactJsonLine(line, redactor());
    expect(out.n).toBe(1);
    expect(JSON.parse(out.text)).toEqual({ text: 'key [REDACTED:api-key] end' });
  });

  test('a key glued to a word is redacted', () => {
    const out = redactJsonLine(JSON.stringify({ t: `xx${PLANTED['api-key']}` }), redactor());
    expect(JSON.parse(out.text)).toEqual({ t: 'xx[REDACTED:api-key]' });
  });

  test('every built-in detector is the one table redaction uses', () => {
    expect(redactor().patterns).toEqual(BUILTIN_DETECTORS);
  });
});

describe('placeholders are not secrets', () => {
  test.each([
    'export ANTHROPIC_API_KEY=sk-ant-...',
    'export ZAI_API_KEY=...',
    'GITHUB_TOKEN=$GITHUB_TOKEN',
    'DB_PASSWORD="$' + '{DB_PASSWORD}"',
    'API_KEY=<your key>',
    'OPENAI_API_KEY=your-api-key',
    'SECRET_KEY={{ secret }}',
    'AUTH_TOKEN=xxxxxxxx',
    'MY_PASSWORD=changeme',
    'set `process.env.ANTHROPIC_API_KEY = undefined` to delete it',
    'const API_KEY = process.env.API_KEY;',
  ])('%s', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });
  test('a real value beside them is still found', () => {
    expect(findSecrets('DB_PASSWORD=hunter2 API_KEY=...').map((m) => m.kind)).toEqual(['assignment']);
  });
});
