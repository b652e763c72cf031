/**
 * What reading a bag yields (a directory, a zip, a tar or a tar.gz alike): each member's size and digests under
 * every BagIt algorithm, tag files' content, and the members refused or damaged; `admit` refuses a member whose path
 * could escape an extraction directory, or which appears twice.
 */
import { unsafePath } from './bagit.js';

export const HASHES = ['md5', 'sha1', 'sha256', 'sha512'] as const;
export type HashName = (typeof HASHES)[number];

export interface BagMember {
  name: string;
  size: number;
  digests: Record<HashName, string>;
  /** Content of small members outside data/ (tag files). */
  bytes?: Buffer;
}

export interface BagContents {
  kind: 'dir' | 'zip' | 'tar' | 'tgz';
  members: Map<string, BagMember>;
  /** Members that were not read: unsafe paths, links, special files, duplicates. */
  rejected: Array<{ name: string; why: string }>;
  /** Members (or the archive) that could not be read back: corrupt compressed data, a truncated archive. */
  damaged: Array<{ name: string; why: string }>;
  /** The whole archive's sha256 (not for directories). */
  archiveSha256?: string;
  /** The archive's layout is forged (overlapping members, names that disagree, impossible ratios): not read. */
  hostile?: boolean;
}

export function admit(c: BagContents, name: string): boolean {
  const why = unsafePath(name);
  if (why) {
    c.rejected.push({ name, why: `${why}: a member that could escape an extraction directory` });
    return false;
  }
  if (c.members.has(name)) {
    c.rejected.push({ name, why: 'appears twice in the archive' });
    return false;
  }
  return true;
}
