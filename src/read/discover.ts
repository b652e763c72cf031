/**
 * Finds session directories under the paths a user gives, by structure: a format's detector looks at the
 * names inside each directory and says whether it is a session; otherwise we descend (never into symlinks,
 * never into dot-prefixed entries, never deeper than MAX_DISCOVERY_DEPTH).
 */
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { byteOrder, listDir } from './walk.js';

export class UsageError extends Error {}

export interface FoundSession {
  /** Absolute path of the session directory. */
  abs: string;
  /** The path as the user will see it: the argument joined with the relative path below it. */
  display: string;
  /** Directory name = session id. */
  id: string;
  /** Name of the parent directory (the cwd group in a Grok sessions root) when the session was found below the argument. */
  groupName?: string;
  groupAbs?: string;
  /** Set when the entry is a symlink to a directory that we recorded and did not follow. */
  symlinkTarget?: string;
}

export type DirVerdict = 'session' | 'descend';
export type Detector = (names: readonly string[]) => DirVerdict;

export const MAX_DISCOVERY_DEPTH = 6;
const SKIP_DIRS = new Set(['node_modules', '.git']);

export function discoverSessions(arg: string, detect: Detector): FoundSession[] {
  let st;
  try {
    st = statSync(arg);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${arg}: no such file or directory` : `${arg}: cannot be read (${code ?? 'error'})`);
  }
  if (!st.isDirectory()) {
    throw new UsageError(`${arg}: not a directory; give a session directory, a cwd group, or a sessions root`);
  }
  const rootAbs = realpathSync(arg);
  const found: FoundSession[] = [];
  const visit = (abs: string, display: string, depth: number, parent?: { name: string; abs: string }): void => {
    const { names, error } = listDir(abs);
    if (error) {
      if (depth === 0) throw new UsageError(`${arg}: cannot list the directory (${error})`);
      return;
    }
    if (detect(names) === 'session') {
      const s: FoundSession = { abs, display, id: basename(abs) };
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
    if (depth >= MAX_DISCOVERY_DEPTH) return;
    for (const name of names) {
      if (name.startsWith('.') || SKIP_DIRS.has(name)) continue;
      const childAbs = join(abs, name);
      const childDisplay = join(display, name);
      let lst;
      try {
        lst = lstatSync(childAbs);
      } catch {
        continue;
      }
      if (lst.isSymbolicLink()) {
        let isDir = false;
        try {
          isDir = statSync(childAbs).isDirectory();
        } catch {
          /* dangling */
        }
        if (isDir) {
          let target = '';
          try {
            target = readlinkSync(childAbs);
          } catch {
            /* unreadable link */
          }
          found.push({ abs: childAbs, display: childDisplay, id: name, groupName: basename(abs), groupAbs: abs, symlinkTarget: target });
        }
        continue;
      }
      if (lst.isDirectory()) visit(childAbs, childDisplay, depth + 1, { name: basename(abs), abs });
    }
  };
  visit(rootAbs, arg, 0);
  return found.sort((a, b) => byteOrder(a.display, b.display));
}
