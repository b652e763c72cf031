/**
 * Bad input is a finding, never a crash (issue 9 §1, DESIGN principle 2): `audit` over a session whose files
 * hold arbitrary bytes never throws, never records a tool error, and ends with exit 0 or 1 and a JSON report.
 * Each session also goes through one of validate, timeline (jsonl, table), pairs, inspect and lineage, in
 * rotation (exit 0 or 1 as well).
 *
 * Pure random bytes stop at the JSON parser, so most files are built to get further: the clean session's own
 * bytes mutated (flips, deletions, insertions, truncation), its records with one value anywhere inside them
 * replaced by an arbitrary JSON value (wrong types, huge numbers, deep nesting, strange keys), or arbitrary
 * JSON. Fixed seed, printed by fast-check on failure with the shrunk counterexample.
 */
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { AuditReport } from '../../src/model/report.js';
import { cli } from '../helpers/cli.js';
import { CHECKPOINT, CLEAN_GROUP, GROUP, MAIN_ID } from '../helpers/crash-states.js';

// Fixed for CI; SA_FUZZ_SEED / SA_FUZZ_RUNS let a developer hunt further (the failing seed is printed).
const SEED = Number(process.env.SA_FUZZ_SEED ?? 20260909);
const RUNS = Number(process.env.SA_FUZZ_RUNS ?? 200);
const COMMANDS = (root: string, dir: string): string[][] => [
  ['validate', root, '--format', 'json'],
  ['timeline', dir, '--format', 'jsonl'],
  ['timeline', dir],
  ['pairs', dir],
  ['inspect', dir],
  ['lineage', root],
];

const scratch = mkdtempSync(join(tmpdir(), 'sa-bytes-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FILES = [
  'summary.json',
  'updates.jsonl',
  'chat_history.jsonl',
  'rewind_points.jsonl',
  'plan.json',
  CHECKPOINT,
  `subagents/${'019a3f2e-0f10-7c42-8000-00000000a003'}/meta.json`,
  'feedback.jsonl',
  'btw_history.jsonl',
  'system_prompt.txt',
  'chat_history.jsonl.corrupt',
  `summary.json.019a3f40-aaaa-7bbb-8ccc-0123456789ab.tmp`,
] as const;
const clean = (f: string): Buffer => {
  try {
    return readFileSync(join(CLEAN_GROUP, MAIN_ID, f));
  } catch {
    return Buffer.alloc(0);
  }
};

type Op = { at: number; kind: 'flip' | 'delete' | 'insert' | 'truncate'; byte: number; len: number };
const op: fc.Arbitrary<Op> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('flip' as const, 'delete' as const, 'insert' as const, 'truncate' as const),
  byte: fc.oneof(
    fc.constantFrom(0x00, 0x0a, 0x0d, 0x22, 0x5c, 0x7b, 0x7d, 0xc3, 0xe2, 0xf0, 0xff, 0xef),
    fc.nat({ max: 255 }),
  ),
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
    else b = b.subarray(0, at);
  }
  return b;
}

/** Replace the value at a pseudo-random path inside a JSON value (walking `steps` as child indices). */
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

const tryJson = (s: string): unknown => {
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return undefined;
  }
};

const jsonish = fc.jsonValue({ maxDepth: 4 });

/** How one file's content is made, given its clean content. */
const content = (file: string): fc.Arbitrary<Buffer | null> => {
  const base = clean(file);
  const lines = base.toString('utf8').split('\n').filter(Boolean);
  return fc.oneof(
    { arbitrary: fc.constant(null), weight: 1 }, // absent
    { arbitrary: fc.constant(base), weight: 2 }, // untouched
    { arbitrary: fc.uint8Array({ maxLength: 600 }).map((a) => Buffer.from(a)), weight: 2 },
    { arbitrary: fc.array(op, { minLength: 1, maxLength: 6 }).map((ops) => mutate(base, ops)), weight: 4 },
    {
      // Records of the right file with one value replaced anywhere inside them.
      arbitrary: fc
        .array(fc.record({ line: fc.nat(), steps: fc.array(fc.nat(), { maxLength: 6 }), value: jsonish }), {
          minLength: 1,
          maxLength: 4,
        })
        .map((edits) => {
          const jsonl = file.endsWith('.jsonl') || file.endsWith('.corrupt');
          const docs: unknown[] = (jsonl ? lines : [base.toString('utf8')]).map(tryJson).filter((d) => d !== undefined);
          if (docs.length === 0) return base;
          for (const e of edits) {
            const i = e.line % docs.length;
            docs[i] = replaceDeep(docs[i], e.steps, e.value);
          }
          return Buffer.from(jsonl ? `${docs.map((d) => JSON.stringify(d)).join('\n')}\n` : JSON.stringify(docs[0]));
        }),
      weight: 4,
    },
    {
      arbitrary: fc
        .array(jsonish, { maxLength: 5 })
        .map((vs) => Buffer.from(vs.map((v) => JSON.stringify(v)).join('\n'))),
      weight: 2,
    },
  );
};

const sessionArb = fc.tuple(...FILES.map((f) => content(f)));

let n = 0;
test('audit (and every read command) over arbitrary bytes: findings and exit 0 or 1, never a crash', async () => {
  await fc.assert(
    fc.asyncProperty(sessionArb, async (contents) => {
      const root = join(scratch, String(n++));
      const dir = join(root, 'sessions', GROUP, MAIN_ID);
      mkdirSync(dir, { recursive: true });
      FILES.forEach((f, i) => {
        const c = contents[i];
        if (c === null || c === undefined) return;
        mkdirSync(join(dir, f, '..'), { recursive: true });
        writeFileSync(join(dir, f), c);
      });
      // A session needs one of its marker files to be found at all.
      if (
        !FILES.some(
          (f, i) =>
            contents[i] !== null &&
            [
              'summary.json',
              'updates.jsonl',
              'chat_history.jsonl',
              'rewind_points.jsonl',
              'chat_history.jsonl.corrupt',
            ].includes(f),
        )
      )
        writeFileSync(join(dir, 'updates.jsonl'), '');
      try {
        const r = await cli(['audit', root, '--format', 'json']);
        expect(r.stderr).toBe('');
        expect([0, 1]).toContain(r.code);
        const report = JSON.parse(r.stdout) as AuditReport;
        expect(report.toolErrors).toEqual([]);
        expect(report.summary.sessions).toBe(1);
        // One more command per run, in rotation, to keep the run short.
        const all = COMMANDS(root, dir);
        for (const args of [all[n % all.length]!]) {
          const x = await cli(args);
          expect(x.stderr, args[0]).toBe('');
          // inspect exits 4 when a resume is not safe.
          expect(args[0] === 'inspect' ? [0, 1, 4] : [0, 1], `${args[0]} exit ${x.code}`).toContain(x.code);
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
});
