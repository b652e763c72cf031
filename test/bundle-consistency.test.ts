/**
 * A bag's analysis describes exactly the bytes it archives: a file that grows or disappears between the audit and
 * the payload pass, or between the payload pass and the archive, stops the bundle with one line (exit 2) and
 * leaves nothing behind, for every form.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runBundle } from '../src/engine/bundle.js';
import { UsageError } from '../src/errors.js';
import { CORPORA } from './helpers/corpora.js';

const scratch = mkdtempSync(join(tmpdir(), 'sa-consistency-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;

const id = '019a3f2e-0f10-7c42-8000-00000000a003';
const LINE =
  '{"timestamp":1787140000,"method":"session/update","params":{"sessionId":"x","update":' +
  '{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"late"}}}}\n';

/** A fresh copy of one clean Grok session, and an empty directory for the output. */
function setup(): { session: string; outDir: string } {
  const root = join(scratch, `${n++}`);
  cpSync(join(CORPORA, 'grok', 'clean'), join(root, 'src'), { recursive: true });
  const group = readdirSync(join(root, 'src', 'sessions'))[0]!;
  const outDir = join(root, 'out');
  mkdirSync(outDir);
  return { session: join(root, 'src', 'sessions', group, id), outDir };
}

const name = (form: string): string => (form === 'dir' ? 'bag' : `bag.${form}`);

const changes = {
  grows: (session: string) => appendFileSync(join(session, 'updates.jsonl'), LINE),
  disappears: (session: string) => rmSync(join(session, 'summary.json')),
};

describe.each(['zip', 'tar', 'tgz', 'dir'])('%s', (form) => {
  test.each([
    ['grows', 'analysed', /updates\.jsonl changed between the audit/],
    ['disappears', 'analysed', /summary\.json disappeared or became unreadable after the audit/],
    ['grows', 'planned', /updates\.jsonl changed while it was being archived/],
    ['disappears', 'planned', /summary\.json/],
  ] as const)('a file that %s after the %s pass stops the bundle with one line', async (change, when, message) => {
    const { session, outDir } = setup();
    const out = join(outDir, name(form));
    let error: unknown;
    try {
      await runBundle({
        paths: [session],
        out,
        redact: false,
        redactPatterns: [],
        force: false,
        between: { [when]: () => changes[change](session) },
      });
    } catch (e) {
      error = e;
    }
    // A UsageError is what the CLI prints as one line with exit status 2.
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toMatch(/\n/);
    expect(readdirSync(outDir)).toEqual([]);
  });
});

test('a session that appears between discovery and the audit stops the bundle', async () => {
  const { session, outDir } = setup();
  const group = join(session, '..');
  const late = join(group, '019a3f2e-0f10-7c42-8000-00000000ffff');
  await expect(
    runBundle({
      paths: [group],
      out: join(outDir, 'bag.zip'),
      redact: false,
      redactPatterns: [],
      force: false,
      between: { found: () => cpSync(session, late, { recursive: true }) },
    }),
  ).rejects.toThrow(/session .*00000000ffff appeared during the bundle/);
  expect(readdirSync(outDir)).toEqual([]);
});

test('with --force, a failed bundle leaves the earlier bag in place', async () => {
  const { session, outDir } = setup();
  const out = join(outDir, 'bag.zip');
  await runBundle({ paths: [session], out, redact: false, redactPatterns: [], force: false });
  await expect(
    runBundle({
      paths: [session],
      out,
      redact: false,
      redactPatterns: [],
      force: true,
      between: { planned: () => changes.grows(session) },
    }),
  ).rejects.toBeInstanceOf(UsageError);
  expect(readdirSync(outDir)).toEqual(['bag.zip']);
  expect(existsSync(out)).toBe(true);
});
