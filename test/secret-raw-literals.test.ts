/**
 * The native pass over raw bytes (src/secrets/raw-literals.ts) never passes over a line in which a string or a key
 * may hold a secret (`mayHoldSecret`): checked on every line of every corpora log, on escaped literals, and on
 * random strings with a literal planted and written with random JSON escapes.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { LITERALS, mayHoldSecret } from '../src/secrets/literals.js';
import { rawLiterals } from '../src/secrets/raw-literals.js';

const raw = rawLiterals();

function* jsonlFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) yield* jsonlFiles(p);
    else if (st?.isFile() && name.endsWith('.jsonl')) yield p;
  }
}

/** Whether any string or key of a JSON value may hold a secret. */
function holds(v: unknown): boolean {
  if (typeof v === 'string') return mayHoldSecret(v);
  if (Array.isArray(v)) return v.some(holds);
  if (v !== null && typeof v === 'object')
    return Object.entries(v as Record<string, unknown>).some(([k, c]) => mayHoldSecret(k) || holds(c));
  return false;
}

/** The lines (0-based) the native pass names in a block. */
function named(block: Buffer): Set<number> {
  const starts: number[] = [];
  raw!.candidates(block, (start) => starts.push(start));
  const lines = new Set<number>();
  let n = 0;
  let at = 0;
  for (const s of starts) {
    while (at < s) {
      const nl = block.indexOf(10, at);
      if (nl === -1 || nl >= s) break;
      at = nl + 1;
      n++;
    }
    lines.add(n);
  }
  return lines;
}

describe.skipIf(!raw)('the native pass over raw bytes', () => {
  test('names every corpora line in which a string may hold a secret', () => {
    let checked = 0;
    for (const file of jsonlFiles(join(import.meta.dirname, '..', 'corpora'))) {
      const block = readFileSync(file);
      const lines = block.toString('utf8').split('\n');
      const got = named(block);
      lines.forEach((text, i) => {
        let v: unknown;
        try {
          v = JSON.parse(text);
        } catch {
          return;
        }
        checked++;
        if (holds(v)) expect(got.has(i), `${file}:${i + 1}`).toBe(true);
      });
    }
    expect(checked).toBeGreaterThan(100);
  });

  test('a literal written with JSON escapes is still a candidate; a line without one is not', () => {
    for (const line of ['{"a":"\\u0073k-abc"}', '{"a":"http:\\/\\/x"}', '{"a":"Pass: x"}', '{"COOKIE:":1}'])
      expect(raw!.lineHolds(Buffer.from(line)), line).toBe(true);
    expect(raw!.lineHolds(Buffer.from('{"a":"plain text \\u001b[0m ok"}'))).toBe(false);
    expect([...named(Buffer.from('{"a":1}\n{"b":"sk-x"}\n{"c":2}\n{"d":"PWD="}'))]).toEqual([1, 3]);
  });

  test('random strings with a planted literal, randomly escaped, are candidates', () => {
    const literal = fc.constantFrom(...LITERALS.cased, ...LITERALS.anyCase.map((l) => l.toUpperCase()));
    fc.assert(
      fc.property(fc.string(), literal, fc.string(), fc.array(fc.boolean()), (a, l, b, esc) => {
        const text = `${a}${l}${b}`;
        fc.pre(mayHoldSecret(text) || mayHoldSecret(`${text}:`));
        let json = '';
        [...JSON.stringify({ t: `${text}:` })].forEach((c, i) => {
          json +=
            esc[i % Math.max(esc.length, 1)] && /[A-Za-z0-9_:-]/.test(c)
              ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
              : c;
        });
        expect(raw!.lineHolds(Buffer.from(`a\n${json}`))).toBe(true);
      }),
      { seed: 35, numRuns: 1000 },
    );
  });
});

test('without the addon the scan keeps its JavaScript route', async () => {
  process.env.SESSION_AUDIT_NO_RE2 = '1';
  try {
    vi.resetModules();
    const fresh = await import('../src/secrets/raw-literals.js');
    expect(fresh.rawLiterals()).toBeUndefined();
  } finally {
    delete process.env.SESSION_AUDIT_NO_RE2;
  }
});
