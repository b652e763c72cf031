/**
 * `transcript`: on every real file in /work/shared/external (Claude, Codex, Pi) every user prompt appears and every
 * failed result is listed as not completed (the ground truth read from the file itself); golden transcripts
 * (terminal at 80 columns, Markdown) of each agent's clean corpora case; the statuses in plain words and findings
 * inline; the HTML page in headless Chromium; --redact; a million-line session under a 256 MB heap.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import type { TranscriptEntry } from '../src/model/transcript.js';
import { displayWidth } from '../src/report/width.js';
import { chromium, dumpDom, RUN } from './helpers/chromium.js';
import { cli } from './helpers/cli.js';
import { CORPORA } from './helpers/corpora.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const GOLDEN = join(ROOT, 'test', 'golden', 'transcript');
const EXTERNAL = ['/work/shared/external', join(ROOT, '..', '..', 'shared', 'external')].find((p) => existsSync(p));
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const tmp = mkdtempSync(join(tmpdir(), 'sa-transcript-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const records = (file: string): Obj[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((l) => {
      try {
        const v = JSON.parse(l) as unknown;
        return isObj(v) ? [v] : [];
      } catch {
        return [];
      }
    });
const textBlocks = (c: unknown): string[] =>
  typeof c === 'string'
    ? [c]
    : Array.isArray(c)
      ? c.filter(isObj).flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []))
      : [];

/** What the user typed, read from the file itself: the prompts a reader must find in the transcript. */
function promptsOf(agent: string, file: string): string[] {
  const out: string[] = [];
  for (const v of records(file)) {
    if (agent === 'claude') {
      const m = isObj(v.message) ? v.message : {};
      const hasResult = Array.isArray(m.content) && m.content.some((b) => isObj(b) && b.type === 'tool_result');
      if (v.type !== 'user' || v.isMeta === true || v.isCompactSummary === true || hasResult) continue;
      const t = textBlocks(m.content).join('\n').trim();
      if (t && !t.startsWith('<') && !t.startsWith('[Request interrupted')) out.push(t);
    } else if (agent === 'codex') {
      const p = isObj(v.payload) ? v.payload : {};
      if (v.type === 'event_msg' && p.type === 'user_message' && typeof p.message === 'string' && p.message.trim())
        out.push(p.message.trim());
    } else {
      const m = isObj(v.message) ? v.message : {};
      if (v.type === 'message' && m.role === 'user') {
        const t = textBlocks(m.content).join('\n').trim();
        if (t) out.push(t);
      }
    }
  }
  return out;
}

/** Results the file itself marks as errors. */
function failedOf(agent: string, file: string): number {
  let n = 0;
  for (const v of records(file)) {
    const m = isObj(v.message) ? v.message : {};
    if (agent === 'claude' && Array.isArray(m.content))
      n += m.content.filter((b) => isObj(b) && b.type === 'tool_result' && b.is_error === true).length;
    if (agent === 'pi' && m.role === 'toolResult' && m.isError === true) n++;
  }
  return n;
}

const entriesOf = (jsonl: string): TranscriptEntry[] =>
  jsonl
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TranscriptEntry);

