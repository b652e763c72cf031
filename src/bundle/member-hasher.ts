/**
 * Hashing one member of a bag as it streams by, with every BagIt algorithm at once; tag files (outside data/) are
 * kept in memory, and so are the members `readMembers` asks for whole (to compare with live files), both bounded.
 */
import { createHash } from 'node:crypto';
import { HASHES, type BagMember, type HashName } from './bag-contents.js';

const TAG_LIMIT = 16 * 1024 * 1024;
/** A member kept whole to show how it differs from a live file: no more than a live file is read for it. */
const WHOLE_LIMIT = 256 * 1024 * 1024;

export class MemberHasher {
  private readonly h = HASHES.map((a) => createHash(a));
  private keep: Buffer[] | undefined;
  private readonly limit: number;
  size = 0;
  /** `keepAll`: keep the content up to WHOLE_LIMIT (to compare one member with a live file). */
  constructor(
    readonly name: string,
    keepAll = false,
  ) {
    this.keep = keepAll || !name.startsWith('data/') ? [] : undefined;
    this.limit = keepAll ? WHOLE_LIMIT : TAG_LIMIT;
  }
  update(b: Buffer): void {
    for (const h of this.h) h.update(b);
    this.size += b.length;
    if (!this.keep) return;
    // Past the limit nothing more is kept, and what was kept is let go (memory stays bounded per member).
    if (this.size <= this.limit) this.keep.push(Buffer.from(b));
    else this.keep = undefined;
  }
  done(): BagMember {
    const digests = Object.fromEntries(HASHES.map((a, i) => [a, this.h[i]!.digest('hex')])) as Record<HashName, string>;
    const m: BagMember = { name: this.name, size: this.size, digests };
    if (this.keep) m.bytes = Buffer.concat(this.keep);
    return m;
  }
}

/** Members whose whole content readers keep (set by readMembers through `keepingWhole`). */
let keepWhole: ReadonlySet<string> = new Set();
export const hasherFor = (name: string): MemberHasher => new MemberHasher(name, keepWhole.has(name));

/** Runs `read` with the content of `names` kept whole by every hasher it makes; afterwards none is. */
export async function keepingWhole<T>(names: readonly string[], read: () => Promise<T>): Promise<T> {
  keepWhole = new Set(names);
  try {
    return await read();
  } finally {
    keepWhole = new Set();
  }
}
