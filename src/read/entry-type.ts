/** What kind of entry a file-system object is, from lstat's Stats or from a listing's Dirent (the same tests). */
import type { EntryType } from '../model/inventory.js';

export interface TypeTests {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
}

export function entryType(st: TypeTests): EntryType {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'dir';
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isBlockDevice()) return 'block-device';
  if (st.isCharacterDevice()) return 'char-device';
  return 'unknown';
}
