/**
 * Finds sessions under the paths a user gives, by structure. A session is either a directory (a format's detector
 * looks at the names inside it) or a set of files inside a directory (a log and its sidecar folders, recognised
 * by name and first bytes). Otherwise we descend (never
 * into symlinks, never into dot-prefixed entries but the agents' own homes, never into a file session's own folders,
 * never deeper than MAX_DISCOVERY_DEPTH). A path argument may also name one session file.
 *
 * Agents keep their sessions in dot-directories of a home (`~/.codex/sessions`, `~/.claude/projects`, `~/.hermes`):
 * a user's home, a disk image's `/home/*`, a backup holds them there. Wherever the walk meets one, it enters it down
 * the format's own session roots (`homeRoots`) and nothing else of it; every other dot entry is passed over.
 */
import { lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EntryType } from '../model/inventory.js';
import type { Detectors, DirProbe, FileSessionHit, FoundHome, FoundSession } from '../model/found.js';
import { homeFiles } from './home-files.js';
import { ReadError } from './open-regular.js';
import { readHead, readSpans } from './spans.js';
import { entryType } from './entry-type.js';
import { listDir } from './walk.js';
import { escapeName, escapeText, fsPath, hasRawBytes } from './names.js';
import { byteOrder } from '../model/order.js';

import { UsageError } from '../errors.js';

export const MAX_DISCOVERY_DEPTH = 12;
/** Directories discovery never descends into (beside dot entries). */
export const SKIP_DIRS = new Set(['node_modules', '.git']);
/** Bytes read from a candidate file to recognise its format. */
export const HEAD_BYTES = 32 * 1024;

/**
 * What detectors may ask of a directory (`abs` and `names` escaped: read/names.ts). `listed`: the entry types its
 * listing gave.
 */
/** Dot-directories of a home that hold many programs' folders, not one agent's home. */
const XDG_BASES: ReadonlySet<string> = new Set(['.local', '.config']);

export function dirProbe(
  abs: string,
  names: readonly string[],
  listed?: ReadonlyMap<string, EntryType>,
): DirProbe & { unreadable(name: string): string | undefined } {
  const types = new Map<string, EntryType>();
  /** Why a file's head could not be read (its ReadError's reason). */
  const failed = new Map<string, string>();
  if (listed) for (const [name, t] of listed) if (t !== 'unknown') types.set(name, t);
  const heads = new Map<string, Buffer | undefined>();
  const type = (name: string): EntryType => {
    let t = types.get(name);
    if (t === undefined) {
      try {
        t = entryType(lstatSync(fsPath(join(abs, name))));
      } catch {
        t = 'unknown';
      }
      types.set(name, t);
    }
    return t;
  };
  const head = (name: string): Buffer | undefined => {
    if (heads.has(name)) return heads.get(name);
    let h: Buffer | undefined;
    if (type(name) === 'file') {
      try {
        h = readHead(fsPath(join(abs, name)), HEAD_BYTES, true);
      } catch (e) {
        h = undefined;
        failed.set(name, e instanceof ReadError ? e.reason : 'EIO');
      }
    }
    heads.set(name, h);
    return h;
  };
  return {
    abs,
    names,
    type,
    head,
    read(name, offset, length) {
      if (type(name) !== 'file') return undefined;
      try {
        return readSpans(join(abs, name), [{ offset, max: length, line: false }], true)[0];
      } catch {
        return undefined;
      }
    },
    list: (rel) => listDir(join(abs, rel), true).names,
    unreadable(name) {
      head(name);
      return failed.get(name);
    },
  };
}

const readLink = (abs: string): string => {
  try {
    return escapeName(readlinkSync(fsPath(abs), { encoding: 'buffer' }));
  } catch {
    return '';
  }
};

/** The canonical path of a user's argument, escaped (read/names.ts). */
const realPath = (arg: string): string => escapeName(realpathSync(arg, { encoding: 'buffer' }));

/**
 * `met`: called with each session as the walk meets it (before the sort by path). `homes`: where the agents' homes
 * met (or given) that hold their own files beside the sessions are added, with those files (`metHomes`).
 */
