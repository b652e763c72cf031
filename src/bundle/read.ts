/**
 * Reading a bag without extracting it: a directory (read-dir.ts), a zip (read-zip.ts), a tar or a tar.gz
 * (read-tar.ts), told apart by their first bytes and streamed once. Every member is hashed with every BagIt algorithm
 * on the way (member-hasher.ts); tag files (outside data/) are kept in memory. Members with paths that could escape
 * an extraction directory are reported, never resolved.
 */
import { closeSync, openSync, readSync, constants } from 'node:fs';
import { join } from 'node:path';
import { readEvidenceFile } from '../read/files.js';
import type { BagContents } from './bag-contents.js';
import { unsafePath } from './bagit.js';
import { keepingWhole } from './member-hasher.js';
import { readBagDir } from './read-dir.js';
import { readTar, tarChecksumOk } from './read-tar.js';
import { readZip } from './read-zip.js';

/** What an archive file is, by its first bytes (never by its name); undefined: not an archive this tool reads. */
export function sniffArchive(path: string): 'zip' | 'tar' | 'tgz' | undefined {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  const head = Buffer.alloc(512);
  let n: number;
  try {
    n = readSync(fd, head, 0, 512, 0);
  } finally {
    closeSync(fd);
  }
  if (n >= 4 && (head.readUInt32LE(0) === 0x04034b50 || head.readUInt32LE(0) === 0x06054b50)) return 'zip';
  if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tgz';
  if (n === 512 && (head.every((b) => b === 0) || tarChecksumOk(head))) return 'tar';
  return undefined;
}

export async function readBag(path: string, isDir: boolean): Promise<BagContents> {
  if (isDir) return readBagDir(path);
  const kind = sniffArchive(path);
  if (kind === 'zip') return readZip(path);
  if (kind === 'tgz') return readTar(path, true);
  return readTar(path, false);
}

/**
 * The whole content of some members, to show how files differ from live ones: one pass over an archive, direct reads in
 * a directory.
 */
export async function readMembers(
  path: string,
  isDir: boolean,
  names: readonly string[],
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (isDir) {
    for (const name of new Set(names)) {
      if (unsafePath(name)) continue;
      try {
        out.set(name, readEvidenceFile(join(path, name), Number.MAX_SAFE_INTEGER));
      } catch {
        /* missing or unreadable: nothing to compare */
      }
    }
    return out;
  }
  return keepingWhole(names, async () => {
    const c = await readBag(path, false);
    for (const n of names) {
      const b = c.members.get(n)?.bytes;
      if (b) out.set(n, b);
    }
    return out;
  });
}
