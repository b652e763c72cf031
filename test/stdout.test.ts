/**
 * Standard output as CI and reviewers meet it, through real pipes and devices (the built CLI in a shell):
 * `| head -c1` closes the pipe after one byte and the run ends quietly with the exit code its findings call for
 * (it printed `Error: write EPIPE … Unhandled 'error' event` and exited 1); `> /dev/full` is one line and exit 2
 * (an unhandled ENOSPC stack trace). Every command, each with an output larger than a pipe's buffer where it can.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, BUILT } from './helpers/cli-child.js';
import { CORPORA } from './helpers/corpora.js';
import { LONG_SESSION_ID, writeLongSession } from './helpers/long-session.js';

const GROK = join(CORPORA, 'grok');
const MAIN = join(GROK, 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001');
const INTERRUPTED = join(GROK, 'tool-interrupted-call');
const BAG = join(CORPORA, 'bundles', 'signed', 'bag');

const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;

/** The CLI in bash, its stdout to `sink` (a shell redirection or pipe); its exit code and stderr. */
function shell(args: readonly string[], sink: string): { code: number; stderr: string } {
  const cmd = `${q(process.execPath)} ${q(BIN)} ${args.map(q).join(' ')} 2>"$ERR" ${sink}; echo "\${PIPESTATUS[0]}"`;
  const dir = mkdtempSync(join(tmpdir(), 'sa-stdout-'));
  try {
    const err = join(dir, 'err');
    const r = spawnSync('bash', ['-c', `${cmd}; cat "$ERR" >&2`], {
      encoding: 'utf8',
      env: { ...process.env, ERR: err, CI: '1' },
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: Number(r.stdout.trim().split('\n').pop()), stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!BUILT)('a closed or full standard output', () => {
  let tmp = '';
  const cases: Array<[name: string, args: () => string[]]> = [
    ['audit (findings: exit 1)', () => ['audit', GROK, '--format', 'json']],
    ['audit --fail-on never (exit 0)', () => ['audit', GROK, '--format', 'json', '--fail-on', 'never']],
    ['audit, the table', () => ['audit', GROK]],
    ['validate', () => ['validate', GROK, '--format', 'sarif']],
    [
      'timeline',
      () => ['timeline', join(tmp, 'long', 'sessions', '%2Fhome%2Fdev%2Fproj', LONG_SESSION_ID), '--format', 'jsonl'],
    ],
    ['timeline, the table', () => ['timeline', MAIN, '--include-subagents']],
    ['pairs', () => ['pairs', GROK, '--format', 'json']],
    ['inspect', () => ['inspect', join(INTERRUPTED, 'sessions', '%2Fhome%2Fdev%2Fproj', INTERRUPTED_ID)]],
    ['lineage', () => ['lineage', GROK, '--format', 'json']],
    ['merge', () => ['merge', join(tmp, 'shard-1.json'), join(tmp, 'shard-2.json'), '--format', 'json']],
    ['verify', () => ['verify', BAG, '--format', 'json']],
    ['checks', () => ['checks', '--format', 'json']],
    ['--help', () => ['audit', '--help']],
  ];

  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-stdout-data-'));
    writeLongSession(join(tmp, 'long'), 20_000);
    for (const k of [1, 2]) shell(['audit', GROK, '--shard', `${k}/2`, '-o', join(tmp, `shard-${k}.json`)], '');
  }, 120_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test.each(cases)(
    '%s | head -c1: quiet, with the exit code of the findings',
    (_name, args) => {
      const full = shell(args(), '>/dev/null');
      const piped = shell(args(), '| head -c1 >/dev/null');
      expect(piped.stderr).toBe(full.stderr);
      expect(piped.stderr).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
      expect(piped.code).toBe(full.code);
    },
    120_000,
  );

  test.each(cases)(
    '%s > /dev/full: one line, exit 2',
    (_name, args) => {
      const r = shell(args(), '>/dev/full');
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines.at(-1)).toBe('session-audit: cannot write to standard output: no space left on device (ENOSPC)');
      expect(r.stderr).not.toMatch(/\n\s+at |Unhandled/);
    },
    120_000,
  );
});

const INTERRUPTED_ID = '019a3f2c-1d00-7a3e-8000-00000000a001';
