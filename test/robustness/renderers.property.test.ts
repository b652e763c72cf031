/**
 * Renderers never emit a raw control character that came from session content (issue 9 §1, terminal and
 * browser safety): property-tested with a fixed seed over reports and timelines whose every content-bearing
 * string is hostile (C0/C1 controls, ANSI CSI and OSC sequences, bidi overrides and isolates, NULs, lone
 * surrogates, CR/LF line forgeries, markup). Checked per renderer: table, markdown, html, junit, timeline
 * table and csv. Content newlines must not forge output lines either (table, markdown, timeline table).
 *
 * The end-to-end counterpart (every command over a hostile session tree on disk) is in hostile-inputs.test.ts.
 */
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, test } from 'vitest';
import { catalog } from '../../src/checks/catalog.js';
import { EVENT_KINDS } from '../../src/model/events.js';
import type { AuditReport } from '../../src/model/report.js';
import { renderHtml } from '../../src/report/html.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTable } from '../../src/report/table.js';
import { renderTimelineCsv, renderTimelineTable } from '../../src/report/timeline.js';
import type { TimelineEvent } from '../../src/timeline/model.js';
import { hostileString, rawControls } from '../helpers/hostile.js';

const SEED = 20260919;
const RUNS = 300;
const params = { seed: SEED, numRuns: RUNS, endOnFailure: true };

const CODES = catalog();
const S = hostileString;

const findingArb = fc.record({
  code: fc.constantFrom(...CODES.map((c) => c.code)),
  severity: fc.constantFrom('error' as const, 'warning' as const, 'note' as const),
  message: S,
  check: fc.constantFrom(...new Set(CODES.map((c) => c.check))),
  session: S,
  sessionIndex: fc.nat({ max: 2 }),
  location: fc.record(
    {
      file: S,
      line: fc.option(fc.integer({ min: 1, max: 1e6 }), { nil: undefined }),
      byteOffset: fc.option(fc.nat(), { nil: undefined }),
      pointer: fc.option(S, { nil: undefined }),
    },
    { requiredKeys: ['file'] },
  ),
  fingerprint: S,
});

/** A report whose session paths, ids, file names, messages, pointers, tool errors and baseline are hostile. */
const reportArb: fc.Arbitrary<AuditReport> = fc
  .record({
    paths: fc.array(S, { minLength: 1, maxLength: 3 }),
    ids: fc.array(S, { minLength: 3, maxLength: 3 }),
    files: fc.array(fc.record({ path: S, linkTarget: fc.option(S, { nil: undefined }) }), { maxLength: 3 }),
    findings: fc.array(findingArb, { maxLength: 8 }),
    // A tool error names a check of ours (not content); its session and message may quote content.
    toolErrors: fc.array(
      fc.record({ session: S, check: fc.constantFrom(...new Set(CODES.map((c) => c.check))), message: S }),
      { maxLength: 2 },
    ),
    baseline: fc.option(
      fc.record({
        path: S,
        absent: fc.array(fc.record({ fingerprint: S, code: S, sessionPath: S, file: S }), { maxLength: 2 }),
      }),
      { nil: undefined },
    ),
    command: fc.constantFrom('audit' as const, 'validate' as const, 'verify' as const),
  })
  .map(({ paths, ids, files, findings, toolErrors, baseline, command }) => {
    const sessions = paths.map((path, i) => ({
      id: ids[i]!,
      path: `root/${path}/${i}`,
      format: 'grok',
      files: files.map((f) => ({
        path: f.path,
        type: f.linkTarget === undefined ? ('file' as const) : ('symlink' as const),
        ...(f.linkTarget !== undefined ? { linkTarget: f.linkTarget } : {}),
      })),
      findings: { error: 0, warning: 0, note: 0 },
    }));
    const fs = findings.map(({ sessionIndex, ...f }) => {
      const s = sessions[sessionIndex % sessions.length]!;
      s.findings[f.severity]++;
      return { ...f, sessionPath: s.path };
    });
    const counts = { error: 0, warning: 0, note: 0 };
    const byCode: Record<string, number> = {};
    for (const f of fs) {
      counts[f.severity]++;
      byCode[f.code] = (byCode[f.code] ?? 0) + 1;
    }
    const report: AuditReport = {
      tool: { name: 'session-audit', version: '0.1.0' },
      reportVersion: 1,
      command,
      summary: { sessions: sessions.length, files: files.length, bytes: 1, findings: counts, byCode },
      sessions,
      findings: fs,
      toolErrors,
    };
    if (baseline)
      report.baseline = { path: baseline.path, suppressed: 1, absent: baseline.absent, matchedBy: 'fingerprint' };
    return report;
  });

