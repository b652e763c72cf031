/**
 * Finds sessions under the paths a user gives, by structure. A session is either a directory (Grok Build: a
 * format's detector looks at the names inside it) or a set of files inside a directory (Codex rollouts, Claude
 * Code transcripts with their sidecar folders: recognised by name and first bytes). Otherwise we descend (never
 * into symlinks, never into dot-prefixed entries, never into a file session's own folders, never deeper than
 * MAX_DISCOVERY_DEPTH). A path argument may also name one session file.
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EntryType } from '../model/inventory.js';
import { readHead } from './files.js';
import { byteOrder, entryType, listDir } from './walk.js';

export class UsageError extends Error {}

export interface FoundSession {
  /** Absolute path of the session directory (for a file session: of the directory holding its files). */
  abs: string;
  /** The path as the user will see it: the argument joined with the relative path below it. */
  display: string;
  /** Directory name = session id (a file session: the id its file name or first record gives). */
  id: string;
  /** Name of the parent directory (the cwd group in a Grok sessions root) when the session was found below the argument. */
  groupName?: string;
  groupAbs?: string;
  /** Set when the entry is a symlink to a directory (or a session file) that we recorded and did not follow. */
  symlinkTarget?: string;
  /** Set when the directory cannot be opened by name (e.g. its name is not valid UTF-8): reported, not audited. */
  unreachable?: string;
  /** The format that recognised the session, or the one `--format-hint` forced. */
  format?: string;
  /**
   * A session stored as files (Codex, Claude Code): the names inside `abs` that belong to it, files or directories
   * taken whole. Its inventory holds these and nothing else of `abs` (never the neighbouring sessions).
   */
  members?: string[];
  /** The tree the session was found in (the path argument): lineage links between file sessions are judged within it. */
  rootAbs?: string;
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
  /** Names inside a subdirectory (relative path); empty when it cannot be listed. */
  list(rel: string): readonly string[];
}

export interface Detectors {
  /** The format of a session directory recognised by the names inside it (Grok Build), or undefined. */
  dir(probe: DirProbe): string | undefined;
  /** The file sessions among a directory's entries. */
  files(probe: DirProbe): FileSessionHit[];
  /** A directory that is itself the folder of a file session whose main file is missing: the session, with `main` = '.'. */
  orphan(probe: DirProbe): FileSessionHit | undefined;
  /** A file given as an argument that nothing recognised: the session `--format-hint` makes of it, or undefined. */
  force(name: string): FileSessionHit | undefined;
}

/** A found entry that is recorded but never opened: a symlinked session, or one that cannot be opened by name. */
export const opaque = (f: FoundSession): boolean => f.symlinkTarget !== undefined || f.unreachable !== undefined;

export const MAX_DISCOVERY_DEPTH = 6;
const SKIP_DIRS = new Set(['node_modules', '.git']);
/** Bytes read from a candidate file to recognise its format. */
export const HEAD_BYTES = 32 * 1024;

export function dirProbe(abs: string, names: readonly string[]): DirProbe {
  const types = new Map<string, EntryType>();
  const heads = new Map<string, Buffer | undefined>();
  const type = (name: string): EntryType => {
    let t = types.get(name);
    if (t === undefined) {
      try {
        t = entryType(lstatSync(join(abs, name)));
      } catch {
        t = 'unknown';
      }
      types.set(name, t);
    }
    return t;
  };
  return {
    abs,
    names,
    type,
    head(name) {
      if (heads.has(name)) return heads.get(name);
      let h: Buffer | undefined;
      if (type(name) === 'file') {
        try {
          h = readHead(join(abs, name), HEAD_BYTES);
        } catch {
          h = undefined;
        }
      }
      heads.set(name, h);
      return h;
    },
    list: (rel) => listDir(join(abs, rel)).names,
  };
}

const readLink = (abs: string): string => {
  try {
    return readlinkSync(abs);
  } catch {
    return '';
  }
};

