/** Sandbox profile lattice, the lineage command, and profile changes between two captures. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { AuditReport } from '../src/model/report.js';
import { loadProfileBook } from '../src/formats/grok/sandbox/config.js';
import { canonicalName, compare, ProfileBook } from '../src/formats/grok/sandbox/profiles.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const book = new ProfileBook();
const p = (n: string) => book.resolve(n)!;

describe('the profile lattice', () => {
  test('aliases are the same profile, names are case-sensitive', () => {
    expect(canonicalName('readonly')).toBe('read-only');
    expect(canonicalName('none')).toBe('off');
    expect(book.resolve('Workspace')).toBeUndefined();
  });
  test.each([
    ['workspace', 'read-only', true, false],
    ['read-only', 'workspace', false, true],
    ['off', 'strict', true, false],
    ['devbox', 'workspace', true, false],
    ['strict', 'read-only', true, true],
    ['read-only', 'read-only', false, false],
  ])('%s against %s: wider=%s narrower=%s', (a, b, wider, narrower) => {
    const c = compare(p(a), p(b));
    expect([c.wider, c.narrower]).toEqual([wider, narrower]);
  });
  test('custom profiles: extends, grants, deny, network; the first definition wins', () => {
    const b = loadProfileBook([
      {
        path: 'user.toml',
        text:
          '[profiles.data]\nextends = "read-only"\nread_write = ["/data/scratch"]\n[profiles.locked]\nextends ' +
          '= "workspace"\ndeny = ["**/.env"]\nrestrict_network = true\n',
      },
      { path: 'project.toml', text: '[profiles.locked]\nextends = "devbox"\n' },
    ]);
    expect(compare(b.resolve('data')!, p('read-only')).gains).toEqual(['writes data']);
    const locked = b.resolve('locked')!;
    expect(locked.definedIn).toBe('user.toml');
    const c = compare(locked, p('workspace'));
    expect([c.wider, c.narrower]).toEqual([false, true]);
  });
  test('a broken sandbox.toml is one clear error', () => {
    expect(() => loadProfileBook([{ path: 'x.toml', text: '[profiles.a]\nextends = 3\n' }])).toThrow(
      /x\.toml: profiles\.a\.extends/,
    );
    expect(() => loadProfileBook([{ path: 'y.toml', text: '[profiles\n' }])).toThrow(/y\.toml: not valid TOML/);
  });
});

describe('lineage command', () => {
  const root = join(CORPORA, 'grok', 'lineage');
  const cfg = join(root, 'sandbox.toml');
  test('the table shows the whole tree with profiles and marks the widened and dropped edges', async () => {
    const r = await cli(['lineage', root, '--sandbox-config', cfg], { columns: 200 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/├─ 019b1000…c002 +fork +\/home\/dev\/app +2026-09-01 08:20 +workspace ▲WIDENED/);
    expect(r.stdout).toMatch(/├─ 019b1000…c003 +fork +.* \(none\) ▼DROPPED/);
    expect(r.stdout).toMatch(/│ {2}└─ 019b1000…c009 +subagent_resume/);
    expect(r.stdout.match(/WIDENED/g)).toHaveLength(2); // the row and the legend
  });
  test('json edges carry what the sandbox did; dot and mermaid mark them', async () => {
    const json = JSON.parse((await cli(['lineage', root, '--sandbox-config', cfg, '--format', 'json'])).stdout) as {
      roots: Array<{ edges: Array<{ to: string; kind: string; sandbox: string }> }>;
    };
    const edges = json.roots[0]!.edges;
    expect(edges.filter((e) => e.sandbox === 'widened').map((e) => e.to)).toEqual([
      '019b1000-0000-7000-8000-00000000c002',
    ]);
    expect(edges.filter((e) => e.sandbox === 'dropped').map((e) => e.to)).toEqual([
      '019b1000-0000-7000-8000-00000000c003',
    ]);
    expect(edges.find((e) => e.to === '019b1000-0000-7000-8000-00000000c004')!.sandbox).toBe('same');
    const dot = (await cli(['lineage', root, '--format', 'dot'])).stdout;
    expect(dot).toMatch(/^digraph lineage \{/);
    expect(dot).toMatch(/-> "019b1000-0000-7000-8000-00000000c002" \[color=red, penwidth=2, label="fork: WIDENED"\]/);
    const mmd = (await cli(['lineage', root, '--format', 'mermaid'])).stdout;
    expect(mmd).toMatch(/^flowchart LR/);
    expect(mmd).toMatch(/linkStyle \d+ stroke:#d00/);
  });
});

describe('audit --against an earlier capture', () => {
  const session = join(
    CORPORA,
    'grok',
    'clean',
    'sessions',
    '%2Fhome%2Fdev%2Fproj',
    '019a3f2c-1d00-7a3e-8000-00000000a001',
  );
  const capture = (profile: string | undefined): string => {
    const dir = join(
      mkdtempSync(join(tmpdir(), 'sa-capture-')),
      '%2Fhome%2Fdev%2Fproj',
      '019a3f2c-1d00-7a3e-8000-00000000a001',
    );
    cpSync(session, dir, { recursive: true });
    const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
    if (profile === undefined) delete s.sandbox_profile;
    else s.sandbox_profile = profile;
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(s));
    return dir;
  };
  const codes = async (earlier: string): Promise<Array<[string, string]>> =>
    (
      JSON.parse((await cli(['audit', session, '--against', earlier, '--format', 'json'])).stdout) as AuditReport
    ).findings
      .filter((f) => f.code.startsWith('SANDBOX'))
      .map((f) => [f.code, f.severity]);
  test('a narrower earlier profile: the session was widened since', async () => {
    expect(await codes(capture('read-only'))).toEqual([['SANDBOX_WIDENED', 'error']]);
  });
  test('a wider earlier profile: still a change, and an error over time', async () => {
    expect(await codes(capture('devbox'))).toEqual([['SANDBOX_CHANGED', 'error']]);
  });
  test('an alias is the same profile; the same profile is quiet', async () => {
    expect(await codes(capture('workspace'))).toEqual([]);
  });
  test('the earlier capture had a profile, this one has none', async () => {
    const now = capture(undefined);
    const r = JSON.parse((await cli(['audit', now, '--against', session, '--format', 'json'])).stdout) as AuditReport;
    expect(r.findings.filter((f) => f.code === 'SANDBOX_DROPPED').map((f) => f.severity)).toEqual(['error']);
  });
});