const eventArb: fc.Arbitrary<TimelineEvent> = fc
  .record({
    session: S,
    depth: fc.nat({ max: 2 }),
    parent: fc.option(S, { nil: undefined }),
    file: S,
    line: fc.integer({ min: 1, max: 1e6 }),
    eventId: fc.option(S, { nil: undefined }),
    kind: fc.constantFrom(...EVENT_KINDS),
    tag: S,
    promptId: fc.option(S, { nil: undefined }),
    toolCallId: fc.option(S, { nil: undefined }),
    toolStatus: fc.option(S, { nil: undefined }),
    subagentId: fc.option(S, { nil: undefined }),
    summary: S,
    text: S,
    resume: fc.option(S, { nil: undefined }),
    flags: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
  })
  .map(({ flags: [rewound, compacted, displaced], ...e }) => {
    const ev: TimelineEvent = {
      ...e,
      byteOffset: 0,
      time: '2026-08-19T09:30:00.000Z',
      timeMs: 1787131800000,
      timeSource: 'agentTimestampMs',
      rail: 'acp',
      rewound,
      compacted,
      displaced,
    };
    for (const k of Object.keys(ev) as Array<keyof TimelineEvent>) if (ev[k] === undefined) delete ev[k];
    return ev;
  });

/** A deep copy with every string of content mapped (enum-like fields the renderers switch on are kept). */
const KEEP = new Set([
  'code',
  'severity',
  'check',
  'kind',
  'type',
  'command',
  'format',
  'time',
  'timeSource',
  'rail',
  'name',
  'version',
]);
function deepMapStrings<T>(v: T, f: (s: string) => string, key = ''): T {
  if (typeof v === 'string') return (KEEP.has(key) ? v : f(v)) as T;
  if (Array.isArray(v)) return v.map((x) => deepMapStrings(x, f, key)) as T;
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepMapStrings(x, f, k)])) as T;
  return v;
}

const tagNames = (html: string): string[] =>
  [...html.matchAll(/<(\/?[a-zA-Z][\w:-]*)/g)].map((m) => m[1]!.toLowerCase());

/** Lines forged by a content newline: an output line (or a table cell line) that starts with the forgery. */
const FORGED = /(^|│ *)(FORGED|# heading)/m;

/** Markdown tables stay tables: every row has as many unescaped pipes as its header. */
function pipeCounts(md: string): string[] {
  const bad: string[] = [];
  const pipes = (line: string): number => {
    let n = 0;
    for (let i = 0; i < line.length; i++) {
      if (line[i] === '\\') i++;
      else if (line[i] === '|') n++;
    }
    return n;
  };
  let header: number | undefined;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) {
      header = undefined;
      continue;
    }
    header ??= pipes(line);
    if (pipes(line) !== header) bad.push(line);
  }
  return bad;
}

