/**
 * The SECRET_IN_SESSION scan of a large log as two threads run it (the second parses only the lines the native pass
 * over raw bytes names, with no junctions; the loader's follows the agent's streamed text) finds what the scan of
 * every string of every record with a junction at every pointer finds: on every corpora log, on the bench's
 * generated session, on the real files of ../shared/external (when present; SHARED=/work/shared from a worktree),
 * and on secrets split across two streamed chunks at every position, some written with JSON escapes. Without the
 * addon (every line parsed) the findings are the same.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { writeLargeSession } from '../scripts/bench/generate.js';
import type { CheckContext } from '../src/checks/define.js';
import { secretScan, type JunctionMode } from '../src/checks/secrets.js';
import { FORMATS } from '../src/formats/registry.js';
import type { FormatModule } from '../src/formats/types.js';
import type { Location } from '../src/model/finding.js';
import type { InventoryEntry } from '../src/model/inventory.js';
import type { JsonlRecord } from '../src/model/records.js';
import type { OffloadedFinding } from '../src/model/session.js';
import { JsonlScanner } from '../src/read/jsonl.js';
import { CandidateLines, rawLiterals } from '../src/secrets/raw-literals.js';
import { CORPORA } from './helpers/corpora.js';

const raw = rawLiterals();
const SHARED = process.env.SHARED ?? fileURLToPath(new URL('../../shared', import.meta.url));
const EXTERNAL = join(SHARED, 'external');
/** The external folders by format. */
const EXTERNAL_FORMAT: Record<string, string> = { 'copilot-cli': 'copilot' };

function* jsonlFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) yield* jsonlFiles(p);
    else if (st?.isFile() && name.endsWith('.jsonl')) yield p;
  }
}

const formatNamed = (name: string): FormatModule => FORMATS.find((f) => f.name === name)! as FormatModule;

/** The artifact kind the format gives a file by its name (the bench's and the corpora's logs sit at the top). */
function kindOf(format: FormatModule, file: string): string {
  const entry = { path: basename(file), type: 'file', size: 0 } as unknown as InventoryEntry;
  return format.classify([entry]).get(basename(file))?.kind ?? 'log';
}

const collect = (out: OffloadedFinding[]) =>
  ({
    emit: (code: string, location: Location, message: string, opts?: { key?: string }) =>
      out.push({ code, location, message, ...(opts?.key !== undefined ? { key: opts.key } : {}) }),
  }) as unknown as CheckContext<'SECRET_IN_SESSION'>;

const line = (e: OffloadedFinding): string =>
  `${e.location.line}:${e.location.byteOffset}:${e.location.pointer} ${e.message} ${e.key}`;
/** The findings as the report has them: sorted, so the order of emission within a line does not count. */
const sorted = (list: OffloadedFinding[]): string[] => list.map(line).sort();

/**
 * The records of a log's bytes as a reader reads them in blocks: every line; with `lines`, only the lines the native
 * pass names (`skip`: the others not parsed, the second thread alone; `mark`: every line parsed, the records of the
 * others dropped, the second thread beside the schema check).
 */
function records(
  bytes: Buffer,
  format: FormatModule,
  kind: string,
  lines?: CandidateLines,
  block = 1 << 20,
  how: 'skip' | 'mark' = 'skip',
) {
  const out: JsonlRecord[] = [];
  const shape = format.jsonlShape?.(kind);
  let named = true;
  const select = !lines
    ? undefined
    : how === 'skip'
      ? lines.holds
      : (offset: number, b: Buffer): boolean => {
          named = lines.holds(offset, b);
          return true;
        };
  const scanner = new JsonlScanner(
    (r) => {
      if (named) out.push(r);
    },
    () => {},
    { ...(shape ? { looksLikeRecord: shape } : {}), ...(select ? { select } : {}) },
  );
  for (let at = 0; at < bytes.length; at += block) {
    const chunk = bytes.subarray(at, at + block);
    lines?.block(chunk);
    scanner.push(chunk);
  }
  scanner.end();
  return out;
}

function runScan(mode: JunctionMode, recs: JsonlRecord[], kind: string, offloaded?: OffloadedFinding[]) {
  const out: OffloadedFinding[] = [];
  const run = secretScan(collect(out), mode);
  for (const record of recs)
    run.record?.({ file: 'log.jsonl', kind, record, ...(offloaded ? { secretsOffloaded: true } : {}) });
  run.fileEnd?.({ file: 'log.jsonl', kind, ...(offloaded ? { secretFindings: { list: offloaded, more: 0 } } : {}) });
  return out;
}

