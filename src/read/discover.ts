/**
 * Finds sessions under the paths a user gives, by structure. A session is either a directory (a format's detector
 * looks at the names inside it) or a set of files inside a directory (a log and its sidecar folders, recognised
 * by name and first bytes). Otherwise we descend (never
 * into symlinks, never into dot-prefixed entries, never into a file session's own folders, never deeper than
 * MAX_DISCOVERY_DEPTH). A path argument may also name one session file.
 */
import { lstatSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { EntryType } from '../model/inventory.js';
import type { Detectors, DirProbe, FileSessionHit, FoundSession } from '../model/found.js';
import { ReadError } from './open-regular.js';
import { readHead, readSpans } from './spans.js';
import { entryType } from './entry-type.js';
import { listDir } from './walk.js';
import { byteOrder } from '../model/order.js';

import { UsageError } from '../errors.js';

export const MAX_DISCOVERY_DEPTH = 12;
/** Directories discovery never descends into (beside dot entries). */
export const SKIP_DIRS = new Set(['node_modules', '.git']);
/** Bytes read from a candidate file to recognise its format. */
export const HEAD_BYTES = 32 * 1024;

/**
 * What detectors may ask of a directory. `listed`: the entry types its listing gave (a name that is not valid UTF-8
 * is looked up by name, as it cannot be, so that discovery says why it cannot read it).
 */
export function dirProbe(
  abs: string,
  names: readonly string[],
  listed?: ReadonlyMap<string, EntryType>,
): DirProbe & { unreadable(name: string): string | undefined } {
  const types = new Map<string, EntryType>();
  /** Why a file's head could not be read (its ReadError's reason). */
  const failed = new Map<string, string>();
  if (listed) for (const [name, t] of listed) if (t !== 'unknown' && !name.includes('\ufffd')) types.set(name, t);
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
  const head = (name: string): Buffer | undefined => {
    if (heads.has(name)) return heads.get(name);
    let h: Buffer | undefined;
    if (type(name) === 'file') {
      try {
        h = readHead(join(abs, name), HEAD_BYTES, true);
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
    return readlinkSync(abs);
  } catch {
    return '';
  }
};

/** `met`: called with each session as the walk meets it (before the sort by path). */
export function discoverSessions(arg: string, detectors: Detectors, met?: (s: FoundSession) => void): FoundSession[] {
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
    const one = fileArgument(arg, realpathSync(arg), detectors);
    met?.(one);
    return [one];
  }
  const rootAbs = realpathSync(arg);
  const found: FoundSession[] = [];
  const add = (s: FoundSession): void => {
    found.push(s);
    met?.(s);
  };
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
        (n) => !n.startsWith('.') && !SKIP_DIRS.has(n) && !claimed.has(n) && probe.type(n) === 'dir',
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
      if (t === 'dir') visit(childAbs, childDisplay, depth + 1, { name: basename(abs), abs, display });
      // A name that is not valid UTF-8 arrives decoded with U+FFFD and cannot be opened again by that name:
      // it is reported as an unreachable directory, never skipped in silence.
      else if (t === 'unknown' && name.includes('\ufffd')) {
        add({
          abs: childAbs,
          display: childDisplay,
          id: name,
          groupName: basename(abs),
          groupAbs: abs,
          format: detectors.opaqueDir(),
          unreachable:
            'its name is not valid UTF-8 (shown here with U+FFFD), so it cannot be opened by name: rename a copy ' +
            'to audit it',
        });
      }
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
  visit(rootAbs, arg, 0);
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
    if (why !== undefined) return { ...unreadableFile(dir, arg, name, why, detectors), rootAbs: dir };
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
  const display = hit.main === name ? arg : join(dirname(arg), hit.main);
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
