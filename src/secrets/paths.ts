/**
 * JSON Pointers interned as small integers: a trie of the paths seen in one file, so the junction bookkeeping of
 * every string (junction.ts: "the last string at this pointer") is a lookup by number, not a pointer spelled and
 * hashed per string. Object keys are JSON.parse's own strings (short ones are interned by the engine, their hash
 * cached); an array index is its decimal spelling, as in a pointer, so one id stands for one pointer text.
 */

/** A key as one segment of a JSON Pointer (RFC 6901: `~` and `/` escaped). */
export const pointerSegment = (key: string): string =>
  key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;

export class PathTrie {
  static readonly ROOT = 0;
  private children: Array<Map<string, number> | undefined> = [undefined];
  private parent: number[] = [-1];
  private segment: string[] = [''];
  private spelled: Array<string | undefined> = [''];

  /** The paths held (the owner starts again past its bound: `clear`). */
  get size(): number {
    return this.parent.length;
  }

  /** The id of `segment` under `id` (a raw key, an index's digits, or a literal segment). */
  child(id: number, segment: string): number {
    let m = this.children[id];
    if (!m) this.children[id] = m = new Map();
    let c = m.get(segment);
    if (c === undefined) {
      c = this.parent.length;
      this.children.push(undefined);
      this.parent.push(id);
      this.segment.push(segment);
      this.spelled.push(undefined);
      m.set(segment, c);
    }
    return c;
  }

  /** The pointer `id` stands for; a segment in `literal` (a placeholder) is not escaped. No recursion. */
  pointer(id: number, literal?: ReadonlySet<string>): string {
    const chain: number[] = [];
    let n = id;
    while (this.spelled[n] === undefined) {
      chain.push(n);
      n = this.parent[n]!;
    }
    let p = this.spelled[n]!;
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = chain[i]!;
      const seg = this.segment[c]!;
      p = `${p}/${literal?.has(seg) ? seg : pointerSegment(seg)}`;
      this.spelled[c] = p;
    }
    return p;
  }

  clear(): void {
    this.children = [undefined];
    this.parent = [-1];
    this.segment = [''];
    this.spelled = [''];
  }
}
