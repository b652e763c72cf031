/**
 * Reading a bag directory: every regular file under it hashed where it lies; links and special files are reported,
 * never followed.
 */
import { join } from 'node:path';
import { streamFile } from '../read/files.js';
import { escapeText, fsPath, hasRawBytes, plainText } from '../read/names.js';
import { walkTree } from '../read/walk.js';
import type { BagContents } from './bag-contents.js';
import { hasherFor } from './member-hasher.js';

export function readBagDir(dir: string): BagContents {
  const c: BagContents = { kind: 'dir', members: new Map(), rejected: [], damaged: [] };
  // The walk gives escaped names (read/names.ts): a member whose name is not UTF-8 is one no manifest line names.
  const root = escapeText(dir);
  for (const e of walkTree(root, 64)) {
    if (e.type === 'dir') continue;
    // A manifest names members as text: a backslash as itself (a name that is not UTF-8 keeps its escapes).
    const name = plainText(e.path);
    if (hasRawBytes(e.path)) {
      const why = 'its name is not valid UTF-8 (shown with \\xHH escapes): no manifest line names it';
      c.rejected.push({ name, why });
      continue;
    }
    if (e.type !== 'file') {
      c.rejected.push({
        name,
        why: `a ${e.type}${e.linkTarget !== undefined ? ` to ${JSON.stringify(e.linkTarget)}` : ''}: never followed`,
      });
      continue;
    }
    const h = hasherFor(name);
    try {
      streamFile(fsPath(join(root, e.path)), (b) => h.update(b));
    } catch (err) {
      c.damaged.push({ name, why: `cannot be read (${(err as Error).message})` });
      continue;
    }
    c.members.set(name, h.done());
  }
  return c;
}
