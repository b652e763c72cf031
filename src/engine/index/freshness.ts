/**
 * Whether the index answers for the whole chain: the records it was built from (its `chain` table) against the
 * capture files the store holds now, and the last record's hash against the one it indexed. A search that would
 * say "no hit" from an index behind the records (a run killed while indexing, one indexing now, a store restored
 * without its index) must say so instead.
 */
import { listCaptureFiles, readCaptureFile } from '../../store/open.js';
import type { Db } from './schema.js';

/** "5", "5-9", "5-9, 12": numbers as ranges. */
export function ranges(ns: readonly number[], max = 6): string {
  const sorted = [...ns].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    out.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return out.length > max ? `${out.slice(0, max).join(', ')}, …` : out.join(', ');
}

const seqOf = (name: string): number | undefined => {
  const m = /^\d{6}\/(\d{10})\.json$/.exec(name);
  return m ? Number(m[1]) : undefined;
};

/** Why the index does not answer for the store's records now, or undefined when it does. */
export function staleness(store: string, db: Db): string | undefined {
  const names = listCaptureFiles(store);
  const held = new Map<number, string>();
  for (const n of names) {
    const seq = seqOf(n);
    if (seq !== undefined) held.set(seq, n);
  }
  const indexed = new Map(
    (db.prepare('SELECT seq, sha256 FROM chain').all() as Array<{ seq: number; sha256: string }>).map((r) => [
      r.seq,
      r.sha256,
    ]),
  );
  const missing = [...held.keys()].filter((s) => !indexed.has(s));
  const extra = [...indexed.keys()].filter((s) => !held.has(s));
  const why: string[] = [];
  if (missing.length)
    why.push(
      `capture record(s) ${ranges(missing)} are not indexed (a run was stopped while indexing, or one is ` +
        'indexing now)',
    );
  if (extra.length) why.push(`it holds capture record(s) ${ranges(extra)} that the store does not`);
  if (!why.length && held.size) {
    const last = Math.max(...held.keys());
    let hash: string | undefined;
    try {
      hash = readCaptureFile(store, held.get(last)!).hash;
    } catch {
      hash = undefined;
    }
    if (hash !== indexed.get(last)) why.push(`capture record ${last} is not the one it indexed`);
  }
  return why.length ? why.join('; ') : undefined;
}