describe.skipIf(!EXTERNAL)('real sessions', () => {
  const files = ['claude', 'codex', 'pi'].flatMap((agent) =>
    readdirSync(join(EXTERNAL!, agent))
      .filter((n) => n.endsWith('.jsonl'))
      .map((n) => ({ agent, file: join(EXTERNAL!, agent, n) })),
  );

  test.each(files)(
    '$agent $file: every prompt appears, every failed result is not completed',
    async ({ agent, file }) => {
      const r = await cli(['transcript', file, '--format', 'jsonl', '--full']);
      expect(r.code, r.stderr).toBe(0);
      const entries = entriesOf(r.stdout);
      const prompts = entries.filter((e) => e.type === 'prompt').map((e) => (e as { text: string }).text);
      const truth = promptsOf(agent, file);
      expect(truth.length, 'the file holds prompts').toBeGreaterThan(0);
      for (const p of truth)
        expect(
          prompts.some((t) => t.includes(p.slice(0, 200))),
          p.slice(0, 80),
        ).toBe(true);
      const failed = entries.filter((e) => e.type === 'result' && e.status !== 'completed').length;
      expect(failed).toBe(failedOf(agent, file));
      // The terminal text stays within 80 columns.
      const t = await cli(['transcript', file, '--full'], { columns: 80 });
      for (const line of t.stdout.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    },
  );

  test('the Pi file before-compaction.jsonl shows its 12 failed results as failed', async () => {
    const r = await cli(['transcript', join(EXTERNAL!, 'pi', 'before-compaction.jsonl'), '--format', 'jsonl']);
    const failed = entriesOf(r.stdout).filter((e) => e.type === 'result' && e.status === 'failed');
    expect(failed).toHaveLength(12);
  });
});

/** Each agent's clean case: every session in it. */
function cleanSessions(): Array<{ name: string; path: string }> {
  const out: Array<{ name: string; path: string }> = [];
  const rel = (p: string): string => relative(ROOT, p);
  out.push({
    name: 'claude',
    path: rel(join(CORPORA, 'claude/clean/projects/-home-dev-app/5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01.jsonl')),
  });
  const codex = join(CORPORA, 'codex/clean/sessions/2026/03/02');
  out.push({ name: 'codex', path: rel(join(codex, readdirSync(codex).sort()[0]!)) });
  const pi = join(CORPORA, 'pi/clean/sessions/--home-dev-app--');
  out.push({ name: 'pi', path: rel(join(pi, readdirSync(pi).sort()[0]!)) });
  out.push({
    name: 'grok',
    path: rel(join(CORPORA, 'grok/clean/sessions/%2Fhome%2Fdev%2Fproj/019a3f2c-1d00-7a3e-8000-00000000a001')),
  });
  out.push({ name: 'hermes', path: rel(join(CORPORA, 'hermes/clean')) });
  return out;
}

describe('golden transcripts of the clean corpora cases', () => {
  const cwd = process.cwd();
  test.each(cleanSessions())('$name', async ({ name, path }) => {
    process.chdir(ROOT);
    try {
      const term = await cli(['transcript', path, '--include-subagents'], { columns: 80 });
      const md = await cli(['transcript', path, '--format', 'markdown', '--include-subagents']);
      expect(term.code, term.stderr).toBe(0);
      expect(md.code, md.stderr).toBe(0);
      for (const line of term.stdout.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
      for (const [ext, text] of [
        ['txt', term.stdout],
        ['md', md.stdout],
      ] as const) {
        const file = join(GOLDEN, `${name}.${ext}`);
        if (UPDATE || !existsSync(file)) {
          mkdirSync(GOLDEN, { recursive: true });
          writeFileSync(file, text);
        }
        expect(text).toBe(readFileSync(file, 'utf8'));
      }
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('what a reader is told', () => {
  const claude = join(CORPORA, 'claude/clean/projects/-home-dev-app/5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01.jsonl');

  test('a command line with its cwd, an edit as its path and change, a patch by its files', async () => {
    const c = await cli(['transcript', claude], { columns: 100 });
    expect(c.stdout).toContain('$ cargo test');
    expect(c.stdout).toContain('in /home/dev/app');
    expect(c.stdout).toMatch(
      /edit Edit[^\n]*\n│ \/home\/dev\/app\/src\/parser\.rs\n│ - s\.parse\(\)\.unwrap\(\)\n│ \+ s\.parse\(\)\.ok\(\)/,
    );
    const codex = cleanSessions().find((s) => s.name === 'codex')!.path;
    const x = await cli(['transcript', join(ROOT, codex)], { columns: 100 });
    expect(x.stdout).toMatch(/patch apply_patch[^\n]*\n│ update src\/lib\.rs\n│ @@/);
  });

  test('thinking folded unless --thinking; outputs cut unless --full', async () => {
    const folded = await cli(['transcript', claude]);
    expect(folded.stdout).toMatch(/thinking \(1 line folded, --thinking shows it\)/);
    const shown = await cli(['transcript', claude, '--thinking']);
    expect(shown.stdout).not.toContain('folded');
    const long = join(tmp, 'long.jsonl');
    const lines = readFileSync(join(ROOT, cleanSessions().find((s) => s.name === 'pi')!.path), 'utf8').split('\n');
    const out = Array.from({ length: 40 }, (_, i) => `row ${i}`).join('\n');
    writeFileSync(
      long,
      lines.map((l) => l.replace('src/parser.rs:3:    s.parse().unwrap()', out.replace(/\n/g, '\\n'))).join('\n'),
    );
    const cut = await cli(['transcript', long]);
    expect(cut.stdout).toContain('… 28 more lines (--full shows all)');
    const full = await cli(['transcript', long, '--full']);
    expect(full.stdout).toContain('row 39');
  });

  test('statuses in plain words and findings inline at their line', async () => {
    // A Codex session whose call was in flight when it stopped: interrupted, never answered, its finding under it.
    const r = await cli(['transcript', join(CORPORA, 'codex', 'jsonl-torn-tail'), '--format', 'jsonl']);
    const entries = entriesOf(r.stdout);
    const call = entries.findIndex((e) => e.type === 'call' && e.fate === 'interrupted');
    expect(call).toBeGreaterThanOrEqual(0);
    const finding = entries.findIndex((e) => e.type === 'finding' && e.code === 'TOOL_INTERRUPTED_CALL');
    expect(finding).toBeGreaterThan(call);
    expect(entries[finding]!.at.line).toBe(entries[call]!.at.line);
  });

  test('a rejected call, a failed one and a placeholder the agent wrote, each in its words', async () => {
    const src = readFileSync(claude, 'utf8');
    const rejected = join(tmp, 'rejected.jsonl');
    writeFileSync(
      rejected,
      src
        .replace(
          '"content":"test result: ok. 5 passed; 0 failed"',
          '"content":"The user doesn\'t want to proceed with this tool use. The tool use was rejected.",' +
            '"is_error":true',
        )
        .replace('"content":"Finished dev profile, 0 warnings"', '"content":"error: 2 warnings","is_error":true'),
    );
    const r = entriesOf((await cli(['transcript', rejected, '--format', 'jsonl'])).stdout);
    const statuses = r.flatMap((e) => (e.type === 'result' && e.tool === 'Bash' ? [e.status] : []));
    expect(statuses).toEqual(['rejected', 'failed']);
    const t = await cli(['transcript', rejected]);
    expect(t.stdout).toContain('✗ rejected by the user · Bash');
    const aborted = await cli(['transcript', join(CORPORA, 'codex', 'tool-aborted'), '--format', 'jsonl']);
    expect(entriesOf(aborted.stdout).some((e) => e.type === 'result' && e.status === 'placeholder')).toBe(true);
  });

  test('--redact replaces the secrets the detectors find', async () => {
    const file = join(tmp, 'secret.jsonl');
    const src = readFileSync(join(ROOT, cleanSessions().find((s) => s.name === 'pi')!.path), 'utf8');
    const key = `AKIA${'Q'.repeat(16)}`;
    writeFileSync(file, src.replace('grep -n unwrap src/*.rs', `export AWS_ACCESS_KEY_ID=${key}`));
    const plain = await cli(['transcript', file]);
    expect(plain.stdout).toContain(key);
    for (const format of ['terminal', 'markdown', 'html', 'jsonl']) {
      const r = await cli(['transcript', file, '--redact', '--format', format]);
      expect(r.stdout, format).not.toContain(key);
      expect(r.stdout, format).toContain('[REDACTED');
    }
    expect((await cli(['transcript', file, '--redact-pattern', 'x'])).code).toBe(2);
  });
});

describe.skipIf(!RUN)('the HTML transcript in headless Chromium', () => {
  test('renders, no script, every entry there; a screenshot', async () => {
    const claude = join(CORPORA, 'claude/clean/projects/-home-dev-app/5e3c1a70-2b4d-4e8f-9a1c-3d5e7f9b1c01.jsonl');
    const page = join(tmp, 'transcript.html');
    const r = await cli(['transcript', claude, '--format', 'html', '--thinking', '-o', page]);
    expect(r.code, r.stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).not.toContain('<script');
    const dom = dumpDom(tmp, page);
    expect(dom).toContain('parse() panics on empty input; fix it.');
    expect(dom).toContain('$ cargo clippy');
    expect((dom.match(/class="t-entry/g) ?? []).length).toBeGreaterThan(20);
    const shot = join(tmp, 'transcript.png');
    chromium(tmp, ['--window-size=1000,1400', `--screenshot=${shot}`, page]);
    expect(existsSync(shot)).toBe(true);
  }, 60_000);
});

describe('a million-line session', () => {
  test('transcript --format jsonl streams under a 256 MB heap', () => {
    const dir = join(tmp, 'sessions', '2026', '03', '02');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'rollout-2026-03-02T09-00-00-019cb100-0000-7000-8000-00000000ffff.jsonl');
    const t0 = Date.parse('2026-03-02T09:00:00.000Z');
    const chunks: string[] = [
      JSON.stringify({
        timestamp: new Date(t0).toISOString(),
        type: 'session_meta',
        payload: { id: '019cb100-0000-7000-8000-00000000ffff', timestamp: new Date(t0).toISOString(), cwd: '/w' },
      }),
    ];
    const ts = new Date(t0).toISOString();
    for (let k = 0; chunks.length < 1_000_000; k++) {
      chunks.push(
        `{"timestamp":"${ts}","type":"event_msg","payload":{"type":"user_message","message":"p${k}"}}`,
        `{"timestamp":"${ts}","type":"response_item","payload":{"type":"function_call","name":"exec_command",` +
          `"arguments":"{\\"cmd\\":\\"echo ${k}\\"}","call_id":"c${k}"}}`,
        `{"timestamp":"${ts}","type":"response_item","payload":{"type":"function_call_output","call_id":"c${k}",` +
          `"output":"${k}"}}`,
        `{"timestamp":"${ts}","type":"event_msg","payload":{"type":"agent_message","message":"d${k}"}}`,
      );
    }
    writeFileSync(file, `${chunks.join('\n')}\n`);
    chunks.length = 0;
    const out = join(tmp, 'million.jsonl');
    const r = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=256',
        join(ROOT, 'bin', 'session-audit.js'),
        'transcript',
        file,
        '--format',
        'jsonl',
        '-o',
        out,
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    // The last prompt made it out (the stream ran to the end).
    const size = readFileSync(out).length;
    expect(size).toBeGreaterThan(10_000_000);
  }, 180_000);
});