describe('audit report renderers', () => {
  test('table: no raw control character, no forged line (colour off and on)', () => {
    fc.assert(
      fc.property(reportArb, fc.boolean(), fc.constantFrom(80, 200), (report, color, width) => {
        const out = renderTable(report, { color, width });
        // Our own colouring is the only ESC allowed, and only with colour on: strip exactly chalk's SGR codes.
        const text = color ? out.replace(/\u001b\[(?:\d{1,2}(?:;\d{1,2})*)m/g, '') : out;
        expect(rawControls(text)).toEqual([]);
        // Outside the tables (session headers, summary lines), nothing starts a line but the renderer. Inside a
        // table, word wrapping may legitimately start a cell line anywhere: see the example test below.
        expect(text).not.toMatch(/^(FORGED|# heading)/m);
      }),
      params,
    );
  });

  test('table: a newline in any content field stays inside its cell, visibly escaped', () => {
    const forge = '\r\nFORGED \u001b[2J';
    const report: AuditReport = {
      tool: { name: 'session-audit', version: '0' },
      reportVersion: 1,
      command: 'audit',
      summary: {
        sessions: 1,
        files: 0,
        bytes: 0,
        findings: { error: 1, warning: 0, note: 0 },
        byCode: { JSONL_TORN_TAIL: 1 },
      },
      sessions: [
        {
          id: `s${forge}`,
          path: `root/s${forge}`,
          format: 'grok',
          files: [],
          findings: { error: 1, warning: 0, note: 0 },
        },
      ],
      findings: [
        {
          code: 'JSONL_TORN_TAIL',
          severity: 'error',
          message: `m${forge}`,
          check: 'jsonl-integrity',
          session: `s${forge}`,
          sessionPath: `root/s${forge}`,
          location: { file: `f${forge}`, line: 1, byteOffset: 0, pointer: `/p${forge}` },
          fingerprint: 'x',
        },
      ],
      toolErrors: [{ session: `s${forge}`, check: 'schema', message: `boom${forge}` }],
    };
    const out = renderTable(report, { color: false, width: 400 });
    expect(out).not.toMatch(/(^|│ *)FORGED/m);
    // path header, message, tool error, and the location (wrapped at its spaces)
    expect(out.match(/\\r\\nFORGED \\e\[2J/g)!.length).toBeGreaterThanOrEqual(4);
    expect(rawControls(out)).toEqual([]);
  });

  test('markdown: no raw control character, no forged line, tables keep their shape', () => {
    fc.assert(
      fc.property(reportArb, fc.constantFrom('error' as const, 'never' as const), (report, failOn) => {
        const md = renderMarkdown(report, failOn);
        expect(rawControls(md)).toEqual([]);
        expect(md).not.toMatch(FORGED);
        expect(pipeCounts(md)).toEqual([]);
      }),
      params,
    );
  });

  test('html: no raw control character, no lone surrogate, and content never changes the markup', () => {
    fc.assert(
      fc.property(reportArb, fc.array(eventArb, { maxLength: 4 }), S, (report, timeline, title) => {
        const input = (r: AuditReport, t: TimelineEvent[], ti: string) => ({
          report: r,
          sessions: r.sessions.map((s, i) =>
            i === 0 && t.length
              ? { id: s.id, path: s.path, format: s.format, timeline: t }
              : { id: s.id, path: s.path, format: s.format },
          ),
          lineage: [],
          title: ti,
        });
        const html = renderHtml(input(report, timeline, title));
        expect(rawControls(html)).toEqual([]);
        expect(html).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        // The same input with every string replaced by an inert stand-in (equal strings stay equal) has exactly
        // the same sequence of tags: nothing in the content became an element.
        const inert = new Map<string, string>();
        const swap = <T>(v: T): T =>
          deepMapStrings(v, (x) => {
            if (x === '') return '';
            let y = inert.get(x);
            if (y === undefined) inert.set(x, (y = `x${inert.size}`));
            return y;
          });
        const plain = renderHtml(input(swap(report), swap(timeline), swap(title)));
        expect(tagNames(html)).toEqual(tagNames(plain));
      }),
      params,
    );
  });

  // Regression (was a bug, fixed): renderJunit passes C1 controls (U+0080–U+009F, e.g. U+009B, the 8-bit CSI), bidi
  // overrides/isolates
  // (U+202A–U+202E, U+2066–U+2069) and CR through raw: xmlText (src/report/junit.ts) only replaces the
  // characters XML 1.0 cannot hold. Messages quote content (a record tag via JSON.stringify, which keeps C1 and
  // bidi raw), session paths and ids are directory names. Minimal reproduction:
  //   renderJunit(report with findings[0].message = 'a\u009b31m\u202eb', 'error', () => [])
  //   → contains U+009B, U+202E.
  // End to end: `session-audit audit <root with a session dir or tag holding U+202E> --format junit`.
  // Fix: run escapeText (src/report/escape.ts) before xmlText, as the table renderer does.
  test('junit: well-formed, and no raw control character', () => {
    fc.assert(
      fc.property(reportArb, (report) => {
        const xml = renderJunit(report, 'error', () => ['jsonl-integrity', 'schema']);
        expect(XMLValidator.validate(xml)).toBe(true);
        expect(rawControls(xml)).toEqual([]);
      }),
      params,
    );
  });

  test('junit: well-formed XML whatever the content', () => {
    fc.assert(
      fc.property(reportArb, (report) => {
        expect(XMLValidator.validate(renderJunit(report, 'warning', () => ['jsonl-integrity']))).toBe(true);
      }),
      params,
    );
  });
});

/** Session ids of subagent events are directory names; kept plain where the table's bug below would trip. */
const plainSession = eventArb.map((e) => ({ ...e, session: 'sess-1' }));

describe('timeline renderers', () => {
  test('table: no raw control character, no forged line', () => {
    fc.assert(
      fc.property(fc.array(plainSession, { maxLength: 6 }), (events) => {
        const out = renderTimelineTable(events, 300);
        expect(rawControls(out)).toEqual([]);
        expect(out).not.toMatch(FORGED);
        expect(rawControls(renderTimelineTable(events, 90))).toEqual([]);
      }),
      params,
    );
  });

  // Regression (was a bug, fixed): the resume legend under the timeline table prints the subagent's session id raw:
  // src/report/timeline.ts renderTimelineTable, `(subagent ${e.session})` is outside escapeText (only e.resume is
  // escaped). A subagent's session id is its directory name, so it is session content. Minimal reproduction:
  // renderTimelineTable([{ …event, depth: 1, session: 'x\u001b]0;pwned\u0007', resume: 'r' }], 120)
  // → contains ESC, BEL.
  // End to end: `timeline <session> --include-subagents` where the child session directory's name holds ESC
  // and a new process picked the child up (TIME_RESUME_BOUNDARY).
  test('table: the resume legend escapes subagent session ids too', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 6 }), (events) => {
        expect(rawControls(renderTimelineTable(events, 300))).toEqual([]);
      }),
      params,
    );
  });

  // Regression (was a bug, fixed): renderTimelineCsv (src/report/timeline.ts, csvCell) writes every field raw except
  // for RFC 4180
  // quoting and the formula guard: ESC, OSC, C1, bidi overrides and NULs from the session reach the file (and
  // the terminal of whoever runs `timeline --format csv` without -o, or `cat`s the file). Minimal reproduction:
  //   renderTimelineCsv([{ …event, text: '\u001b]0;pwned\u0007\u202e' }])  → contains U+001B, U+0007, U+202E.
  // End to end: `session-audit timeline <session whose updates.jsonl text holds "\u001b[2J"> --format csv`.
  // CR LF between rows (and inside quoted cells, which RFC 4180 allows) is accepted by this test.
  // Fix: escapeText the summary and text cells (the jsonl/json formats keep the exact text).
  test('csv: no raw control character (CR LF row ends allowed)', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 6 }), (events) => {
        expect(rawControls(renderTimelineCsv(events), { allowCrLf: true })).toEqual([]);
      }),
      params,
    );
  });

  test('csv: one row per event, whatever the content (quoting holds)', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 6 }), (events) => {
        const csv = renderTimelineCsv(events);
        // Split on CR LF outside quotes: the number of records is the header plus one per event.
        let rows = 0;
        let quoted = false;
        for (let i = 0; i < csv.length; i++) {
          if (csv[i] === '"') quoted = !quoted;
          else if (!quoted && csv[i] === '\r' && csv[i + 1] === '\n') rows++;
        }
        expect(quoted).toBe(false);
        expect(rows).toBe(events.length + 1);
      }),
      params,
    );
  });
});
