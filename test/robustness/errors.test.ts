/**
 * Clear errors (issue 9 §5): every user-facing error — a bad path, an unreadable root, a bad option value, a
 * bad config file, a bad --baseline, an unknown code, a bad --format, a missing required argument — is ONE line
 * on stderr, starting "session-audit: " and naming the flag or path at fault, nothing on stdout, exit 2, no
 * stack. An unexpected exception is exit 3 with the stack and a "please report" line.
 *
 * test/cli.test.ts already covers, for `audit`: a missing path, a file for a directory, an empty directory,
 * --format, --fail-on, --ignore, --severity, --max-line-bytes, an unknown option, no command and `checks NOPE`;
 * these are the rest, for every command.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { reportError, UsageError } from '../../src/errors.js';
import { main } from '../../src/cli/main.js';
import { cli } from '../helpers/cli.js';
import { BUILT, runBuilt } from '../helpers/cli-child.js';
import { CORPORA } from '../helpers/corpora.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-errors-'));
afterAll(() => {
  spawnSync('chmod', ['-R', 'u+rwx', scratch]);
  rmSync(scratch, { recursive: true, force: true });
});
const f = (name: string, content: string | Buffer): string => {
  const p = join(scratch, name);
  writeFileSync(p, content);
  return p;
};

const C = join(CORPORA, 'grok', 'clean');
const S = join(C, 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001');
const BAG = join(CORPORA, 'bundles', 'valid', 'bag');
const SIGNED = join(CORPORA, 'bundles', 'signed', 'bag');
const NOPE = join(scratch, 'no-such-thing');
const dir = join(scratch, 'a-directory');
mkdirSync(dir);

/** [what, argv, what the one line must say] */
const cases: Array<[string, string[], RegExp]> = [
  // bad paths, every command
  ['timeline: missing session', ['timeline', NOPE], /no-such-thing: no such file or directory/],
  ['timeline: several sessions', ['timeline', C], /holds 3 sessions; give one session directory/],
  ['pairs: missing path', ['pairs', NOPE], /no-such-thing: no such file or directory/],
  ['inspect: missing session', ['inspect', NOPE], /no-such-thing: no such file or directory/],
  ['lineage: missing root', ['lineage', NOPE], /no-such-thing: no such file or directory/],
  ['bundle: missing path', ['bundle', NOPE, '-o', join(scratch, 'b1.zip')], /no-such-thing: no such file or directory/],
  ['verify: missing bag', ['verify', NOPE], /no-such-thing: no such file or directory/],
  ['verify: --against a missing dir', ['verify', BAG, '--against', NOPE], /no-such-thing: no such file or directory/],
  [
    'audit: --earlier-capture a missing capture',
    ['audit', C, '--earlier-capture', NOPE],
    /no-such-thing: no such file or directory/,
  ],
  [
    'audit: --output into a missing directory',
    ['audit', C, '--output', join(NOPE, 'r.json')],
    /--output .*no-such-thing.*does not exist/,
  ],
  [
    'bundle: --output inside the evidence',
    ['bundle', C, '-o', join(C, 'bag.zip')],
    /--output .*refusing to write inside the input directory/,
  ],
  // bad option values
  ['audit --jobs 0', ['audit', C, '--jobs', '0'], /--jobs 0: expected a whole number from 1 to 256/],
  ['audit --jobs abc', ['audit', C, '--jobs', 'abc'], /--jobs .*expected a number/],
  ['timeline --since', ['timeline', S, '--since', 'yesterday'], /--since "yesterday": expected an ISO 8601 time/],
  ['timeline --prompt -1', ['timeline', S, '--prompt', '-1'], /--prompt -1/],
  ['timeline --kind', ['timeline', S, '--kind', 'nope'], /--kind "nope": expected one of/],
  ['timeline --max-line-bytes 0', ['timeline', S, '--max-line-bytes', '0'], /--max-line-bytes 0/],
  ['inspect --exit-code 999', ['inspect', S, '--exit-code', '999'], /--exit-code 999: expected a process exit code/],
  ['inspect --fail-on', ['inspect', S, '--fail-on', 'sometimes'], /--fail-on "sometimes"/],
  ['verify --fail-on', ['verify', BAG, '--fail-on', 'sometimes'], /--fail-on "sometimes"/],
  [
    'bundle --bagging-date',
    ['bundle', C, '-o', join(scratch, 'b2.zip'), '--bagging-date', '2026-13-45'],
    /--bagging-date "2026-13-45": expected YYYY-MM-DD/,
  ],
  [
    'bundle --redact-pattern',
    ['bundle', C, '-o', join(scratch, 'b3.zip'), '--redact', '--redact-pattern', '('],
    /--redact-pattern "\(": not a valid regular expression/,
  ],
  [
    'bundle --sign-key not a key',
    ['bundle', C, '-o', join(scratch, 'b4.zip'), '--sign-key', f('not-a-key.pem', 'not a pem')],
    /--sign-key .*not-a-key\.pem/,
  ],
  ['verify --key not a key', ['verify', SIGNED, '--key', f('not-a-pub.pem', 'not a pem')], /--key .*not-a-pub\.pem/],
  ['verify --key missing', ['verify', SIGNED, '--key', NOPE], /--key .*no-such-thing: no such file/],
  [
    'inspect --headless-log missing',
    ['inspect', S, '--headless-log', NOPE],
    /--headless-log .*no-such-thing: no such file/,
  ],
  [
    'audit --sandbox-config missing',
    ['audit', C, '--sandbox-config', NOPE],
    /--sandbox-config .*no-such-thing: no such file/,
  ],
  [
    'audit --sandbox-config broken',
    ['audit', C, '--sandbox-config', f('broken.toml', '[profiles.x\nextends=')],
    /--sandbox-config .*broken\.toml: not valid TOML/,
  ],
  [
    'audit --severity unknown code',
    ['audit', C, '--severity', 'NOPE_CODE=error'],
    /--severity "NOPE_CODE": unknown finding code/,
  ],
  [
    'validate --ignore unknown code',
    ['validate', C, '--ignore', 'JSONL_TORN_TAIL,NOPE_CODE'],
    /--ignore "NOPE_CODE": unknown finding code/,
  ],
  // bad --format, every command that has one
  [
    'validate --format',
    ['validate', C, '--format', 'xml'],
    /--format "xml": expected one of table, json, sarif, junit, markdown, html/,
  ],
  [
    'timeline --format',
    ['timeline', S, '--format', 'xml'],
    /--format "xml": expected one of table, jsonl, json, csv, timesketch/,
  ],
  ['pairs --format', ['pairs', C, '--format', 'xml'], /--format "xml": expected one of table, json/],
  ['inspect --format', ['inspect', S, '--format', 'xml'], /--format "xml": expected one of text, json/],
  ['lineage --format', ['lineage', C, '--format', 'xml'], /--format "xml": expected one of table, json, dot, mermaid/],
  ['verify --format', ['verify', BAG, '--format', 'xml'], /--format "xml": expected one of table, json/],
  ['checks --format', ['checks', '--format', 'xml'], /--format "xml": expected table or json/],
  // bad config files
  ['config missing', ['audit', C, '--config', NOPE], /config .*no-such-thing: no such file/],
  ['config is a directory', ['audit', C, '--config', dir], /config .*a-directory: is not a regular file/],
  ['config not JSON', ['audit', C, '--config', f('c1.json', '{"failOn": ')], /config .*c1\.json: not valid JSON/],
  [
    'config not UTF-8',
    ['audit', C, '--config', f('c2.json', Buffer.from([0x7b, 0xff, 0x7d]))],
    /config .*c2\.json: not valid JSON/,
  ],
  ['config an array', ['audit', C, '--config', f('c3.json', '[]')], /config .*c3\.json: at \(top level\)/],
  ['config unknown key', ['audit', C, '--config', f('c4.json', '{"colour":true}')], /config .*c4\.json: .*"colour"/],
  ['config wrong type', ['audit', C, '--config', f('c5.json', '{"jobs":"two"}')], /config .*c5\.json: at \/jobs/],
  [
    'config bad failOn',
    ['audit', C, '--config', f('c6.json', '{"failOn":"sometimes"}')],
    /config .*c6\.json: at \/failOn/,
  ],
  [
    'config unknown code',
    ['audit', C, '--config', f('c7.json', '{"severity":{"NOPE_CODE":"error"}}')],
    /config .*c7\.json: unknown finding code "NOPE_CODE"/,
  ],
  ['config bad format', ['audit', C, '--config', f('c8.json', '{"format":"xml"}')], /config .*c8\.json: at \/format/],
  ['config jobs out of range', ['validate', C, '--config', f('c9.json', '{"jobs":0}')], /config .*c9\.json: at \/jobs/],
  // bad baselines
  ['baseline missing', ['audit', C, '--baseline', NOPE], /--baseline .*no-such-thing: no such file/],
  ['baseline a directory', ['audit', C, '--baseline', dir], /--baseline .*a-directory: is not a regular file/],
  ['baseline not JSON', ['audit', C, '--baseline', f('b1.json', '{')], /--baseline .*b1\.json: not valid JSON/],
  [
    'baseline not a report',
    ['audit', C, '--baseline', f('b2.json', '{"a":1}')],
    /--baseline .*b2\.json: not a session-audit JSON report/,
  ],
  [
    'baseline from the config, missing',
    ['audit', C, '--config', f('c10.json', `{"baseline":"${NOPE}"}`)],
    /--baseline .*no-such-thing: no such file/,
  ],
  // missing required arguments
  ['audit without a path', ['audit'], /audit: give at least one path/],
  ['timeline without a session', ['timeline'], /timeline: give the session/],
  ['verify without a bag', ['verify'], /verify: give the bag/],
  ['bundle without -o', ['bundle', C], /give the bag to write with -o BAG/],
  ['an option without its value', ['audit', C, '--baseline'], /--baseline/],
  ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
];

