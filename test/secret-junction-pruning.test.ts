/**
 * SECRET_IN_SESSION remembers only the strings in which a secret can start (secrets/junction.ts: pruning) and
 * names paths by number (secrets/paths.ts). Both are for speed only: on generated streams of chunks, with keys
 * split at every place (inside the literal that starts them too), chunks that end in the start of a literal, and
 * noise in between, the check finds exactly what the plain algorithm finds (every string remembered under its
 * pointer's text).
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { CheckContext } from '../src/checks/define.js';
import { secrets } from '../src/checks/secrets.js';
import { BUILTIN_DETECTORS, findSecrets } from '../src/secrets/detectors.js';
import { mayHoldSecret } from '../src/secrets/literals.js';
import { Junctions } from '../src/secrets/junction.js';
import { PLANTED } from '../scripts/corpora/secrets.js';

const SECRETS = [
  ...Object.values(PLANTED),
  `sk-ant-api03-${'Ab9_'.repeat(8)}`,
  `ghp_${'Zz09'.repeat(9)}`,
  'AKIAABCDEFGHIJKLMNOP',
  `AUTHORIZATION: Token ${'x7'.repeat(12)}`,
  `cOOkie: sid=${'f'.repeat(24)}`,
  `GITHUB_TOKEN: "${'t'.repeat(30)}"`,
];
/** Chunk ends that start a literal (a junction must be looked at) and ones that cannot (it need not). */
const NOISE = ['the code', 'see x', 'result: s', 'A', 'the _K', 'Authoriz', 'done.', 'ok ', '-----BEG', 'ey', '42'];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Records of a stream: messages cut into chunks at random places, at a few pointers, with noise between. */
function stream(seed: number): unknown[] {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const out: unknown[] = [];
  for (let m = 0; m < 30; m++) {
    const text = `${pick(NOISE)} ${r() < 0.7 ? pick(SECRETS) : ''}${pick(NOISE)}`;
    const where = pick(['text', 'delta', 'args']);
    // One or two cuts anywhere (a junction joins two chunks: a key in three pieces is beyond it, as it is here).
    const cuts = [Math.floor(r() * text.length), ...(r() < 0.3 ? [Math.floor(r() * text.length)] : [])];
    const bounds = [0, ...cuts.sort((a, b) => a - b), text.length];
    for (let c = 0; c + 1 < bounds.length; c++) {
      const chunk = text.slice(bounds[c], bounds[c + 1]);
      const rec =
        where === 'args'
          ? { params: { update: { rawInput: { command: chunk }, title: pick(NOISE) } } }
          : { params: { update: { content: { [where]: chunk, type: pick(NOISE) } } }, list: [pick(NOISE), chunk] };
      out.push(rec);
      if (r() < 0.2) out.push({ params: { update: { content: { text: pick(NOISE) } } } });
    }
  }
  return out;
}

const segment = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');
const hash = (v: string): string => createHash('sha256').update(v).digest('hex').slice(0, 12);

/** The plain algorithm: every string, its pointer's text, every string remembered (no pruning). */
function reference(records: unknown[]): string[] {
  const out: string[] = [];
  const junctions = new Junctions([...BUILTIN_DETECTORS]);
  const visit = (v: unknown, pointer: string, line: number): void => {
    if (typeof v === 'string') {
      const found = v.length >= 8 && mayHoldSecret(v) ? findSecrets(v) : [];
      for (const m of found) {
        const value = v.slice(m.valueStart, m.end);
        out.push(`${line} ${pointer} ${m.kind} ${hash(value)} ${value.length}`);
      }
      const atEnd = found.length > 0 && found[found.length - 1]!.end === v.length;
      for (const h of junctions.follow(pointer, v, line, atEnd)) {
        const value = h.joined.slice(h.match.valueStart, h.match.end);
        out.push(`${line} ${pointer} ${h.match.kind} ${hash(value)} ${value.length} split ${h.tailLine}`);
      }
    } else if (Array.isArray(v)) for (const [i, c] of v.entries()) visit(c, `${pointer}/${i}`, line);
    else if (v && typeof v === 'object')
      for (const [k, c] of Object.entries(v)) visit(c, `${pointer}/${segment(k)}`, line);
  };
  for (const [i, rec] of records.entries()) visit(rec, '', i + 1);
  return out.sort();
}

function check(records: unknown[]): string[] {
  const out: string[] = [];
  const ctx = {
    emit: (_code: string, loc: { line: number; pointer: string }, message: string) => {
      const [, kind] = /^(\S+)/.exec(message)!;
      const [, h, n] = /sha256 ([0-9a-f]{12})…, (\d+) characters/.exec(message)!;
      const split = /split across line (\d+)/.exec(message);
      out.push(`${loc.line} ${loc.pointer} ${kind} ${h} ${n}${split ? ` split ${split[1]}` : ''}`);
    },
  } as unknown as CheckContext<'SECRET_IN_SESSION'>;
  const run = secrets.create(ctx);
  for (const [i, value] of records.entries())
    run.record?.({ file: 'log.jsonl', kind: 'log', record: { line: i + 1, byteOffset: 0, byteLength: 0, value } });
  return out.sort();
}

describe('SECRET_IN_SESSION: pruned junctions find what the plain algorithm finds', () => {
  test.each(Array.from({ length: 40 }, (_, i) => i + 1))('stream %i', (seed) => {
    const records = stream(seed);
    const want = reference(records);
    expect(check(records)).toEqual(want);
  });

  test('the streams do hold split secrets, some split inside the literal that starts them', () => {
    const all = Array.from({ length: 40 }, (_, i) => reference(stream(i + 1))).flat();
    expect(all.filter((l) => l.includes(' split ')).length).toBeGreaterThan(40);
  });
});
