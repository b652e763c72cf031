/**
 * Every lineage format but JSON escapes what the sessions say about themselves: a profile, a cwd, a kind or an id
 * holding C1 controls (U+009B CSI, U+0085 NEL), bidi controls (U+202E, U+2066) or line separators (U+2028) reaches
 * a Graphviz or Mermaid file, or a terminal, only as a visible escape. (dot and mermaid printed them raw.)
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const EVIL = 'ws\u009b31m\u0085\u202eevil\u2066\u2028line\u0007';
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('lineage output with hostile session fields', () => {
  let tmp = '';
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'sa-lineage-esc-'));
    cpSync(join(CORPORA, 'grok', 'lineage'), join(tmp, 'lineage'), { recursive: true });
    const group = join(tmp, 'lineage', 'home', 'sessions');
    for (const g of readdirSync(group))
      for (const s of readdirSync(join(group, g))) {
        const f = join(group, g, s, 'summary.json');
        let summary: Record<string, unknown>;
        try {
          summary = JSON.parse(readFileSync(f, 'utf8')) as Record<string, unknown>;
        } catch {
          continue;
        }
        summary.sandbox_profile = EVIL;
        summary.session_kind = typeof summary.session_kind === 'string' ? `${summary.session_kind}${EVIL}` : EVIL;
        (summary.info as Record<string, unknown>).cwd = `/home/${EVIL}`;
        writeFileSync(f, JSON.stringify(summary));
      }
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  test.each(['dot', 'mermaid', 'table'])('%s: nothing raw, the content visibly escaped', async (format) => {
    const r = await cli(['lineage', join(tmp, 'lineage'), '--format', format], { columns: 200 });
    expect(r.code, r.stderr).toBe(0);
    const body = format === 'table' ? r.stdout : r.stdout.replace(/\n/g, '');
    expect(body).not.toMatch(RAW);
    // A dot string keeps the backslash of the escape (`\\`); a Mermaid label has no braces.
    const shown = {
      dot: '\\\\u{009b}31m\\\\u{0085}\\\\u{202e}evil\\\\u{2066}\\\\u{2028}line',
      mermaid: '\\u009b31m\\u0085\\u202eevil\\u2066\\u2028line',
      table: '\\u{009b}31m\\u{0085}\\u{202e}evil\\u{2066}\\u{2028}line',
    }[format]!;
    expect(r.stdout).toContain(shown);
  });

  test('json keeps the content exactly', async () => {
    const r = await cli(['lineage', join(tmp, 'lineage'), '--format', 'json']);
    expect(r.stdout).toContain(JSON.stringify(EVIL).slice(1, -1));
  });
});
