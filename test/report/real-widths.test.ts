/**
 * `audit`, `timeline`, `pairs` and `inspect` over every real file in ../shared/external/ and a sample of each
 * agent's corpora cases, at 80, 120 and 200 columns, rendered in-process: no line wider than the width but a token
 * wider than the width by itself, alone and unindented on its line; no id, code, path or location split across
 * lines; a location in the file the title names is `:line`, never that file's name again.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { escapeText } from '../../src/report/escape.js';
import { groupRows } from '../../src/report/group-findings.js';
import { formatLocation, titleFile } from '../../src/report/human.js';
import { FORMAT_NAMES } from '../../src/formats/registry.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';
import { overWidth, splitTokens } from '../helpers/widths.js';

const EXTERNAL = [join(CORPORA, '..', '..', 'shared', 'external'), '/work/shared/external'].find((p) => existsSync(p));
const WIDTHS = [80, 120, 200];
const AGENTS = FORMAT_NAMES;
/** Sessions of each agent's corpora whose timeline, pairs and inspect are rendered (spread over the cases). */
const SAMPLE = 4;

/** Words of a message that are ids, paths or codes: long, with a digit, `_`, `/` or `.` inside. */
const idWords = (s: string): string[] =>
  escapeText(s)
    .split(/\s+/)
    .map((w) => w.replace(/^[("'`]+|[)"'`,.;:]+$/g, ''))
    .filter((w) => w.length >= 12 && /[0-9_/.]/.test(w) && !w.includes('…'));

const run = async (args: string[], width: number): Promise<string> =>
  (await cli([...args, '--no-color'], { columns: width })).stdout;
const json = async <T>(args: string[]): Promise<T | undefined> => {
  const out = (await cli([...args, '--format', 'json'], { columns: 120 })).stdout;
  try {
    return JSON.parse(out) as T;
  } catch {
    return undefined;
  }
};

interface Where {
  file: string;
  line?: number;
}

function expectFits(name: string, text: string, width: number, tokens: Iterable<string>, title?: string): void {
  expect(overWidth(text, width), `${name} at ${width}`).toEqual([]);
  expect(splitTokens(text, tokens), `${name} at ${width}`).toEqual([]);
  for (const t of tokens) expect(text, `${name} at ${width}: ${t}`).toContain(t);
  // inspect's warnings before resuming are the agent's own words (its format's inspect texts), left as they are.
  const ours = text.replace(/^Before resuming\n[\s\S]*?\n\n/m, '');
  if (title !== undefined)
    expect(ours, `${name} at ${width}: the title's file again`).not.toMatch(
      new RegExp(`${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d`),
    );
}

/** The audit of `paths`: codes, locations, ids in messages, session paths. */
async function auditCase(name: string, paths: string[]): Promise<void> {
  const r = await json<AuditReport>(['audit', ...paths, '--fail-on', 'never']);
  if (!r) return;
  const titles = new Map(r.sessions.map((s) => [s.path, titleFile(s)]));
  // Notes are summed up by code; five or more findings of one code in one file are one row, the first one's.
  const shown = [...new Set(r.findings.map((f) => f.sessionPath))].flatMap((p) =>
    groupRows(r.findings.filter((f) => f.sessionPath === p && f.severity !== 'note')).map((row) => row.finding),
  );
  const tokens = [
    ...r.findings.map((f) => f.code),
    ...shown.flatMap((f) => escapeText(formatLocation(f.location, titles.get(f.sessionPath))).split(' ')),
    ...shown.flatMap((f) => idWords(f.message)),
  ];
  const one = r.sessions.length === 1 ? titles.get(r.sessions[0]!.path) : undefined;
  for (const w of WIDTHS) expectFits(name, await run(['audit', ...paths, '--fail-on', 'never'], w), w, tokens, one);
}

interface Pairs {
  sessions: Array<{ path: string; rows?: Array<{ id: string; call?: Where; result?: Where; logCall?: Where }> }>;
}

async function pairsCase(name: string, path: string, title: string | undefined): Promise<void> {
  const p = await json<Pairs>(['pairs', path]);
  if (!p?.sessions.length) return;
  const tokens = p.sessions.flatMap((s) => (s.rows ?? []).map((r) => escapeText(r.id)));
  for (const w of WIDTHS) expectFits(name, await run(['pairs', path], w), w, tokens, title);
}

interface Inspect {
  session: { id: string };
  inFlight: Array<{ id: string }>;
  findings: { list: Array<{ code: string; severity: string }> };
}

async function inspectCase(name: string, path: string, title: string | undefined): Promise<void> {
  const i = await json<Inspect>(['inspect', path, '--fail-on', 'never']);
  if (!i) return;
  const tokens = [
    escapeText(i.session.id),
    ...i.inFlight.map((p) => escapeText(p.id)),
    ...i.findings.list.filter((f) => f.severity !== 'note').map((f) => f.code),
  ].slice(0, 40);
  for (const w of WIDTHS) expectFits(name, await run(['inspect', path, '--fail-on', 'never'], w), w, tokens, title);
}

async function timelineCase(name: string, path: string): Promise<void> {
  const out = (await cli(['timeline', path, '--format', 'jsonl', '--limit', '0'], { columns: 120 })).stdout;
  const kinds = new Set(
    out
      .split('\n')
      .filter(Boolean)
      .slice(0, 300)
      .map((l) => (JSON.parse(l) as { kind: string }).kind),
  );
  if (!kinds.size) return;
  // The first 300 rows: the columns are sized by the first 200, every later row is drawn alike.
  for (const w of WIDTHS) expectFits(name, await run(['timeline', path, '--limit', '300'], w), w, kinds);
}

async function sessionCases(name: string, s: AuditReport['sessions'][number]): Promise<void> {
  const title = titleFile(s);
  await pairsCase(`pairs ${name}`, s.path, title);
  await inspectCase(`inspect ${name}`, s.path, title);
  await timelineCase(`timeline ${name}`, s.path);
}

const externalFiles = (): string[] =>
  EXTERNAL
    ? ['claude', 'codex', 'pi', 'copilot-cli', 'gemini', 'opencode'].flatMap((a) =>
        existsSync(join(EXTERNAL, a))
          ? readdirSync(join(EXTERNAL, a))
              .filter((f) => f !== 'SOURCES.md')
              .map((f) => join(EXTERNAL, a, f))
          : [],
      )
    : [];

describe.skipIf(!EXTERNAL)('the real files in ../shared/external', () => {
  test.each(externalFiles().map((f) => [f.slice(EXTERNAL!.length + 1), f]))(
    '%s: audit, pairs, inspect, timeline',
    async (name, file) => {
      await auditCase(`audit ${name}`, [file]);
      const r = await json<AuditReport>(['audit', file, '--fail-on', 'never']);
      for (const s of r?.sessions ?? []) await sessionCases(name, s);
    },
    120_000,
  );

  test('all of them in one audit', async () => {
    await auditCase('audit all', externalFiles());
  }, 120_000);
});

describe('each agent’s corpora', () => {
  test.each(AGENTS)(
    '%s: the audit of every case, and a sample of sessions',
    async (agent) => {
      const root = join(CORPORA, agent);
      await auditCase(`audit ${agent}`, [root]);
      const r = await json<AuditReport>(['audit', root, '--fail-on', 'never']);
      const sessions = [...(r?.sessions ?? [])].sort((a, b) => (a.path < b.path ? -1 : 1));
      const step = Math.max(1, Math.floor(sessions.length / SAMPLE));
      for (let i = 0; i < sessions.length && i / step < SAMPLE; i += step)
        await sessionCases(`${agent} ${sessions[i]!.path.slice(root.length + 1)}`, sessions[i]!);
    },
    300_000,
  );
});
