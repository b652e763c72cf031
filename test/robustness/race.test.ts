/**
 * A directory swapped for a symlink mid-run (issue 18 §1). Discovery and the walk look with lstat, but files are
 * opened later by path: a racing process that exchanges a session directory with a symlink to an outside tree
 * (`renameat2(RENAME_EXCHANGE)`, atomic) must never get outside bytes into a report or a bag. Every evidence open
 * is checked to be the file at its walked path (src/read/pinned.ts); a race is a finding, never outside content.
 *
 * The racer is a small Python loop (ctypes, glibc's renameat2) exchanging the session directory with a symlink to
 * a copy of the session whose every file carries a marker. The test also proves the race is hit: some runs must see
 * the swap (a finding about it), or the test could not fail.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
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
import { BUILT, runBuilt } from '../helpers/cli-child.js';
import { CORPORA } from '../helpers/corpora.js';

const ID = '019a3f2c-1d00-7a3e-8000-00000000a001';
const GROUP = '%2Fhome%2Fdev%2Fproj';
const MARKER = 'OUTSIDE-THE-EVIDENCE-7f3a';

const RACER = `
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
AT_FDCWD, RENAME_EXCHANGE = -100, 2
if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
    print("renameat2 failed", ctypes.get_errno(), flush=True); sys.exit(3)
libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
print("racing", flush=True)
end = time.time() + float(sys.argv[3])
while time.time() < end:
    libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
# Leave the evidence as it was: the real directory at its own path.
if os.path.islink(sys.argv[1]):
    libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
`;

const canRace =
  BUILT &&
  process.platform === 'linux' &&
  spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2'], { encoding: 'utf8' }).status === 0;

/** Every byte of every file under `dir`. */
function allBytes(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    out += st.isDirectory() ? allBytes(p) : readFileSync(p, 'latin1');
  }
  return out;
}

describe.skipIf(!canRace)('a session directory exchanged with a symlink to an outside tree while it is read', () => {
  let tmp = '';
  let root = '';
  let session = '';
  let link = '';
  let racer: ChildProcess | undefined;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-race-'));
    root = join(tmp, 'evidence');
    cpSync(join(CORPORA, 'grok', 'clean'), root, { recursive: true });
    session = join(root, 'sessions', GROUP, ID);
    // The outside tree: the same session, every file marked (still a session the audit reads and quotes).
    const outside = join(tmp, 'outside', ID);
    cpSync(session, outside, { recursive: true });
    for (const name of readdirSync(outside)) {
      const p = join(outside, name);
      if (!statSync(p).isFile()) continue;
      const text = readFileSync(p, 'utf8');
      writeFileSync(
        p,
        name.endsWith('.jsonl') ? text.replaceAll('proj', MARKER) : text.replaceAll('/home/dev', MARKER),
      );
    }
    link = join(tmp, 'swap');
    symlinkSync(outside, link);
    racer = spawn('python3', ['-c', RACER, session, link, '120'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      racer!.stdout!.once('data', (d: Buffer) =>
        d.toString().startsWith('racing') ? resolve() : reject(new Error(d.toString())),
      );
      racer!.once('exit', (code) => reject(new Error(`racer exited ${code}`)));
    });
  }, 30_000);

  afterAll(async () => {
    if (racer && racer.exitCode === null) {
      const done = new Promise((r) => racer!.once('exit', r));
      racer.kill('SIGTERM');
      await done;
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('audits never quote the outside tree; some see the swap and say so', () => {
    let sawRace = 0;
    for (let i = 0; i < 15; i++) {
      const r = runBuilt(['audit', root, '--format', 'json', '--fail-on', 'never'], { timeoutMs: 60_000 });
      expect(`${r.stdout}${r.stderr}`, `audit ${i}`).not.toContain(MARKER);
      expect(r.stderr, `audit ${i}`).not.toMatch(/at .*\.js:\d+/);
      if (/changed while being read|symlink/.test(r.stdout)) sawRace++;
    }
    expect(sawRace).toBeGreaterThan(0);
  }, 300_000);

  test('bags never archive the outside tree', () => {
    for (let i = 0; i < 8; i++) {
      const bag = join(tmp, `bag-${i}`);
      const r = runBuilt(['bundle', root, '-o', bag], { timeoutMs: 60_000 });
      expect(r.stderr, `bundle ${i}`).not.toContain(MARKER);
      expect(r.stderr, `bundle ${i}`).not.toMatch(/at .*\.js:\d+/);
      if (r.code === 0) expect(allBytes(bag), `bag ${i}`).not.toContain(MARKER);
      else {
        // Stopped: one line, exit 2, nothing left behind.
        expect(r.code, `bundle ${i}: ${r.stderr}`).toBe(2);
        expect(r.stderr.trim().split('\n'), `bundle ${i}`).toHaveLength(1);
        expect(existsSync(bag), `bundle ${i}`).toBe(false);
      }
      rmSync(bag, { recursive: true, force: true });
    }
  }, 300_000);
});