describe('usage errors: one line naming the problem, exit 2', () => {
  test.each(cases)('%s', async (_name, argv, re) => {
    const r = await cli(argv);
    expect(r.stdout).toBe('');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.endsWith('\n')).toBe(true);
    expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(/^session-audit: /);
    expect(r.stderr).toMatch(re);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error|please report/);
  });

  // Regression (was a bug, fixed): a path the user names explicitly is silently ignored when it does not exist: `audit
  // <root>
  // --grok-home /no/such/dir` exits 0 with no message, so the relocation journals the user meant to supply are
  // never read and the audit looks as if there were none. src/cli/run-audit.ts relocationsFor() passes the
  // explicit home to readRelocations() (src/formats/grok/relocations.ts), which treats a missing directory as
  // "no journals". Reproduction: `session-audit audit corpora/grok/clean --grok-home /nope; echo $?` → 0.
  // Fix: lstat an explicit --grok-home and raise a UsageError when it is not a directory.
  test('audit --grok-home that does not exist', async () => {
    const r = await cli(['audit', C, '--grok-home', NOPE]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--grok-home .*no-such-thing/);
  });
});

/** Denying a read to root needs another user (chmod 000 does not stop root). */
const asOther = ((): { uid?: number; gid?: number } | undefined => {
  if (process.getuid?.() !== 0) return {};
  return spawnSync(process.execPath, ['-e', '0'], { uid: 65534, gid: 65534 }).status === 0
    ? { uid: 65534, gid: 65534 }
    : undefined;
})();

