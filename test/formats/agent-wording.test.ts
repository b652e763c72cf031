/**
 * Each agent's findings speak of that agent: on Codex and Claude Code sessions no message, inspect report or export
 * names a Grok Build mechanism (its repair, its turn scanner, its files), and damage the agents' readers treat
 * differently is explained per agent. Sessions are damaged copies of the shipped clean corpora plus the real
 * recorded files when they are present.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';

const GROK_WORDS = /\bGrok\b|updates\.jsonl|chat_history|summary\.json|turn scanner/;
const EXTERNAL = fileURLToPath(new URL('../../../shared/external', import.meta.url));

const scratch = mkdtempSync(join(tmpdir(), 'sa-wording-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The first .jsonl under a tree (the clean session's log). */
function firstLog(dir: string): string {
  for (const n of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, n.name);
    if (n.isFile() && n.name.endsWith('.jsonl')) return p;
    if (n.isDirectory()) {
      const f = firstLog(p);
      if (f) return f;
    }
  }
  return '';
}

/** A copy of an agent's clean corpus whose log has a BOM, CR LF endings, invalid UTF-8 and a bad line. */
function damaged(agent: string): string {
  const dir = join(scratch, agent);
  cpSync(join(CORPORA, agent, 'clean'), dir, { recursive: true });
  const log = firstLog(dir);
  const lines = readFileSync(log)
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => Buffer.from(l, 'utf8'));
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
  const damagedLine = (l: Buffer, i: number): Buffer =>
    i === 1
      ? Buffer.concat([BOM, l])
      : i === 2
        ? Buffer.concat([l.subarray(0, -2), Buffer.from([0xff]), Buffer.from('"}')])
        : i === 3
          ? Buffer.from('{"not json')
          : l;
  writeFileSync(
    log,
    Buffer.concat(
      lines.map((l, i) => Buffer.concat([damagedLine(l, i), Buffer.from(i === lines.length - 1 ? '\n' : '\r\n')])),
    ),
  );
  return dir;
}

async function messages(path: string, format?: string): Promise<string[]> {
  const hint = format ? ['--format-hint', format] : [];
  const r = await cli(['audit', path, '--format', 'json', '--fail-on', 'never', ...hint]);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as AuditReport).findings.map((f) => `${f.code} ${f.message}`);
}

describe.each(['codex', 'claude'])('%s sessions', (agent) => {
  const name = agent === 'codex' ? 'Codex' : 'Claude Code';

  test('damaged lines are explained in terms of this agent, never of Grok', async () => {
    const found = await messages(damaged(agent));
    const jsonl = found.filter((m) => m.startsWith('JSONL_'));
    expect(jsonl.map((m) => m.split(' ')[0]).sort()).toEqual(
      expect.arrayContaining(['JSONL_BAD_LINE', 'JSONL_BOM', 'JSONL_CRLF']),
    );
    for (const m of found) expect(m).not.toMatch(GROK_WORDS);
    expect(found.find((m) => m.startsWith('JSONL_BOM'))).toContain(name);
    expect(found.find((m) => m.startsWith('JSONL_CRLF'))).toContain(`${name} writes LF only`);
  });

  test('every corpora case: no finding names a Grok mechanism', async () => {
    for (const c of readdirSync(join(CORPORA, agent))) {
      if (!existsSync(join(CORPORA, agent, c, 'expected.json'))) continue;
      for (const m of await messages(join(CORPORA, agent, c))) expect(m, c).not.toMatch(GROK_WORDS);
    }
  });

  test('inspect and the Timesketch export name the real agent', async () => {
    const log = firstLog(join(CORPORA, agent, 'clean'));
    const inspect = await cli(['inspect', log, '--fail-on', 'never']);
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).not.toMatch(GROK_WORDS);
    const ts = await cli(['timeline', log, '--format', 'timesketch']);
    const rows = ts.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { data_type: string });
    expect(new Set(rows.map((r) => r.data_type))).toEqual(new Set([`session-audit:${agent}:event`]));
  });

  test.runIf(existsSync(join(EXTERNAL, agent)))(
    'the real recorded files: no finding names a Grok mechanism',
    async () => {
      for (const m of await messages(join(EXTERNAL, agent))) expect(m).not.toMatch(GROK_WORDS);
    },
  );
});

test('a Grok session keeps its own wording', async () => {
  const dir = join(scratch, 'grok');
  cpSync(join(CORPORA, 'grok', 'jsonl-bom'), dir, { recursive: true });
  const found = await messages(dir);
  expect(found.find((m) => m.startsWith('JSONL_BOM'))).toContain("Grok's serde reader rejects such a line");
});
