/**
 * The files an agent keeps in its home beside its sessions, found by the paths its format names (plain components,
 * `*` for any one name, or a component with `*` in it, each `*` any run of characters within that one name:
 * `session_search.h-*.sqlite`): each entry that is there and is not a directory, by lstat (a symlink is listed, as
 * the inventory records it, and never followed; a `*` never goes through one). A `*` never matches a name's leading
 * dot. Names are escaped (read/names.ts): one that is not valid UTF-8 is listed like any other (it is evidence;
 * checks/home-names.ts reports it and the agent's checks never read it). One file may sit beside the home rather
 * than in it (Claude Code keeps `~/.claude.json` beside `~/.claude/`): a pattern `../<name>`, exactly one leading
 * `..` and one plain name, no `*`, is looked up by lstat in the directory holding the home and listed as
 * `../<name>`; a `..` or `.` anywhere else makes the pattern match nothing.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { byteOrder } from '../model/order.js';
import { entryType } from './entry-type.js';
import { fsPath } from './names.js';
import { listDir } from './walk.js';

const typeAt = (abs: string): ReturnType<typeof entryType> | undefined => {
  try {
    return entryType(lstatSync(fsPath(abs)));
  } catch {
    return undefined;
  }
};

/** A component with a `*` in it as a whole-name pattern (undefined: a plain name). */
export function componentGlob(component: string): RegExp | undefined {
  if (!component.includes('*')) return undefined;
  const body = component
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${component.startsWith('*') ? '(?!\\.)' : ''}${body}$`, 's');
}

/** A name of one component, no pattern in it: not `.`, `..`, empty, nor holding `/`, `*` or NUL. */
const plainName = (n: string): boolean =>
  n !== '' && n !== '.' && n !== '..' && !n.includes('/') && !n.includes('*') && !n.includes('\0');

/** The entries of `home` matching `patterns`, relative to it, sorted and each once. */
export function homeFiles(home: string, patterns: readonly string[]): string[] {
  const out = new Set<string>();
  const expand = (at: string, rel: string, parts: readonly string[]): void => {
    const [first, ...rest] = parts;
    if (first === undefined) return;
    const glob = componentGlob(first);
    const names = glob ? listDir(join(home, at), true).names.filter((n) => glob.test(n)) : [first];
    for (const n of names) {
      const next = rel === '' ? n : `${rel}/${n}`;
      const t = typeAt(join(home, next));
      if (t === undefined) continue;
      if (rest.length === 0) {
        if (t !== 'dir') out.add(next);
      } else if (t === 'dir') expand(next, next, rest);
    }
  };
  for (const p of patterns) {
    const parts = p.split('/');
    if (parts[0] === '..') {
      const name = parts[1];
      if (parts.length !== 2 || name === undefined || !plainName(name)) continue;
      const t = typeAt(join(home, '..', name));
      if (t !== undefined && t !== 'dir') out.add(`../${name}`);
      continue;
    }
    if (parts.some((c) => c === '.' || c === '..' || c === '')) continue;
    expand('', '', parts);
  }
  return [...out].sort(byteOrder);
}

/** Whether `rel` (a path `homeFiles` listed) is one that `pattern` names. */
export function matchesHomePattern(rel: string, pattern: string): boolean {
  const parts = rel.split('/');
  const want = pattern.split('/');
  return (
    parts.length === want.length &&
    want.every((w, i) => {
      const glob = componentGlob(w);
      return glob ? glob.test(parts[i]!) : w === parts[i];
    })
  );
}
