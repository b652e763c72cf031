/** What the directory walk records about every entry of an input tree (chain of custody). */

export type EntryType = 'file' | 'dir' | 'symlink' | 'fifo' | 'socket' | 'block-device' | 'char-device' | 'unknown';

export interface InventoryEntry {
  /**
   * Path relative to the session directory, '/'-separated, escaped: each byte of the name that is not valid UTF-8
   * as `\xHH`, a backslash as `\\` (so two names never give one path).
   */
  path: string;
  /** The path's real bytes, base64, when it is not valid UTF-8 (`path` then holds `\xHH` escapes). */
  rawPath?: string;
  type: EntryType;
  /** Size in bytes from lstat. */
  size: number;
  mtimeMs: number;
  mode: number;
  /** sha256 of the bytes read (regular files only, filled in when the file is read). */
  sha256?: string;
  /** Symlink target as stored (never followed). */
  linkTarget?: string;
  /** Why the file could not be read (errno code or our own reason). */
  readError?: string;
}
