/**
 * What discovery finds: sessions (directories or sets of files), and the probe and detector interfaces through
 * which each format recognises its own sessions.
 */
import type { EntryType } from './inventory.js';

export interface FoundSession {
  /** Absolute path of the session directory (for a file session: of the directory holding its files). */
  abs: string;
  /** The path as the user will see it: the argument joined with the relative path below it. */
  display: string;
  /** Directory name = session id (a file session: the id its file name or first record gives). */
  id: string;
  /** Name of the parent directory (a group of sessions, e.g. by working directory) when found below the argument. */
  groupName?: string;
  groupAbs?: string;
  /** Set when the entry is a symlink to a directory (or a session file) that we recorded and did not follow. */
  symlinkTarget?: string;
  /**
   * Set when the directory cannot be read (its listing failed, or its own name is not valid UTF-8: no agent's):
   * reported, not audited. `abs`, `display` and the names here are escaped (read/names.ts).
   */
  unreachable?: string;
  /**
   * Set for a directory discovery did not search (deeper than its limit): reported, not audited. Not a session,
   * but a place sessions may be in.
   */
  notSearched?: string;
  /** The format that recognised the session, or the one `--format-hint` forced. */
  format?: string;
  /**
   * A session stored as files (not a directory of its own): the names inside `abs` that belong to it, files or
   * directories
   * taken whole. Its inventory holds these and nothing else of `abs` (never the neighbouring sessions).
   */
  members?: string[];
  /**
   * The tree the session was found in (the path argument): lineage links between file sessions are judged within it.
   */
  rootAbs?: string;
  /**
   * The agent home (a dot-directory such as `.codex`, as displayed) the walk entered to find it: agents keep their
   * sessions in dot-directories, which are otherwise passed over.
   */
  home?: string;
}

export type DirVerdict = 'session' | 'descend';
export type Detector = (names: readonly string[]) => DirVerdict;

/** A file session recognised among a directory's entries. */
export interface FileSessionHit {
  format: string;
  id: string;
  /** The member the session is shown by: its main file, or its sidecar folder when the main file is missing. */
  main: string;
  /** Names inside the directory that belong to the session. */
  members: string[];
  /** The main file is a symlink (recorded, never followed). */
  symlinkTarget?: string;
}

/** A directory as detectors see it: its names, and lazy, read-only looks at its entries. */
export interface DirProbe {
  abs: string;
  names: readonly string[];
  /** lstat type of an entry (symlinks are not followed). */
  type(name: string): EntryType;
  /** The first bytes of a regular file; undefined when it is not one or cannot be read. */
  head(name: string): Buffer | undefined;
  /** Bytes of a regular file from `offset` (at most `length`); undefined when it is not one or cannot be read. */
  read(name: string, offset: number, length: number): Buffer | undefined;
  /** Names inside a subdirectory (relative path); empty when it cannot be listed. */
  list(rel: string): readonly string[];
}

export interface Detectors {
  /** The format of a session directory recognised by the names inside it, or undefined. */
  dir(probe: DirProbe): string | undefined;
  /** Formats whose sessions are files (registry name and what such a file is called), for messages. */
  fileKinds: ReadonlyArray<{ name: string; noun: string }>;
  /** The format of a directory recorded but never opened (a symlink, an unreadable name) found while descending. */
  opaqueDir(): string;
  /** The file sessions among a directory's entries. */
  files(probe: DirProbe): FileSessionHit[];
  /**
   * A directory that is itself the folder of a file session whose main file is missing: the session, with `main` = '.'.
   */
  orphan(probe: DirProbe): FileSessionHit | undefined;
  /** A file given as an argument that nothing recognised: the session `--format-hint` makes of it, or undefined. */
  force(name: string): FileSessionHit | undefined;
  /**
   * Where the agents keep their sessions below a home directory (`.codex/sessions`, `.hermes`, …): the dot-directories
   * discovery enters wherever it meets them, down these paths only.
   */
  homeRoots: readonly string[];
  /**
   * The agents' homes whose own files (histories, indexes) are read beside their sessions: the home's path below the
   * directory that holds it (`.claude`, `.local/share/opencode`), its format, and the paths of those files in it.
   */
  homes: ReadonlyArray<{ dir: string; format: string; files: readonly string[] }>;
}

/** A found entry that is recorded but never opened: a symlinked session, or one that cannot be opened by name. */
export const opaque = (f: FoundSession): boolean =>
  f.symlinkTarget !== undefined || f.unreachable !== undefined || f.notSearched !== undefined;

/**
 * An agent's home met by discovery (`~/.claude`, `~/.codex`, `~/.grok`) with the files the agent keeps beside its
 * sessions there (prompt histories, indexes, crash registries): evidence of sessions whose logs may be gone. Audited
 * after the home's sessions, against them; never a session itself.
 */
export interface FoundHome {
  /** The home directory (the agent's own folder: `.claude`, `.local/share/opencode`). */
  abs: string;
  /** As the user sees it (the argument joined with the path below it). */
  display: string;
  /** The format whose home it is. */
  format: string;
  /** The home's files present, relative to `abs` (plain components, `/`-separated), sorted. */
  files: string[];
}
