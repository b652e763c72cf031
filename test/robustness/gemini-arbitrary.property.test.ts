/**
 * A Gemini CLI session file holding arbitrary damage is a finding, never a crash: the clean corpus's .jsonl session
 * and its legacy .json mutated (flips, deletions, insertions, truncation, lines glued together), or the .jsonl with
 * one value anywhere inside a record replaced by an arbitrary JSON value, go through audit and every one-session
 * command (the fold meets records of any shape); each ends with exit 0 or 1 and no tool error. Fixed seed.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CORPORA } from '../helpers/corpora.js';

const SEED = Number(process.env.SA_FUZZ_SEED ?? 20261201);
const RUNS = Number(process.env.SA_FUZZ_RUNS ?? 25);
const NAME = 'session-2026-12-01T09-00-3f2a9c1e.jsonl';
const CLEAN = readFileSync(join(CORPORA, 'gemini/clean/tmp/app/chats', NAME));
const LEGACY_NAME = 'session-2026-11-30T09-00-3f2a9c1e.json';
const LEGACY = readFileSync(
  join(CORPORA, 'gemini/clean/tmp/31dceeea3992ade6d10b16cff32eccd523ca92ae5b1efc0f8f8c4bcae5391d9f/chats', LEGACY_NAME),
);
const LINES = CLEAN.toString('utf8').split('\n').filter(Boolean);

const scratch = mkdtempSync(join(tmpdir(), 'sa-gemini-bytes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Op = { at: number; kind: 'flip' | 'delete' | 'insert' | 'truncate' | 'glue'; byte: number; len: number };
const op: fc.Arbitrary<Op> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('flip' as const, 'delete' as const, 'insert' as const, 'truncate' as const, 'glue' as const),
  byte: fc.oneof(fc.constantFrom(0x00, 0x0a, 0x22, 0x5c, 0x7b, 0x7d, 0xc3, 0xff), fc.nat({ max: 255 })),
  len: fc.integer({ min: 1, max: 64 }),
});

function mutate(bytes: Buffer, ops: readonly Op[]): Buffer {
  let b = Buffer.from(bytes);
  for (const o of ops) {
    if (b.length === 0) break;
    const at = o.at % b.length;
    if (o.kind === 'flip') b[at] = o.byte;
    else if (o.kind === 'delete') b = Buffer.concat([b.subarray(0, at), b.subarray(at + o.len)]);
    else if (o.kind === 'insert') b = Buffer.concat([b.subarray(0, at), Buffer.alloc(o.len, o.byte), b.subarray(at)]);
    else if (o.kind === 'glue') {
      const nl = b.indexOf(0x0a, at);
      if (nl >= 0) b = Buffer.concat([b.subarray(0, nl), b.subarray(nl + 1)]);
    } else b = b.subarray(0, at);
  }
  return b;
}

function replaceDeep(v: unknown, steps: readonly number[], replacement: unknown): unknown {
  if (steps.length === 0 || v === null || typeof v !== 'object') return replacement;
  const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
  if (entries.length === 0) return replacement;
  const [key, child] = entries[steps[0]! % entries.length]!;
  if (Array.isArray(v)) {
    const copy: unknown[] = [...(v as unknown[])];
    copy[key as number] = replaceDeep(child, steps.slice(1), replacement);
    return copy;
  }
  return { ...(v as Record<string, unknown>), [key]: replaceDeep(child, steps.slice(1), replacement) };
}

const file: fc.Arbitrary<{ name: string; bytes: Buffer }> = fc.oneof(
  fc.array(op, { minLength: 1, maxLength: 6 }).map((ops) => ({ name: NAME, bytes: mutate(CLEAN, ops) })),
  fc.array(op, { minLength: 1, maxLength: 6 }).map((ops) => ({ name: LEGACY_NAME, bytes: mutate(LEGACY, ops) })),
  fc
    .array(
      fc.record({ line: fc.nat(), steps: fc.array(fc.nat(), { maxLength: 6 }), value: fc.jsonValue({ maxDepth: 3 }) }),
      {
        minLength: 1,
        maxLength: 4,
      },
    )
    .map((edits) => {
      const docs = LINES.map((l) => JSON.parse(l) as unknown);
      for (const e of edits) docs[e.line % docs.length] = replaceDeep(docs[e.line % docs.length], e.steps, e.value);
      return { name: NAME, bytes: Buffer.from(`${docs.map((d) => JSON.stringify(d)).join('\n')}\n`) };
    }),
);

let n = 0;
test('damaged Gemini CLI files give findings, never a crash, in audit and every one-session command', async () => {
  await fc.assert(
    fc.asyncProperty(file, async ({ name, bytes }) => {
      const dir = join(scratch, `c${n++}`);
      mkdirSync(dir, { recursive: true });
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const r = await cli(['audit', dir, '--format', 'json', '--format-hint', 'gemini']);
      expect([0, 1], r.stderr).toContain(r.code);
      const rep = JSON.parse(r.stdout) as AuditReport;
      expect(rep.toolErrors).toEqual([]);
      for (const cmd of ['timeline', 'pairs', 'inspect']) {
        const c = await cli([cmd, path, '--format-hint', 'gemini']);
        expect(cmd === 'inspect' ? [0, 1, 4] : [0, 1], `${cmd}: ${c.stderr}`).toContain(c.code);
      }
      // Without a hint: a file damaged past recognition is a one-line "no session found" (exit 2), never a trace.
      for (const cmd of ['transcript', 'activity']) {
        const c = await cli([cmd, path]);
        expect([0, 1, 2], `${cmd}: ${c.stderr}`).toContain(c.code);
        expect(c.stderr.trim().split('\n').length, `${cmd}: ${c.stderr}`).toBeLessThanOrEqual(1);
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );
}, 120_000);
