/**
 * The self-contained HTML report: escaping of hostile session content, CSP hashes, determinism, content, empty states.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { LineageView } from '../src/lineage/view.js';
import type { AuditReport } from '../src/model/report.js';
import type { PairRow } from '../src/pairing/pairing-result.js';
import { contentSecurityPolicy, renderHtml } from '../src/report/html.js';
import type { HtmlInput, HtmlSession } from '../src/report/html-input.js';
import type { TimelineEvent } from '../src/timeline/model.js';
import { CORPORA } from './helpers/corpora.js';
import { htmlInputFromCli } from './helpers/html-input.js';

const EVIL =
  `<script>document.documentElement.dataset.pwned='1'</script><img src=x ` +
  `onerror="alert(1)"></textarea></style></title>"' onmouseover="alert(2)" javascript:alert(3) ` +
  `\u202Eevil\u0000nul\u001b[31m \ud800 https://evil.example/x.js`;

function report(findings: AuditReport['findings'], sessions: AuditReport['sessions']): AuditReport {
  const byCode: Record<string, number> = {};
  const counts = { error: 0, warning: 0, note: 0 };
  for (const f of findings) {
    byCode[f.code] = (byCode[f.code] ?? 0) + 1;
    counts[f.severity]++;
  }
  return {
    tool: { name: 'session-audit', version: '0.1.0' },
    reportVersion: 1,
    command: 'audit',
    summary: {
      sessions: sessions.length,
      files: sessions.reduce((n, s) => n + s.files.length, 0),
      bytes: 1234,
      findings: counts,
      byCode,
    },
    sessions,
    findings,
    toolErrors: [],
  };
}

function event(i: number, over: Partial<TimelineEvent> = {}): TimelineEvent {
  return {
    session: 'sess-1',
    depth: 0,
    file: 'updates.jsonl',
    line: i + 1,
    byteOffset: i * 100,
    time: `2026-08-19T09:30:${String(i % 60).padStart(2, '0')}.000Z`,
    timeMs: 1787131800000 + i,
    timeSource: 'agentTimestampMs',
    rail: 'acp',
    kind: 'model_text',
    tag: 'agent_message_chunk',
    summary: `event ${i}`,
    text: `event ${i}`,
    rewound: false,
    compacted: false,
    displaced: false,
    ...over,
  };
}

/** Hostile strings in every field the renderer shows. */
function hostileInput(): HtmlInput {
  const path = `/tmp/${EVIL}/sess-1`;
  const sessions: AuditReport['sessions'] = [
    {
      id: `sess-1${EVIL}`,
      path,
      format: `grok${EVIL}`,
      files: [{ path: `updates.jsonl${EVIL}`, type: 'symlink', linkTarget: EVIL }],
      findings: { error: 1, warning: 1, note: 0 },
    },
  ];
  const findings: AuditReport['findings'] = [
    {
      code: `JSONL_TORN_TAIL${EVIL}`,
      severity: 'error',
      message: EVIL,
      check: 'x',
      session: `sess-1${EVIL}`,
      sessionPath: path,
      location: { file: EVIL, line: 3, byteOffset: 12, pointer: `/a${EVIL}` },
      fingerprint: EVIL,
    },
    {
      code: 'SESSION_SYMLINK',
      severity: 'warning',
      message: 'plain',
      check: 'x',
      session: `sess-1${EVIL}`,
      sessionPath: path,
      location: { file: '' },
      fingerprint: 'f2',
    },
  ];
  const rep = report(findings, sessions);
  rep.toolErrors = [{ session: EVIL, check: EVIL, message: EVIL }];
  rep.baseline = {
    path: EVIL,
    suppressed: 3,
    absent: [{ fingerprint: EVIL, code: EVIL, sessionPath: EVIL, file: EVIL, line: 4 }],
    matchedBy: 'fingerprint',
  };
  const timeline = [
    event(0, {
      summary: EVIL,
      text: `${EVIL}\nsecond line\twith tab`,
      resume: EVIL,
      rewound: true,
      compacted: true,
      displaced: true,
      toolCallId: EVIL,
      subagentId: EVIL,
      eventId: EVIL,
    }),
    event(1, { depth: 1, session: EVIL, parent: EVIL }),
  ];
  const pairs: PairRow[] = [
    {
      id: EVIL,
      name: EVIL,
      status: 'interrupted',
      mutating: true,
      kind: EVIL,
      args: EVIL,
      note: EVIL,
      call: { file: EVIL, line: 1, byteOffset: 0 },
      logTerminal: { file: EVIL, line: 2, byteOffset: 5, status: EVIL },
    },
  ];
  const child = {
    id: `child${EVIL}`,
    path: EVIL,
    kind: EVIL,
    parent: `root${EVIL}`,
    edge: 'fork' as const,
    edgeSandbox: 'widened' as const,
    cwd: EVIL,
    created: EVIL,
    profile: EVIL,
    resumes: 1,
    flags: [EVIL],
    children: [],
  };
  const lineage: LineageView[] = [
    {
      root: EVIL,
      trees: [
        {
          id: `root${EVIL}`,
          path: EVIL,
          kind: 'session',
          resumes: 0,
          flags: [],
          profile: 'read-only',
          children: [child],
        },
        {
          id: 'orphan',
          path: 'o',
          kind: 'fork',
          parent: `missing${EVIL}`,
          edge: 'fork',
          edgeSandbox: 'dropped',
          resumes: 0,
          flags: ['parent-missing'],
          children: [],
        },
      ],
      edges: [{ from: `root${EVIL}`, to: `child${EVIL}`, kind: 'fork', sandbox: 'widened' }],
    },
  ];
  const s: HtmlSession = { id: `sess-1${EVIL}`, path, format: 'grok', timeline, timelineTruncated: 7, pairs };
  return { report: rep, sessions: [s], lineage, title: EVIL };
}

