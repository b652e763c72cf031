/** How `verify --store` rebuilds each file version a record names: its pieces hashed in order, digest and size. */
import { createHash, type Hash } from 'node:crypto';
import { streamFile } from '../read/files.js';
import { objectPath } from './layout.js';

/**
 * The digest of a version from its pieces, sharing work between versions with a common start (a log's captures
 * extend each other): the hash state after each prefix of pieces is kept and copied.
 */
export class VersionHasher {
  private readonly states = new Map<string, { hash: Hash; size: number }>();
  constructor(private readonly store: string) {}

  of(pieces: readonly string[]): { sha256: string; size: number } {
    let k = pieces.length;
    let start: { hash: Hash; size: number } | undefined;
    const keys: string[] = [];
    let key = '';
    for (const p of pieces) keys.push((key = createHash('sha256').update(`${key}${p}`).digest('hex')));
    for (; k > 0; k--) {
      start = this.states.get(keys[k - 1]!);
      if (start) break;
    }
    let hash = start ? start.hash.copy() : createHash('sha256');
    let size = start?.size ?? 0;
    for (let i = k; i < pieces.length; i++) {
      size += streamFile(objectPath(this.store, pieces[i]!), (chunk) => hash.update(chunk), { pinned: true }).size;
      this.states.set(keys[i]!, { hash: hash.copy(), size });
      hash = hash.copy();
    }
    return { sha256: hash.digest('hex'), size };
  }
}
