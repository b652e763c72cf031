/**
 * Volume: a session of a million tiny lines, under a 256 MB heap, through every command that reads one session and
 * every timeline format. Each completes, its output is complete (every event, or the first N rows of the table
 * with a line that says how many more), and memory stays flat: rows are streamed, never gathered. (The timeline
 * table was quadratic in the number of rows and overflowed the stack at a million.)
 */
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BUILT, runBuilt } from './helpers/cli-child.js';
import { writeLongSession } from './helpers/long-session.js';

const LINES = 1_000_000;
const HEAP_MB = 256;
const run = (args: string[]) => runBuilt(args, { maxOldSpaceMb: HEAP_MB, rss: true, timeoutMs: 300_000 });

/** Lines in a file, counted while streaming it. */
async function countLines(path: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(path)) for (const b of chunk as Buffer) if (b === 10) n++;
  return n;
}

describe.skipIf(!BUILT)(`a session of ${LINES} lines under a ${HEAP_MB} MB heap`, () => {
  let tmp = '';
  let session = '';
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-volume-'));
    session = writeLongSession(join(tmp, 'root'), LINES);
  }, 120_000);
  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const peak = (what: string, r: ReturnType<typeof run>): void => {
    process.stderr.write(`volume: ${what}: ${r.ms} ms, peak RSS ${r.peakRssMb?.toFixed(0)} MB\n`);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  };

  test.each(['jsonl', 'csv', 'timesketch'])(
    'timeline --format %s: every event',
    async (format) => {
      const out = join(tmp, `t.${format}`);
      peak(`timeline ${format}`, run(['timeline', session, '--format', format, '-o', out]));
      expect(await countLines(out)).toBe(LINES + (format === 'csv' ? 1 : 0));
    },
    300_000,
  );

  test('timeline --format json: one array of every event', async () => {
    const out = join(tmp, 't.json');
    peak('timeline json', run(['timeline', session, '--format', 'json', '-o', out]));
    const size = statSync(out).size;
    expect(size).toBeGreaterThan(LINES * 100);
    const head = readFileSync(out, { encoding: 'utf8' }).slice(0, 2);
    expect(head).toBe('[\n');
    // Each event is an indented object of its own, opened on a line of its own: count those lines.
    let objects = 0;
    let carry = '';
    for await (const chunk of createReadStream(out, { encoding: 'utf8' })) {
      const lines = (carry + (chunk as string)).split('\n');
      carry = lines.pop()!;
      for (const l of lines) if (l === '  {') objects++;
    }
    expect(objects).toBe(LINES);
  }, 300_000);

  test('timeline table: the first 1000 rows and how to get the rest; --limit 0 gives them all', async () => {
    const first = join(tmp, 'first.txt');
    peak('timeline table', run(['timeline', session, '-o', first]));
    const text = readFileSync(first, 'utf8');
    expect(text).toMatch(/^1000 of 1000000 events shown; 999000 more not shown: `--limit 0` shows them all/m);
    expect(text.split('\n').length).toBeLessThan(1100);
    const out = join(tmp, 't.txt');
    peak('timeline table --limit 0', run(['timeline', session, '--limit', '0', '-o', out]));
    expect(await countLines(out)).toBeGreaterThan(LINES);
  }, 300_000);

  test.each([
    ['audit', ['--format', 'json', '--fail-on', 'never']],
    ['validate', ['--fail-on', 'never']],
    ['pairs', []],
    ['inspect', ['--format', 'json', '--fail-on', 'never']],
    ['lineage', []],
  ] as Array<[string, string[]]>)(
    '%s completes',
    (command, rest) => {
      peak(command, run([command, session, ...rest]));
    },
    300_000,
  );
});
