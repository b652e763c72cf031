/**
 * `--output FILE` never writes through a link into evidence: a symlink, a file with other hard links, a directory
 * reached through a symlink into an input, or an input itself is refused (by device and inode), for every command
 * that writes a file; a good target is replaced by rename, never written into, and a failed run leaves it as it was.
 */
import {
  closeSync,
  fstatSync,
  openSync,
  cpSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkOutputFile, withOutput } from '../src/engine/output.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const ID = '019a3f2c-1d00-7a3e-8000-00000000a001';

describe('--output and the evidence', () => {
  let tmp = '';
  let evidence = '';
  let session = '';
  let log = '';
  let logBytes: Buffer;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-output-'));
    evidence = join(tmp, 'evidence');
    cpSync(join(CORPORA, 'grok', 'tool-interrupted-call'), evidence, { recursive: true });
    session = join(evidence, 'sessions', '%2Fhome%2Fdev%2Fproj', ID);
    log = join(session, 'updates.jsonl');
    logBytes = readFileSync(log);
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  /** Every command that writes a report to --output, with its inputs. */
  const commands = (): Array<[string, string[]]> => [
    ['audit', ['audit', evidence, '--format', 'json']],
    ['validate', ['validate', evidence, '--format', 'json']],
    ['timeline', ['timeline', session, '--format', 'jsonl']],
    ['pairs', ['pairs', session]],
    ['inspect', ['inspect', session]],
    ['lineage', ['lineage', evidence]],
  ];

  const refused = async (args: string[], target: string, why: RegExp): Promise<void> => {
    const r = await cli([...args, '--output', target]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(why);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(log).equals(logBytes)).toBe(true);
  };

  test('a symlink to an evidence file is refused, for every command', async () => {
    const link = join(tmp, 'report-link.json');
    symlinkSync(log, link);
    for (const [, args] of commands()) await refused(args, link, /is a symlink: refusing to write through it/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  test('a hard link to an evidence file is refused, for every command', async () => {
    const hard = join(tmp, 'report-hard.json');
    linkSync(log, hard);
    for (const [, args] of commands()) await refused(args, hard, /other hard link.*refusing to replace it/);
  });

  test('a directory that is a symlink into the input: inside the input by identity, refused', async () => {
    const door = join(tmp, 'door');
    symlinkSync(session, door);
    for (const [, args] of commands())
      await refused(args, join(door, 'report.json'), /refusing to write inside the input directory/);
    expect(existsSync(join(session, 'report.json'))).toBe(false);
  });

  test('an input file itself, a directory, a device: refused', async () => {
    const codex = join(CORPORA, 'codex', 'clean');
    const rollout = readdirSync(join(codex, 'sessions', '2026', '03', '02')).find((n) => n.endsWith('.jsonl'))!;
    const file = join(tmp, rollout);
    cpSync(join(codex, 'sessions', '2026', '03', '02', rollout), file);
    const before = readFileSync(file);
    const r = await cli(['audit', file, '--format', 'json', '--output', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is the input|inside the input/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect((await cli(['audit', evidence, '--output', tmp])).stderr).toMatch(/not a regular file/);
    expect((await cli(['audit', evidence, '--output', '/dev/null'])).stderr).toMatch(/not a regular file/);
  });

  test('a good target is replaced by rename (a new inode), complete, with no temporary file left', async () => {
    const out = join(tmp, 'out');
    mkdirSync(out);
    const target = join(out, 'report.json');
    writeFileSync(target, 'old');
    const before = statSync(target).ino;
    // Held open, the old file keeps its inode number (a freed one may be reused by the next temp file).
    const held = openSync(target, 'r');
    for (const [name, args] of commands()) {
      const r = await cli([...args, '--output', target]);
      expect(r.stderr, name).toBe('');
      expect(r.stdout, name).toBe('');
      expect(readFileSync(target, 'utf8').length, name).toBeGreaterThan(10);
    }
    expect(statSync(target).ino).not.toBe(before);
    // Replaced, never written in place: the old file is unlinked and still holds its old bytes.
    expect(fstatSync(held).nlink).toBe(0);
    expect(readFileSync(held, 'utf8')).toBe('old');
    closeSync(held);
    expect(readdirSync(out)).toEqual(['report.json']);
  });

  test('a run that fails after it began writing leaves the target as it was', () => {
    const target = join(tmp, 'keep.txt');
    writeFileSync(target, 'previous report');
    const t = checkOutputFile(target, [evidence]);
    expect(() =>
      withOutput(
        t,
        () => {},
        (out) => {
          out.write('x'.repeat(200_000));
          throw new Error('failed half way');
        },
      ),
    ).toThrow('failed half way');
    expect(readFileSync(target, 'utf8')).toBe('previous report');
    expect(readdirSync(tmp).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
