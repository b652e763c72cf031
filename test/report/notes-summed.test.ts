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
const CORPORA = fileURLToPath(new URL('../../corpora', import.meta.url));
/** Three sessions with notes only: two SANDBOX_CHANGED in one, a TOOL_SYNTHETIC_RESULT, a PI_VERSION_OLD. */
const NOTES_ONLY = ['claude/permission-mode-changed', 'codex/tool-aborted', 'pi/version-old'].map(
  (c) => `${CORPORA}/${c}`,
);

/** Table rows of notes: a row starts with its severity. */
const noteRows = (text: string): number => text.split('\n').filter((l) => /^note /.test(l)).length;

test('sessions with notes only: one line for their notes, no table, no session list', async () => {
  const t = await cli(['audit', ...NOTES_ONLY], { columns: 100 });
  expect(t.stdout).toContain(
    '3 sessions with notes only, 4 notes: SANDBOX_CHANGED ×2, PI_VERSION_OLD ×1, TOOL_SYNTHETIC_RESULT ×1\n',
  );
  expect(noteRows(t.stdout)).toBe(0);
  expect(t.stdout).not.toContain('Sessions with findings');
  const all = await cli(['audit', ...NOTES_ONLY, '--notes'], { columns: 100 });
  expect(noteRows(all.stdout)).toBe(4);
});

describe.skipIf(!existsSync(PI) || !existsSync(CLAUDE))('the real files of ../shared/external', () => {
  test.each([PI, CLAUDE])('%s: every note is in the JSON; the table sums them up; --notes lists them', async (dir) => {
    const json = JSON.parse(
      (await cli(['audit', dir, '--format', 'json', '--fail-on', 'never'])).stdout,
    ) as AuditReport;
    const notes = json.findings.filter((f) => f.severity === 'note');
    expect(notes.length).toBeGreaterThan(0);
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
