/**
 * cli-table3 draws every terminal table: with its drawing marked (each line it returns starts with a mark), every
 * table's header, rule and rows come out marked; a command that draws no table never loads it. And its width math
 * meets ours: wide characters, combining marks, emoji with a variation selector and colours leave every column
 * where layout.ts put it.
 */
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { colors } from '../../src/report/ansi.js';
import { renderGrid, type Column } from '../../src/report/layout.js';
import { displayWidth } from '../../src/report/width.js';
import { cli } from '../helpers/cli.js';
import { BIN, BUILT } from '../helpers/cli-child.js';
import { CORPORA } from '../helpers/corpora.js';

const MARK = '\u00a6';
const GROK = join(CORPORA, 'grok');
const MAIN = join(GROK, 'clean', 'sessions', '%2Fhome%2Fdev%2Fproj', '019a3f2c-1d00-7a3e-8000-00000000a001');
const INTERRUPTED = join(GROK, 'tool-interrupted-call');

// The same module draw.ts loads (one CommonJS cache per process).
const Table = createRequire(import.meta.url)('cli-table3') as { prototype: { toString(): string } };
const drawn = Table.prototype.toString;

describe('every table is drawn by cli-table3', () => {
  beforeAll(() => {
    Table.prototype.toString = function (this: unknown) {
      return drawn
        .call(this)
        .split('\n')
        .map((l) => MARK + l)
        .join('\n');
    };
  });
  afterAll(() => {
    Table.prototype.toString = drawn;
  });

  const CASES: Array<{ name: string; args: string[]; rows: string[] }> = [
    { name: 'audit', args: ['audit', INTERRUPTED, '--fail-on', 'never'], rows: ['TOOL_INTERRUPTED_CALL'] },
    { name: 'timeline', args: ['timeline', MAIN], rows: ['user_prompt', 'tool_update', 'turn_completed'] },
    { name: 'pairs', args: ['pairs', INTERRUPTED], rows: ['call_p0_read', 'call_p4_migrate'] },
    { name: 'sessions', args: ['sessions', join(GROK, 'clean')], rows: ['019a3f2c-1d00-7a3e-8000-00000000a001'] },
    { name: 'activity', args: ['activity', join(GROK, 'clean')], rows: ['cargo test', 'src/math.rs'] },
    {
      name: 'lineage',
      args: ['lineage', join(GROK, 'lineage'), '--sandbox-config', join(GROK, 'lineage', 'sandbox.toml')],
      rows: ['019b1000…c002', 'subagent_resume'],
    },
    { name: 'checks', args: ['checks'], rows: ['CLAUDE_SUMMARY_LEAF_UNRESOLVED', 'JSONL_TORN_TAIL'] },
  ];
  test.each(CASES)('$name', async ({ args, rows }) => {
    for (const width of [80, 200]) {
      const lines = (await cli([...args, '--no-color'], { columns: width })).stdout.split('\n');
      const rules = lines.map((l, i) => [l, i] as const).filter(([l]) => /^\u00a6?─[─ ]*$/.test(l));
      expect(rules.length, `${width}: a rule`).toBeGreaterThan(0);
      for (const [rule, i] of rules) {
        expect(rule.startsWith(MARK), `${width}: ${rule}`).toBe(true);
        expect(lines[i - 1]!.startsWith(MARK), `${width}: ${lines[i - 1]}`).toBe(true);
      }
      for (const token of rows) {
        const holding = lines.filter((l) => l.includes(token));
        expect(holding.length, `${width}: ${token}`).toBeGreaterThan(0);
        for (const l of holding) expect(l.startsWith(MARK), `${width}: ${l}`).toBe(true);
      }
    }
  });
});

describe.skipIf(!BUILT)('cli-table3 is loaded only to draw a table', () => {
  // What the process loaded, from Node's own module cache, written to stderr as it exits.
  const probe = join(mkdtempSync(join(tmpdir(), 'sa-table3-')), 'probe.cjs');
  writeFileSync(
    probe,
    'process.on("exit", () => process.stderr.write(Object.keys(require.cache).some((k) => ' +
      'k.includes("/cli-table3/")) ? "\\nTABLE3 LOADED" : "\\nTABLE3 NOT LOADED"));\n',
  );
  const loaded = (args: string[]): boolean => {
    const r = spawnSync(process.execPath, ['--require', probe, BIN, ...args], {
      encoding: 'utf8',
      env: { ...process.env, COLUMNS: '100' },
    });
    expect(r.stderr).toMatch(/TABLE3 (NOT )?LOADED/);
    return r.stderr.includes('TABLE3 LOADED');
  };
  test('not by --version, --help or a JSON report', () => {
    expect(loaded(['--version'])).toBe(false);
    expect(loaded(['--help'])).toBe(false);
    expect(loaded(['audit', '--help'])).toBe(false);
    expect(loaded(['audit', INTERRUPTED, '--format', 'json'])).toBe(false);
  });
  test('by checks and a table report', () => {
    expect(loaded(['checks'])).toBe(true);
    expect(loaded(['audit', INTERRUPTED])).toBe(true);
  });
});

describe('cli-table3 measures as layout.ts does', () => {
  const strip = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
  const columns: Column[] = [
    { head: 'id', kind: 'token' },
    { head: 'text', kind: 'text', min: 8 },
    { head: 'n', kind: 'token', align: 'right' },
  ];
  const rows = [
    ['漢字テスト', 'wide 漢字 characters in a row', '1'],
    ['e\u0301\u05b0x', 'combining marks a\u0301 b\u0591 c\u0610 and \u200d joiners', '22'],
    ['⚠\ufe0f', 'an emoji ✅ 🎉 ⚠\ufe0f with a variation selector', '333'],
    ['plain', 'only ascii here, nothing to stand in for', '4444'],
  ];
  test.each([false, true])('colour %s: every line as wide as its cells, every column where it was put', (on) => {
    const c = colors(on);
    const cells = rows.map(([a, b, n]) => [{ text: a!, paint: c.red }, b!, { text: n!, paint: c.green }]);
    for (const width of [40, 60, 100]) {
      const { text, layout } = renderGrid(columns, cells, width, { head: c.bold, rule: c.grey });
      const [w0, w1, w2] = layout.widths as [number, number, number];
      for (const line of text.trimEnd().split('\n')) {
        const plain = strip(line);
        expect(displayWidth(plain), `${width}: ${plain}`).toBeLessThanOrEqual(width);
        // The right-aligned number ends at the table's edge, wherever a wide or zero-width character came before.
        if (/\d$/.test(plain)) expect(displayWidth(plain), plain).toBe(w0 + w1 + w2 + 4);
      }
      for (const [a, b, n] of rows) {
        expect(strip(text)).toContain(a);
        expect(strip(text)).toContain(n);
        for (const word of b!.split(' ')) expect(strip(text)).toContain(word);
      }
      if (on) expect(text).toContain('\u001b[31m');
    }
  });
});