const tags = (html: string): Array<{ name: string; attrs: string; raw: string }> =>
  [...html.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)].map((m) => ({
    name: `${m[1]}${m[2]!.toLowerCase()}`,
    attrs: m[3]!,
    raw: m[0],
  }));

/** A tag's attributes as the HTML tokenizer splits them: name and (quoted or bare) value. */
const attrList = (attrs: string): Array<[name: string, value: string]> =>
  [...attrs.matchAll(/([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?/g)].map((m) => [
    m[1]!.toLowerCase(),
    m[2] ?? m[3] ?? m[4] ?? '',
  ]);

const attrValues = (html: string, name: string): string[] =>
  tags(html).flatMap((t) =>
    attrList(t.attrs)
      .filter(([n]) => n === name)
      .map(([, v]) => v),
  );

const VOID = new Set(['meta', 'br', 'input', 'link', 'img', 'hr', 'wbr']);

/** Every element closes in order (the renderer's own markup; content can never add a tag). */
function assertBalanced(html: string): void {
  const stack: string[] = [];
  for (const t of tags(html)) {
    if (t.name === '!doctype' || VOID.has(t.name) || t.raw.endsWith('/>')) continue;
    if (t.name.startsWith('/')) {
      const open = stack.pop();
      expect(`</${open}>`, `unbalanced at ${t.raw}`).toBe(t.raw.toLowerCase());
    } else stack.push(t.name);
  }
  expect(stack).toEqual([]);
}

/** The sessions' embedded data, by anchor: inert JSON a session's rows are drawn from when it is opened. */
function islands(html: string): Map<string, IslandData> {
  const out = new Map<string, IslandData>();
  for (const m of html.matchAll(/<script type="application\/json" id="sd-(s\d+)">([^<]*)<\/script>/g))
    out.set(m[1]!, JSON.parse(m[2]!) as IslandData);
  return out;
}

interface IslandData {
  f: unknown[][];
  t: { e: unknown[][]; kinds: string[]; files: string[]; tags: string[]; more: number } | { omitted: true } | null;
  p: unknown[][] | null;
  none?: true;
}

/** Every string inside a value. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

function assertSafe(html: string): void {
  // Exactly one script element that runs, ours; the others are inert JSON data (no `<` inside), and one style.
  const data = [...html.matchAll(/<script type="application\/json" id="sd-s\d+">([^<]*)<\/script>/g)];
  expect(html.match(/<script>/gi)).toHaveLength(1);
  expect(html.match(/<script/gi)).toHaveLength(1 + data.length);
  expect(html.match(/<\/script/gi)).toHaveLength(1 + data.length);
  // What the data holds is escaped for display like everything else (the page script sets it as text).
  for (const d of islands(html).values())
    for (const t of strings(d)) {
      expect(t).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
      expect(t).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  expect(html.match(/<style/gi)).toHaveLength(1);
  expect(html.match(/<\/style/gi)).toHaveLength(1);
  for (const t of tags(html)) {
    // No event-handler attribute anywhere (the page's script uses addEventListener), no inline style.
    for (const [name] of attrList(t.attrs)) {
      expect(name, t.raw).not.toMatch(/^on/);
      expect(name, t.raw).not.toBe('style');
      expect(name, t.raw).toMatch(/^[a-z][a-z0-9-]*$/);
    }
    expect([
      'img',
      'iframe',
      'object',
      'embed',
      'link',
      'base',
      'form',
      'textarea',
      'foreignobject',
      'image',
      'use',
    ]).not.toContain(t.name);
  }
  for (const href of attrValues(html, 'href')) expect(href).toMatch(/^#[\w-]+$/);
  expect(attrValues(html, 'src')).toEqual([]);
  expect(html).not.toMatch(/\b(?:href|src|action)\s*=\s*["']?\s*javascript:/i);
  for (const m of html.matchAll(/url\(([^)]*)\)/g)) expect(m[1]).toMatch(/^#[\w-]+$/);
  expect(html).not.toMatch(/@import/);
  // Nothing invisible or reordering survives; NUL never reaches the page.
  expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
  expect(html).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  assertBalanced(html);
}

function assertCsp(html: string): void {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  expect(csp).toBeDefined();
  // The CSP comes before anything else that could load or run.
  expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<title'));
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  const hash = (s: string): string => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
  expect(csp).toContain(`default-src 'none'`);
  expect(csp).toContain(`script-src ${hash(script)}`);
  expect(csp).toContain(`style-src ${hash(style)}`);
  expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  expect(csp).toBe(contentSecurityPolicy());
}

describe('renderHtml with hostile content', () => {
  const input = hostileInput();
  const html = renderHtml(input);

  test('nothing from the content becomes markup, a handler, a link or an invisible character', () => {
    assertSafe(html);
    expect(html).not.toMatch(/(?:src|href|action|url|import)\s*[=(]\s*["']?\s*(?:https?:|\/\/)/i);
  });

  test('the content is still there, visibly escaped', () => {
    expect(html).toContain('&lt;script&gt;document.documentElement.dataset.pwned=&#39;1&#39;&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('\\u{202e}evil\\u{0000}nul\\e[31m \\u{d800}');
    // The full text keeps its line breaks and tabs (the page puts it in a <pre> as text).
    const t = islands(html).get('s1')!.t as { e: unknown[][] };
    expect(t.e[0]![9]).toContain('\nsecond line\twith tab');
    expect(t.e[0]![9]).toContain('\\u{202e}evil\\u{0000}nul\\e[31m');
    expect(html).toMatch(/<title>session-audit: &lt;script&gt;/);
  });

  test('a strict CSP admits exactly the inline script and stylesheet by hash', () => assertCsp(html));

  test('rows carry stable classes and data attributes; flags are visible', () => {
    expect(html.match(/<tr class="finding"/g)).toHaveLength(2);
    expect(html).toMatch(
      /<tr class="finding" id="finding-1" data-i="0" data-severity="error" data-code="JSONL_TORN_TAIL&lt;script&gt;/,
    );
    // Events and pairs are drawn by the page when the session is opened (see html-browser.test.ts): their data.
    const data = islands(html).get('s1')!;
    const t = data.t as { e: unknown[][]; more: number };
    expect(t.e).toHaveLength(2);
    expect(t.e[0]![6]).toBe(1 | 2 | 4 | 8); // rewound, compacted, late, resume
    expect(t.e[1]![7]).toBe(1); // depth
    expect(t.more).toBe(7);
    expect(data.p![0]![5]).toBe('interrupted');
    expect(html).toMatch(/<details class="session" id="s1"/);
    expect(html).toMatch(
      /<li>Baseline &lt;script&gt;[^<]*: 3 known findings suppressed; 1 baseline entry no longer occurs\.<\/li>/,
    );
    expect(html).toMatch(/<svg id="lineage"/);
    expect(html).toMatch(/<path class="edge widened"/);
    expect(html).toMatch(/<path class="edge dropped"/); // from the stand-in for the missing parent
    expect(html).toMatch(/<g class="node phantom">/);
  });

  test('deterministic: the same input gives the same bytes', () => {
    expect(renderHtml(input)).toBe(html);
    expect(renderHtml(structuredClone(input))).toBe(html);
  });
});

describe('renderHtml edge cases', () => {
  test('empty input: no findings, no sessions, no lineage', () => {
    const html = renderHtml({ report: report([], []), sessions: [], lineage: [], title: '' });
    assertSafe(html);
    assertCsp(html);
    expect(html).toContain('No findings.');
    expect(html).toContain('No sessions were audited.');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<tr class="finding"');
    expect(html).toMatch(/<title>session-audit report<\/title>/);
  });

  test('lineage views with no trees draw nothing', () => {
    const html = renderHtml({
      report: report([], []),
      sessions: [],
      lineage: [{ root: 'r', trees: [], edges: [] }],
      title: 't',
    });
    expect(html).not.toContain('<svg');
  });

  test('thousands of findings and a long timeline render quickly and completely', () => {
    const sessions: AuditReport['sessions'] = [
      { id: 'big', path: '/p/big', format: 'grok', files: [], findings: { error: 5000, warning: 0, note: 0 } },
    ];
    const findings = Array.from({ length: 5000 }, (_, i) => ({
      code: `CODE_${i % 17}`,
      severity: 'error' as const,
      message: `message ${i} <b>`,
      check: 'c',
      session: 'big',
      sessionPath: '/p/big',
      // One file each: no two are one row.
      location: { file: `f${i}.jsonl`, line: i + 1, byteOffset: i * 10 },
      fingerprint: `f${i}`,
    }));
    const timeline = Array.from({ length: 20000 }, (_, i) => event(i, { text: `text ${i}\n<i>more</i>` }));
    const start = performance.now();
    const html = renderHtml({
      report: report(findings, sessions),
      sessions: [{ id: 'big', path: '/p/big', format: 'grok', timeline }],
      lineage: [],
      title: 'big',
    });
    expect(performance.now() - start).toBeLessThan(5000);
    // The findings keep to their share of the page: the rows that fit, and how many are left out, adding up.
    const rows = html.match(/<tr class="finding"/g)!.length;
    expect(rows).toBeGreaterThan(1000);
    expect(rows).toBeLessThan(5000);
    expect(html).toContain(`${rows} of ${rows} findings in the table shown`);
    expect(html).toContain(`data-total="5000" data-table="${rows}" data-summed="0" data-omitted="${5000 - rows}"`);
    expect(html).toContain(`${5000 - rows} less severe findings are not in the page`);
    // The page keeps to its budget: every finding, then the start of the timeline in what is left (at least the
    // floor of session data), and how many events are left out.
    const t = islands(html).get('s1')!.t as { e: unknown[][]; more: number };
    expect(t.e.length).toBeGreaterThan(2000);
    expect(t.e.length + t.more).toBe(20000);
    expect(html.length).toBeLessThan(3_000_000);
  });
});

describe('renderHtml over the shipped corpora', () => {
  test('findings, timelines, pairs and the lineage graph from the real CLI', async () => {
    const dirs = ['tool-interrupted-call', 'clean', 'lineage'].map((c) => join(CORPORA, 'grok', c));
    const input = await htmlInputFromCli(dirs, dirs[2]);
    expect(input.report.findings.length).toBeGreaterThan(0);
    // --notes: every finding a row of its own.
    const html = renderHtml({ ...input, notes: true });
    assertSafe(html);
    assertCsp(html);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html.match(/<tr class="finding"/g)).toHaveLength(input.report.findings.length);
    const events = input.sessions.reduce((n, s) => n + (s.timeline?.length ?? 0), 0);
    const pairs = input.sessions.reduce((n, s) => n + (s.pairs?.length ?? 0), 0);
    expect(events).toBeGreaterThan(0);
    expect(pairs).toBeGreaterThan(0);
    const data = [...islands(html).values()];
    expect(data.reduce((n, d) => n + (d.t && 'e' in d.t ? d.t.e.length : 0), 0)).toBe(events);
    expect(data.reduce((n, d) => n + (d.p?.length ?? 0), 0)).toBe(pairs);
    expect(html.match(/<details class="session"/g)).toHaveLength(input.report.sessions.length);
    for (const f of input.report.findings) expect(html).toContain(`data-code="${f.code}"`);
    // The widened and dropped forks of the lineage corpus are drawn red and dashed.
    expect(html).toMatch(/<svg id="lineage"/);
    expect(html.match(/<path class="edge widened"/g)).toHaveLength(1);
    expect(html.match(/<path class="edge dropped"/g)).toHaveLength(1);
    expect(html).toContain('019b1000…c002');
    expect(renderHtml({ ...input, notes: true })).toBe(html);
  });
});
