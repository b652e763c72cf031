/**
 * The entry tree of a Pi session file as Pi itself rebuilds it (formats/pi-hermes.md §1.5, `_buildIndex`,
 * `buildSessionContext`): only the lines its loader parses count (a record recovered from a damaged line is lost to
 * Pi), `id` → entry keeps the last entry of an id, the leaf a resume continues from is the last entry in file order,
 * and the model's context is the walk from that leaf up its parentId links. v1 files have no tree: every entry is on
 * the one path, in line order, and a compaction names its first kept entry by index (the header is index 0).
 */
import { createHash } from 'node:crypto';
import type { JsonlRecord } from '../../model/records.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export interface PiEntry {
  line: number;
  byteOffset: number;
  seq: number;
  type: string;
  role?: string;
  id?: string;
  /** null: a root; undefined: not written. */
  parentId?: string | null;
  firstKeptEntryId?: string;
  firstKeptEntryIndex?: unknown;
  fromId?: string;
  /** A digest of the entry's value, to tell identical repeats from different entries sharing an id. */
  digest: string;
}

export interface TreeFacts {
  version: number | undefined;
  /** Every entry Pi reads, header first (index = Pi's entry index). */
  entries: PiEntry[];
  /** The entry a resume continues from (the last in file order), and the path from it to its root. */
  leaf?: PiEntry;
  path: PiEntry[];
  /** seq of every entry Pi reads that is not on the leaf's path (v2+). */
  offPath: number[];
  roots: PiEntry[];
  /** The header names the session this file was forked from (parentSession, v1 branchedFrom). */
  forked: boolean;
  /** ids carried only by records recovered from damaged lines (Pi cannot read them), with their line. */
  lostIds: Map<string, number>;
}

/** Pi's version of a header value: absent (or null) is 1; anything but a number is NaN (no version known). */
export const versionOf = (header: unknown): number | undefined => {
  if (!isObj(header) || header.type !== 'session') return undefined;
  const v = header.version;
  return v === undefined || v === null ? 1 : typeof v === 'number' ? v : Number.NaN;
};

export class PiTree {
  private readonly entries: PiEntry[] = [];
  private readonly lostIds = new Map<string, number>();
  private version: number | undefined;
  private forked = false;

  add(r: JsonlRecord, seq: number): void {
    const v = r.value;
    if (!isObj(v)) return;
    if (r.recovered !== undefined) {
      const id = str(v.id);
      if (id !== undefined && !this.lostIds.has(id)) this.lostIds.set(id, r.line);
      return;
    }
    if (this.entries.length === 0 && r.line === 1) {
      this.version = versionOf(v);
      this.forked = typeof v.parentSession === 'string' || typeof v.branchedFrom === 'string';
    }
    const e: PiEntry = { line: r.line, byteOffset: r.byteOffset, seq, type: str(v.type) ?? '', digest: '' };
    if (isObj(v.message) && typeof v.message.role === 'string') e.role = v.message.role;
    if (typeof v.id === 'string') e.id = v.id;
    if (v.parentId === null || typeof v.parentId === 'string') e.parentId = v.parentId;
    if (typeof v.firstKeptEntryId === 'string') e.firstKeptEntryId = v.firstKeptEntryId;
    if ('firstKeptEntryIndex' in v) e.firstKeptEntryIndex = v.firstKeptEntryIndex;
    if (typeof v.fromId === 'string') e.fromId = v.fromId;
    if (e.id !== undefined) e.digest = createHash('sha1').update(JSON.stringify(v)).digest('base64');
    this.entries.push(e);
  }

  /**
   * The seq of the entry the compaction just added keeps from (v2+ by `firstKeptEntryId`, v1 by
   * `firstKeptEntryIndex`, the header being 0), when it names an entry before itself; undefined when it names none
   * (Pi then keeps nothing before the summary) or the compaction is not one Pi reads.
   */
  keptFrom(seq: number): number | undefined {
    const self = this.entries.at(-1);
    if (self?.seq !== seq || self.type !== 'compaction') return undefined;
    const n = this.entries.length - 1;
    if (this.version !== undefined && this.version >= 2) {
      const id = self.firstKeptEntryId;
      for (let i = n - 1; id !== undefined && i >= 0; i--) if (this.entries[i]!.id === id) return this.entries[i]!.seq;
      return undefined;
    }
    const idx = self.firstKeptEntryIndex;
    return typeof idx === 'number' && Number.isInteger(idx) && idx >= 0 && idx < n ? this.entries[idx]!.seq : undefined;
  }

  finish(): TreeFacts {
    const facts: TreeFacts = {
      version: this.version,
      entries: this.entries,
      path: [],
      offPath: [],
      roots: [],
      forked: this.forked,
      lostIds: this.lostIds,
    };
    const body = this.entries.filter((e, i) => !(i === 0 && e.type === 'session'));
    if (this.version === undefined || this.version < 2) {
      facts.path = body;
      const last = body.at(-1);
      if (last) facts.leaf = last;
      return facts;
    }
    const byId = new Map<string, PiEntry>();
    for (const e of body) if (e.id !== undefined) byId.set(e.id, e);
    // One root per id: a repeated entry (a prefix written twice) is the same root, and Pi keeps the last.
    facts.roots = [
      ...new Map(
        body.filter((e) => e.type !== 'session' && e.id !== undefined && e.parentId === null).map((e) => [e.id, e]),
      ).values(),
    ].sort((a, b) => a.line - b.line);
    const leaf = [...body].reverse().find((e) => e.id !== undefined);
    if (!leaf) return facts;
    facts.leaf = leaf;
    const seen = new Set<PiEntry>();
    for (let cur: PiEntry | undefined = leaf; cur && !seen.has(cur); ) {
      seen.add(cur);
      facts.path.push(cur);
      const p: string | null | undefined = cur.parentId;
      cur = typeof p === 'string' && p !== cur.id ? byId.get(p) : undefined;
    }
    facts.path.reverse();
    facts.offPath = body.filter((e) => !seen.has(e)).map((e) => e.seq);
    return facts;
  }
}
