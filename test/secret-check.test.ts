/**
 * SECRET_IN_SESSION as a user meets it: every output names each occurrence and none prints a value; a key
 * streamed in two chunks is found where they join; `--ignore SECRET_IN_SESSION` turns the check off.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PLANTED } from '../scripts/corpora/secrets.js';
import { TOOL_KEY } from '../scripts/corpora/cases-secrets.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const CASE = join(CORPORA, 'grok', 'secret-in-session');
/** The distinctive part of each planted value (and of the key split across two chunks). */
const VALUES = [...Object.values(PLANTED).map((v) => v.slice(-16)), TOOL_KEY.slice(-16), 'Q7Q7Q7Q7Q7Q7Q7Q7'];

interface JsonFinding {
  code: string;
  message: string;
  location: { file: string; line?: number; pointer?: string; byteOffset?: number };
}

describe('SECRET_IN_SESSION', () => {
  test.each(['table', 'json', 'sarif', 'junit', 'markdown', 'html'])(
    'the %s output names the findings and prints no secret value',
    async (format) => {
      const r = await cli(['audit', CASE, '--format', format]);
      expect(r.stdout).toContain('SECRET_IN_SESSION');
      for (const v of VALUES.slice(0, -1)) expect(r.stdout).not.toContain(v);
      if (format !== 'html') expect(r.stdout).not.toContain(VALUES.at(-1));
    },
  );

  test('one finding per occurrence, with kind, line, byte offset, pointer and a short hash', async () => {
    const r = await cli(['audit', CASE, '--format', 'json']);
    const found = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings.filter(
      (f) =>
        f.code === 'SECRET_IN_SESSION' &&
        f.location.file === 'updates.jsonl' &&
        f.location.pointer === '/params/update/content/text',
    );
    expect(found).toHaveLength(Object.keys(PLANTED).length + 1);
    for (const f of found) {
      expect(f.location.line).toBeGreaterThan(0);
      expect(f.location.byteOffset).toBeGreaterThanOrEqual(0);
      expect(f.message).toMatch(/sha256 [0-9a-f]{12}…/);
    }
    expect(found.map((f) => f.message.split(' ')[0]).sort()).toEqual([...Object.keys(PLANTED), 'api-key'].sort());
  });

  test('a key split across two streamed chunks is found where they join, with the hash of the whole key', async () => {
    const r = await cli(['audit', CASE, '--format', 'json']);
    const all = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings;
    const split = all.filter((f) => f.message.includes('split across'));
    expect(split).toHaveLength(1);
    const hash = /sha256 ([0-9a-f]{12})/.exec(split[0]!.message)![1]!;
    // The chat history holds the answer whole: the same key, the same hash.
    expect(all.filter((f) => f.location.file !== 'updates.jsonl' && f.message.includes(hash))).toHaveLength(1);
  });

  test('--ignore SECRET_IN_SESSION turns it off', async () => {
    const all = (JSON.parse((await cli(['audit', CASE, '--format', 'json'])).stdout) as { findings: JsonFinding[] })
      .findings;
    const shown = all.filter((f) => f.code === 'SECRET_IN_SESSION').length;
    const r = await cli(['audit', CASE, '--format', 'json', '--ignore', 'SECRET_IN_SESSION']);
    const report = JSON.parse(r.stdout) as { findings: JsonFinding[] };
    expect(report.findings.filter((f) => f.code === 'SECRET_IN_SESSION')).toEqual([]);
    expect(r.stdout).toContain(`"code": "SECRET_IN_SESSION",\n        "from": "option",\n        "hidden": ${shown}`);
  });
});
