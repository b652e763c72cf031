/**
 * `bundle --redact` and secrets split across streamed chunks: each half alone matches no detector, so a line by
 * line redaction keeps both. A first read of a log finds them (the junction routine the SECRET_IN_SESSION check
 * uses, with the redactor's detectors) and names, per line, the parts to redact there: the end of the earlier
 * chunk, the start of the later one.
 */
import { isUtf8 } from 'node:buffer';
import type { SessionSource } from '../model/source.js';
import { tooDeep } from '../read/json-depth.js';
import { findSecrets, type Detector } from '../secrets/detectors.js';
import { Junctions } from '../secrets/junction.js';
import type { Redactor } from './redact.js';

/** Per line (1-based), the parts of split secrets it holds, with their kind. */
export type SplitParts = Map<number, Array<{ kind: string; part: string }>>;

/** Lines longer than this are not looked at (the reader's own bound on a record). */
const MAX_LINE = 64 * 1024 * 1024;

/** The split secrets of one JSONL file, by line; empty when there is none (or the file cannot be read). */
export function findSplitParts(source: SessionSource, rel: string, r: Redactor): SplitParts {
  const parts: SplitParts = new Map();
  const junctions = new Junctions(r.patterns);
  const add = (line: number, kind: string, part: string): void => {
    if (!part.length) return;
    const list = parts.get(line);
    if (list) list.push({ kind, part });
    else parts.set(line, [{ kind, part }]);
  };
  let pending: Buffer[] = [];
  let line = 0;
  const onLine = (b: Buffer): void => {
    line++;
    // A line nested too deep is not parsed (the reader reports it); its strings are still redacted one by one.
    if (b.length > MAX_LINE || !isUtf8(b) || tooDeep(b)) return;
    let value: unknown;
    try {
      value = JSON.parse(b.toString('utf8'));
    } catch {
      return;
    }
    forEachString(value, (text, pointer) => {
      const found = text.length ? findSecrets(text, r.patterns) : [];
      const atEnd = found.length > 0 && found[found.length - 1]!.end === text.length;
      for (const hit of junctions.follow(pointer, text, line, atEnd)) {
        add(hit.tailLine, hit.match.kind, hit.tailPart);
        add(line, hit.match.kind, hit.headPart);
      }
    });
  };
  source.streamRaw(rel, (chunk) => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      onLine(Buffer.concat([...pending, chunk.subarray(start, nl)]));
      pending = [];
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(Buffer.from(chunk.subarray(start)));
  });
  if (pending.length) onLine(Buffer.concat(pending));
  return parts;
}

/** The redactor for one line: the detectors, then each split part of the line as a literal. */
export function withParts(r: Redactor, list: ReadonlyArray<{ kind: string; part: string }>): Redactor {
  const literals: Detector[] = list.map(({ kind, part }) => ({
    kind,
    find(text, hit) {
      for (let i = text.indexOf(part); i !== -1; i = text.indexOf(part, i + part.length)) hit(i, i, i + part.length);
    },
  }));
  return { patterns: [...r.patterns, ...literals], counts: r.counts };
}

/** Every string value of a JSON value with its JSON Pointer (object keys are not streamed: not looked at). */
function forEachString(root: unknown, visit: (text: string, pointer: string) => void): void {
  const values: unknown[] = [root];
  const pointers: string[] = [''];
  while (values.length) {
    const v = values.pop();
    const pointer = pointers.pop()!;
    if (typeof v === 'string') visit(v, pointer);
    else if (Array.isArray(v))
      for (let i = v.length - 1; i >= 0; i--) {
        values.push(v[i]);
        pointers.push(`${pointer}/${i}`);
      }
    else if (v !== null && typeof v === 'object')
      for (const [k, c] of Object.entries(v as Record<string, unknown>)) {
        values.push(c);
        pointers.push(`${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      }
  }
}
