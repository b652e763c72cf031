/**
 * Reading a bag directory: every regular file under it hashed where it lies; links and special files are reported,
 * never followed.
 */
import { join } from 'node:path';
import { streamFile } from '../read/files.js';
import { walkTree } from '../read/walk.js';
import type { BagContents } from './bag-contents.js';
import { hasherFor } from './member-hasher.js';

export function readBagDir(dir: string): BagContents {
  const c: BagContents = { kind: 'dir', members: new Map(), rejected: [], damaged: [] };
  for (const e of walkTree(dir, 64)) {
    if (e.type === 'dir') continue;
    if (e.type !== 'file') {
      c.rejected.push({
        name: e.path,
        why: `a ${e.type}${e.linkTarget !== undefined ? ` to ${JSON.stringify(e.linkTarget)}` : ''}: never followed`,
      });
      continue;
    }
    const h = hasherFor(e.path);
    try {
      streamFile(join(dir, e.path), (b) => h.update(b));
    } catch (err) {
      c.damaged.push({ name: e.path, why: `cannot be read (${(err as Error).message})` });
      continue;
    }
    c.members.set(e.path, h.done());
  }
  return c;
}