export function discoverSessions(
  arg: string,
  detectors: Detectors,
  met?: (s: FoundSession) => void,
  metHomes?: FoundHome[],
): FoundSession[] {
  let st: Stats;
  try {
    st = statSync(arg);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT' ? `${arg}: no such file or directory` : `${arg}: cannot be read (${code ?? 'error'})`,
    );
  }
  if (!st.isDirectory()) {
    if (!st.isFile())
      throw new UsageError(
        `${arg}: not a directory or a regular file; give a session directory or file, a cwd group, or a sessions root`,
      );
    const one = fileArgument(arg, realPath(arg), detectors);
    met?.(one);
    return [one];
  }
  const rootAbs = realPath(arg);
  const found: FoundSession[] = [];
  /** An agent's home at `abs` (its path below the directory holding it: `dir`): its own files, when it has any. */
  const meetHome = (abs: string, display: string, dir: string): void => {
    if (!metHomes) return;
    for (const spec of detectors.homes) {
      if (spec.dir !== dir) continue;
      const files = homeFiles(abs, spec.files);
      if (files.length) metHomes.push({ abs, display, format: spec.format, files });
    }
  };
  // The argument is itself an agent's home (`~/.claude`, `~/.local/share/opencode`).
  for (const spec of detectors.homes)
    if (rootAbs === spec.dir || rootAbs.endsWith(`/${spec.dir}`)) meetHome(rootAbs, escapeText(arg), spec.dir);
  /** The agent home the walk is inside (its display path), for the sessions it finds there. */
  let home: string | undefined;
  let homeAbs: string | undefined;
  const add = (s: FoundSession): void => {
    if (home !== undefined) {
      s.home = home;
      // Lineage is judged within one agent's home (a fork in sessions/, its origin in archived_sessions/).
      s.rootAbs = homeAbs!;
    }
    found.push(s);
    met?.(s);
  };
  /** Session roots below each home dot-directory, by its name: `.codex` → `sessions`, `archived_sessions`. */
  const homes = new Map<string, string[]>();
  for (const r of detectors.homeRoots) {
    const [first, ...rest] = r.split('/');
    if (!first?.startsWith('.')) continue;
    homes.set(first, [...(homes.get(first) ?? []), rest.join('/')]);
  }
  const fileSession = (dirAbs: string, dirDisplay: string, hit: FileSessionHit): FoundSession => {
    const s: FoundSession = {
      abs: dirAbs,
      display: hit.main === '.' ? dirDisplay : join(dirDisplay, hit.main),
      id: hit.id,
      groupName: basename(dirAbs),
      groupAbs: dirAbs,
      format: hit.format,
      members: hit.members,
      rootAbs,
    };
    if (hit.symlinkTarget !== undefined) s.symlinkTarget = hit.symlinkTarget || readLink(join(dirAbs, hit.main));
    return s;
  };
  const visit = (
    abs: string,
    display: string,
    depth: number,
    parent?: { name: string; abs: string; display: string },
  ): void => {
    const { names, types, error } = listDir(abs, true);
    if (error) {
      if (depth === 0) throw new UsageError(`${arg}: cannot list the directory (${error})`);
      // Whatever it holds (a session, a group of them) is evidence this audit cannot see: said, never skipped.
      add({
        ...opaqueEntry(abs, display, parent?.abs ?? dirname(abs)),
        unreachable: `listing it failed (${error})`,
      });
      return;
    }
    const probe = dirProbe(abs, names, types);
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
      add(s);
      return;
    }
    const orphan = detectors.orphan(probe);
    if (orphan) {
      const up = parent ?? { abs: dirname(abs), display: dirname(display), name: basename(dirname(abs)) };
      // Given directly, the folder may still have its main file next to it: then the session is that file's.
      const claimed =
        depth === 0
          ? detectors
              .files(dirProbe(up.abs, listDir(up.abs, true).names))
              .find((h) => h.members.includes(basename(abs)))
          : undefined;
      const hit = claimed ?? { ...orphan, main: basename(abs), members: [basename(abs)] };
      const s = fileSession(up.abs, up.display, hit);
      if (!claimed) s.display = display;
      add(s);
      return;
    }
    const hits = detectors.files(probe);
    const claimed = new Set<string>();
    for (const hit of hits) {
      for (const m of hit.members) claimed.add(m);
      add(fileSession(abs, display, hit));
    }
    // A log no agent claimed because its first lines could not be read may be a session all the same (an agent's
    // file under another name): said, never passed over in silence.
    for (const name of names) {
      if (claimed.has(name) || name.startsWith('.') || !name.endsWith('.jsonl') || probe.type(name) !== 'file')
        continue;
      const why = probe.unreadable(name);
      if (why !== undefined) add(unreadableFile(abs, join(display, name), name, why, detectors));
    }
    if (depth >= MAX_DISCOVERY_DEPTH) {
      const deeper = names.filter(
        (n) =>
          (!n.startsWith('.') || (homes.has(n) && home === undefined)) &&
          !SKIP_DIRS.has(n) &&
          !claimed.has(n) &&
          probe.type(n) === 'dir',
      );
      if (deeper.length)
        add({
          ...opaqueEntry(abs, display, parent?.abs ?? dirname(abs)),
          notSearched:
            `it is ${depth} levels below ${arg}, the deepest discovery searches, and its ${deeper.length} ` +
            `subdirector${deeper.length === 1 ? 'y' : 'ies'} (${deeper.slice(0, 3).join(', ')}` +
            `${deeper.length > 3 ? ', …' : ''}) were not searched for sessions: give it as an argument to audit them`,
        });
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') && homes.has(name) && !claimed.has(name) && home === undefined) {
        enterHome(abs, display, name, depth, homes.get(name)!);
        continue;
      }
      if (name.startsWith('.') || SKIP_DIRS.has(name) || claimed.has(name)) continue;
      const childAbs = join(abs, name);
      const childDisplay = join(display, name);
      const t = probe.type(name);
      if (t === 'symlink') {
        let isDir = false;
        try {
          isDir = statSync(fsPath(childAbs)).isDirectory();
        } catch {
          /* dangling */
        }
        if (isDir) {
          const format = detectors.opaqueDir();
          add({
            abs: childAbs,
            display: childDisplay,
            id: name,
            groupName: basename(abs),
            groupAbs: abs,
            symlinkTarget: readLink(childAbs),
            format,
          });
        }
        continue;
      }
      // A directory whose name is not valid UTF-8 (shown with \xHH escapes) is no agent's: agents name sessions and
      // groups with ids and encoded paths. What it holds is reported as not audited, never merged with the
      // directory whose name it would decode to, nor skipped in silence.
      if (t === 'dir' && hasRawBytes(name))
        add({
          abs: childAbs,
          display: childDisplay,
          id: name,
          groupName: basename(abs),
          groupAbs: abs,
          format: detectors.opaqueDir(),
          unreachable:
            'its name is not valid UTF-8 (each byte that is not is shown as \\xHH): no agent names a session or a ' +
            'group so, and whatever it holds is not audited; rename a copy to audit it',
        });
      else if (t === 'dir') visit(childAbs, childDisplay, depth + 1, { name: basename(abs), abs, display });
    }
  };
  /**
   * An agent's home dot-directory met in the walk: each of its session roots that is a real directory (no symlink
   * on the way: a symlinked home is recorded as any symlink is, never followed) is walked as if given.
   */
  const enterHome = (abs: string, display: string, name: string, depth: number, roots: readonly string[]): void => {
    const top = join(abs, name);
    let t: EntryType;
    try {
      t = entryType(lstatSync(top));
    } catch {
      return;
    }
    if (t === 'symlink') {
      let isDir = false;
      try {
        isDir = statSync(top).isDirectory();
      } catch {
        /* dangling */
      }
      if (isDir)
        add({
          abs: top,
          display: join(display, name),
          id: name,
          groupName: basename(abs),
          groupAbs: abs,
          symlinkTarget: readLink(top),
          format: detectors.opaqueDir(),
        });
      return;
    }
    if (t !== 'dir') return;
    // `.local` and `.config` are shared by every program (the XDG base directories): the agent's home is its own
    // folder under them (`.local/share/opencode`), not the base directory.
    const own = XDG_BASES.has(name) && roots.length === 1 && roots[0] !== '' ? roots[0]! : '';
    home = join(display, name, own);
    homeAbs = join(top, own);
    meetHome(homeAbs, home, join(name, own));
    try {
      for (const rel of roots) {
        const parts = rel === '' ? [] : rel.split('/');
        let at = top;
        let ok = true;
        for (const p of parts) {
          at = join(at, p);
          try {
            ok = entryType(lstatSync(at)) === 'dir';
          } catch {
            ok = false;
          }
          if (!ok) break;
        }
        if (!ok) continue;
        const shown = join(display, name, ...parts);
        const up = dirname(at);
        visit(at, shown, depth + 1 + parts.length, { name: basename(up), abs: up, display: dirname(shown) });
      }
    } finally {
      home = undefined;
      homeAbs = undefined;
    }
  };
  const opaqueEntry = (abs: string, display: string, groupAbs: string): FoundSession => ({
    abs,
    display,
    id: basename(abs),
    groupName: basename(groupAbs),
    groupAbs,
    format: detectors.opaqueDir(),
  });
  // The display is escaped too (the argument as typed, its backslashes doubled), so that it names the real bytes.
  visit(rootAbs, escapeText(arg), 0);
  return found.sort((a, b) => byteOrder(a.display, b.display));
}

