/**
 * Notes that do not drown the findings (issue 31.2): in the table, a session's notes are one line by code, sessions
 * with notes only one line for all, and three or more findings of one code in one file one row; `--notes` lists every
 * one; JSON keeps every finding whatever the table shows.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';

const PI = fileURLToPath(new URL('../../../shared/external/pi', import.meta.url));
const CLAUDE = fileURLToPath(new URL('../../../shared/external/claude', import.meta.url));
const CLEAN = fileURLToPath(new URL('../../corpora/grok/clean', import.meta.url));

/** Table rows of notes: a row starts with its severity. */
const noteRows = (text: string): number => text.split('\n').filter((l) => /^note /.test(l)).length;

test('a clean Grok root: one line for its three notes, no table, no session list', async () => {
  const t = await cli(['audit', CLEAN], { columns: 100 });
  expect(t.stdout).toContain('3 sessions with notes only, 3 notes: TIME_FILE_ORDER ×3\n');
  expect(t.stdout).not.toMatch(/^note +TIME_FILE_ORDER/m);
  expect(t.stdout).not.toContain('Sessions with findings');
  const all = await cli(['audit', CLEAN, '--notes'], { columns: 100 });
  expect(all.stdout.match(/^note +TIME_FILE_ORDER/gm)?.length).toBe(3);
});

describe.skipIf(!existsSync(PI) || !existsSync(CLAUDE))('the real files of ../shared/external', () => {
  test.each([PI, CLAUDE])('%s: every note is in the JSON; the table sums them up; --notes lists them', async (dir) => {
    const json = JSON.parse(
      (await cli(['audit', dir, '--format', 'json', '--fail-on', 'never'])).stdout,
    ) as AuditReport;
    const notes = json.findings.filter((f) => f.severity === 'note');
    expect(notes.length).toBeGreaterThan(10);
    const codes = new Set(notes.map((f) => f.code));
    const table = (await cli(['audit', dir, '--fail-on', 'never'], { columns: 120 })).stdout;
    const listed = (await cli(['audit', dir, '--fail-on', 'never', '--notes'], { columns: 120 })).stdout;
    expect(noteRows(table)).toBe(0);
    for (const code of codes) expect(table).toMatch(new RegExp(`${code} ×\\d+`));
    expect(table).toContain(`${notes.length} notes summed up by code (--notes lists each;`);
    expect(noteRows(listed)).toBe(notes.length);
    // Every error and warning is still a row of its own.
    const loud = json.findings.filter((f) => f.severity !== 'note');
    for (const f of loud) expect(table).toContain(f.code);
  });
});