/** The findings today's scan makes, then the new scan's in one thread, in two, and in two without the addon. */
function compare(bytes: Buffer, format: FormatModule, kind: string, block?: number) {
  const all = records(bytes, format, kind);
  const reference = sorted(runScan('every', all, kind));
  const streamed = format.streamedText;
  if (!streamed) return { reference, routes: [] as string[][] };
  const mode = { streamed };
  const worker = (lines?: CandidateLines, how?: 'skip' | 'mark') =>
    runScan('none', records(bytes, format, kind, lines, block, how), kind);
  const routes = [sorted(runScan(mode, all, kind)), sorted(runScan(mode, all, kind, worker()))];
  if (raw)
    for (const how of ['skip', 'mark'] as const)
      routes.push(sorted(runScan(mode, all, kind, worker(new CandidateLines(raw), how))));
  return { reference, routes };
}

const tmp = mkdtempSync(join(tmpdir(), 'sa-raw-scan-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('SECRET_IN_SESSION on raw bytes finds what the scan of every string finds', () => {
  test('the native pass is there (CI builds it)', () => {
    expect(raw).toBeDefined();
  });

  test('every corpora log, read in blocks of 4 KiB (lines straddle them)', () => {
    let found = 0;
    let split = 0;
    for (const file of jsonlFiles(CORPORA)) {
      const format = formatNamed(relative(CORPORA, file).split(sep)[0]!);
      if (!format) continue;
      const { reference, routes } = compare(readFileSync(file), format, kindOf(format, file), 4096);
      for (const r of routes) expect(r, file).toEqual(reference);
      found += reference.length;
      split += reference.filter((l) => l.includes('split across')).length;
    }
    expect(found).toBeGreaterThan(20);
    expect(split).toBeGreaterThan(0);
  });

  test('the session the bench generates', () => {
    const dir = writeLargeSession(join(tmp, 'bench'), 4 * 1024 * 1024);
    const file = join(dir, readdirSync(dir).find((n) => n.endsWith('.jsonl'))!);
    const grok = formatNamed('grok');
    const { reference, routes } = compare(readFileSync(file), grok, kindOf(grok, file), 65536);
    expect(routes.length).toBeGreaterThan(0);
    for (const r of routes) expect(r).toEqual(reference);
  });

  test.skipIf(!existsSync(EXTERNAL))('the real files of ../shared/external', () => {
    let files = 0;
    for (const file of jsonlFiles(EXTERNAL)) {
      const top = relative(EXTERNAL, file).split(sep)[0]!;
      const format = formatNamed(EXTERNAL_FORMAT[top] ?? top);
      if (!format) continue;
      files++;
      const { reference, routes } = compare(readFileSync(file), format, kindOf(format, file), 65536);
      for (const r of routes) expect(r, file).toEqual(reference);
    }
    expect(files).toBeGreaterThan(5);
  });
});

/** A Grok message chunk whose text is written as given (`json`: the text already as a JSON string's inside). */
const chunk = (json: string): string =>
  `{"timestamp":1,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":` +
  `"agent_message_chunk","content":{"type":"text","text":"${json}"}}}}`;
const plain = (text: string): string => JSON.stringify(text).slice(1, -1);
/** Every character written as a `\u` escape (what a writer that escapes everything does). */
const escaped = (text: string): string =>
  [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('a secret split across two streamed chunks, at every position', () => {
  const grok = formatNamed('grok');
  const secrets = [
    `xai-${'Q7'.repeat(40)}`,
    `sk-ant-api03-${'A'.repeat(30)}`,
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXRoYXQtaXMtbG9uZw',
    `Authorization: Bearer ${'t0k3n'.repeat(8)}`,
    'postgres://admin:Sup3rS3cretPw@db.internal:5432/app',
  ];
  test.each(secrets.map((s, i) => [i, s]))('secret %i, split at each of its characters', (_i, secret) => {
    let found = 0;
    for (const write of [plain, escaped])
      for (let k = 0; k <= secret.length; k++) {
        const head = `Here it is: ${secret.slice(0, k)}`;
        const tail = `${secret.slice(k)} and more text.`;
        // A tool call between the chunks, and the pieces in a block each.
        const log = [
          chunk(write(head)),
          '{"timestamp":1,"method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan"}}}',
          chunk(write(tail)),
        ].join('\n');
        const bytes = Buffer.from(`${log}\n`);
        const { reference, routes } = compare(bytes, grok, 'updates', 1 + (k % 97));
        if (reference.length) found++;
        for (const r of routes) expect(r, `${secret} at ${k}`).toEqual(reference);
      }
    // Found at most positions (a split inside a header's name or before a URI's password is no secret's value).
    expect(found).toBeGreaterThan(secret.length);
  });
});