/** A file no agent claimed because its first lines cannot be read: an entry reported, never opened again. */
function unreadableFile(
  dirAbs: string,
  display: string,
  name: string,
  why: string,
  detectors: Detectors,
): FoundSession {
  return {
    abs: dirAbs,
    display,
    id: name,
    groupName: basename(dirAbs),
    groupAbs: dirAbs,
    format: detectors.opaqueDir(),
    members: [name],
    unreachable: `reading it failed (${why}); whether it is an agent's log needs its first lines to tell`,
  };
}

/** One session file named on the command line (a symlink argument is resolved, as a directory argument is). */
function fileArgument(arg: string, real: string, detectors: Detectors): FoundSession {
  const dir = dirname(real);
  const name = basename(real);
  const probe = dirProbe(dir, listDir(dir, true).names);
  const hits = detectors.files(probe);
  const hit = hits.find((h) => h.main === name) ?? hits.find((h) => h.members.includes(name)) ?? detectors.force(name);
  if (!hit) {
    // Nothing recognised it because it cannot be read: the same finding as when a walk meets it, not a usage error.
    const why = probe.unreadable(name);
    if (why !== undefined) return { ...unreadableFile(dir, escapeText(arg), name, why, detectors), rootAbs: dir };
    const kinds = detectors.fileKinds;
    const nouns = kinds.map((k) => `a ${k.noun}`);
    const which =
      nouns.length <= 1
        ? `not ${nouns[0] ?? 'a session file'}`
        : nouns.length === 2
          ? `neither ${nouns[0]} nor ${nouns[1]}`
          : `none of ${nouns.join(', ')}`;
    // Under a --format-hint whose sessions are not single files, no hint would read it as one.
    const force = kinds.length ? `; --format-hint ${kinds.map((k) => k.name).join('|')} reads it as one` : '';
    throw new UsageError(
      `${arg}: not a directory, and not a session file (${which} by its name and first lines)${force}`,
    );
  }
  const display = hit.main === name ? escapeText(arg) : join(escapeText(dirname(arg)), hit.main);
  const s: FoundSession = {
    abs: dir,
    display,
    id: hit.id,
    groupName: basename(dir),
    groupAbs: dir,
    format: hit.format,
    members: hit.members,
    rootAbs: dir,
  };
  if (hit.symlinkTarget !== undefined) s.symlinkTarget = hit.symlinkTarget;
  return s;
}