export function discoverSessions(arg: string, detectors: Detectors): FoundSession[] {
  let st;
  try {
    st = statSync(arg);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${arg}: no such file or directory` : `${arg}: cannot be read (${code ?? 'error'})`);
  }
  if (!st.isDirectory()) {
    if (!st.isFile()) throw new UsageError(`${arg}: not a directory or a regular file; give a session directory or file, a cwd group, or a sessions root`);
    return [fileArgument(arg, realpathSync(arg), detectors)];
  }
  const rootAbs = realpathSync(arg);
  const found: FoundSession[] = [];
  const fileSession = (dirAbs: string, dirDisplay: string, hit: FileSessionHit): FoundSession => {
    const s: FoundSession = { abs: dirAbs, display: hit.main === '.' ? dirDisplay : join(dirDisplay, hit.main), id: hit.id, groupName: basename(dirAbs), groupAbs: dirAbs, format: hit.format, members: hit.members, rootAbs };
    if (hit.symlinkTarget !== undefined) s.symlinkTarget = hit.symlinkTarget || readLink(join(dirAbs, hit.main));
    return s;
  };
  const visit = (abs: string, display: string, depth: number, parent?: { name: string; abs: string; display: string }): void => {
    const { names, error } = listDir(abs);
    if (error) {
      if (depth === 0) throw new UsageError(`${arg}: cannot list the directory (${error})`);
      return;
    }
    const probe = dirProbe(abs, names);
    const format = detectors.dir(probe);
    if (format !== undefined) {
      const s: FoundSession = { abs, display, id: basename(abs), format };
      if (parent) {
        s.groupName = parent.name;
        s.groupAbs = parent.abs;
      } else if (depth === 0) {
        s.groupName = basename(dirname(abs));
        s.groupAbs = dirname(abs);
      }
      found.push(s);
      return;
    }
    const orphan = detectors.orphan(probe);
    if (orphan) {
      const up = parent ?? { abs: dirname(abs), display: dirname(display), name: basename(dirname(abs)) };
      // Given directly, the folder may still have its main file next to it: then the session is that file's.
      const claimed = depth === 0 ? detectors.files(dirProbe(up.abs, listDir(up.abs).names)).find((h) => h.members.includes(basename(abs))) : undefined;
      const hit = claimed ?? { ...orphan, main: basename(abs), members: [basename(abs)] };
      const s = fileSession(up.abs, up.display, hit);
      if (!claimed) s.display = display;
      found.push(s);
      return;
    }
    const hits = detectors.files(probe);
    const claimed = new Set<string>();
    for (const hit of hits) {
      for (const m of hit.members) claimed.add(m);
      found.push(fileSession(abs, display, hit));
    }
    if (depth >= MAX_DISCOVERY_DEPTH) return;
    for (const name of names) {
      if (name.startsWith('.') || SKIP_DIRS.has(name) || claimed.has(name)) continue;
      const childAbs = join(abs, name);
      const childDisplay = join(display, name);
      const t = probe.type(name);
      if (t === 'symlink') {
        let isDir = false;
        try {
          isDir = statSync(childAbs).isDirectory();
        } catch {
          /* dangling */
        }
        if (isDir) found.push({ abs: childAbs, display: childDisplay, id: name, groupName: basename(abs), groupAbs: abs, symlinkTarget: readLink(childAbs) });
        continue;
      }
      if (t === 'dir') visit(childAbs, childDisplay, depth + 1, { name: basename(abs), abs, display });
      // A name that is not valid UTF-8 arrives decoded with U+FFFD and cannot be opened again by that name:
      // it is reported as an unreachable directory, never skipped in silence.
      else if (t === 'unknown' && name.includes('\ufffd')) {
        found.push({ abs: childAbs, display: childDisplay, id: name, groupName: basename(abs), groupAbs: abs, unreachable: 'its name is not valid UTF-8 (shown here with U+FFFD), so it cannot be opened by name: rename a copy to audit it' });
      }
    }
  };
  visit(rootAbs, arg, 0);
  return found.sort((a, b) => byteOrder(a.display, b.display));
}

/** One session file named on the command line (a symlink argument is resolved, as a directory argument is). */
function fileArgument(arg: string, real: string, detectors: Detectors): FoundSession {
  const dir = dirname(real);
  const name = basename(real);
  const hits = detectors.files(dirProbe(dir, listDir(dir).names));
  const hit = hits.find((h) => h.main === name) ?? hits.find((h) => h.members.includes(name)) ?? detectors.force(name);
  if (!hit) {
    throw new UsageError(`${arg}: not a directory, and not a session file (neither a Codex rollout nor a Claude Code transcript by its name and first lines); --format-hint codex|claude reads it as one`);
  }
  const display = hit.main === name ? arg : join(dirname(arg), hit.main);
  const s: FoundSession = { abs: dir, display, id: hit.id, groupName: basename(dir), groupAbs: dir, format: hit.format, members: hit.members, rootAbs: dir };
  if (hit.symlinkTarget !== undefined) s.symlinkTarget = hit.symlinkTarget;
  return s;
}