describe.skipIf(!BUILT || asOther === undefined)(
  'unreadable inputs: one line, exit 2 (as nobody when running as root)',
  () => {
    test('an unreadable root, an unreadable config, baseline and sandbox config', () => {
      spawnSync('chmod', ['-R', 'a+rX', scratch]);
      const root = join(scratch, 'locked-root');
      mkdirSync(join(root, 'inner'), { recursive: true });
      chmodSync(root, 0o000);
      const locked = (name: string): string => {
        const p = f(name, '{}');
        chmodSync(p, 0o000);
        return p;
      };
      const runs: Array<[string[], RegExp]> = [
        [['audit', root], /locked-root: cannot (list the directory|be read) \(EACCES\)/],
        [['timeline', root], /locked-root: cannot (list the directory|be read) \(EACCES\)/],
        [
          ['bundle', root, '-o', join(scratch, 'never.zip')],
          /locked-root: cannot (list the directory|be read) \(EACCES\)/,
        ],
        [
          ['audit', C, '--config', locked('locked-config.json')],
          /config .*locked-config\.json: cannot be opened \(EACCES\)/,
        ],
        [
          ['audit', C, '--baseline', locked('locked-baseline.json')],
          /--baseline .*locked-baseline\.json: cannot be opened \(EACCES\)/,
        ],
        [
          ['audit', C, '--sandbox-config', locked('locked.toml')],
          /--sandbox-config .*locked\.toml: cannot be opened \(EACCES\)/,
        ],
      ];
      for (const [argv, re] of runs) {
        const r = runBuilt(argv, asOther as object);
        expect(r.stdout, argv.join(' ')).toBe('');
        expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
        expect(r.stderr).toMatch(re);
      }
      chmodSync(root, 0o755);
    });
  },
);

describe('internal errors: exit 3, the stack, and "please report"', () => {
  test('reportError on a plain Error', () => {
    let err = '';
    const code = reportError(new Error('boom: an invariant broke'), (s) => {
      err += s;
    });
    expect(code).toBe(3);
    expect(err).toMatch(/^session-audit: internal error: boom: an invariant broke\n/);
    expect(err).toMatch(/\n\s+at /); // the stack
    expect(err).toMatch(/please report/);
  });

  test('reportError on something that is not an Error', () => {
    let err = '';
    expect(reportError('a string was thrown', (s) => (err += s))).toBe(3);
    expect(err).toMatch(/internal error: a string was thrown/);
    expect(err).toMatch(/please report/);
  });

  test('reportError on a usage error: one line, exit 2, no stack', () => {
    let err = '';
    expect(reportError(new UsageError('--x y: expected z'), (s) => (err += s))).toBe(2);
    expect(err).toBe('session-audit: --x y: expected z\n');
  });

  test('an exception inside a command, through main(): exit 3 with the stack', async () => {
    let err = '';
    let code = -1;
    await main(['audit', C, '--format', 'json'], {
      stdout: () => {
        throw new Error('EPIPE-like failure while writing the report');
      },
      stderr: (s) => {
        err += s;
      },
      setExitCode: (c) => {
        code = c;
      },
      isTTY: false,
      columns: 120,
    });
    expect(code).toBe(3);
    expect(err).toMatch(/^session-audit: internal error: EPIPE-like failure while writing the report\n/);
    expect(err).toMatch(/\n\s+at /);
    expect(err).toMatch(/please report/);
  });
});
