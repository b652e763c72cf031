/**
 * What a directory holds at its top, in words, for the "no session found" message: how many directories, files
 * and symlinks or special files, the first few names, and the entries discovery never looks into (dot entries,
 * node_modules).
 */
import { resolve } from 'node:path';
import { byteOrder } from '../model/order.js';
import { dirProbe, SKIP_DIRS } from './discover.js';
import { listDir } from './walk.js';

/** Names shown at most. */
const SHOWN = 5;

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function list(names: readonly string[], shown: (name: string) => string): string {
  return names.slice(0, SHOWN).map(shown).join(', ') + (names.length > SHOWN ? ', …' : '');
}

/**
 * E.g. "it holds 2 directories and 3 files (logs/, a.txt, b.db, …); dot entries passed over: .cache". `shown` makes
 * a name safe to print (names are the directory's content: they may hold control characters).
 */
export function describeTop(path: string, shown: (name: string) => string, homeRoots: readonly string[] = []): string {
  // The pinned listing checks the descriptor's path against the one given: a relative one would never match.
  const abs = resolve(path);
  const { names, types, error } = listDir(abs, true);
  if (error !== undefined) return `it cannot be listed (${error})`;
  if (names.length === 0) return 'it is empty';
  const { type } = dirProbe(abs, names, types);
  const skipped = names.filter((n) => n.startsWith('.') || SKIP_DIRS.has(n));
  const seen = names.filter((n) => !skipped.includes(n)).sort(byteOrder);
  const dirs = seen.filter((n) => type(n) === 'dir');
  const files = seen.filter((n) => type(n) === 'file');
  const other = seen.length - dirs.length - files.length;
  const counts = [
    ...(dirs.length ? [plural(dirs.length, 'directory', 'directories')] : []),
    ...(files.length ? [plural(files.length, 'file', 'files')] : []),
    ...(other ? [plural(other, 'symlink or special file', 'symlinks or special files')] : []),
  ];
  const holds = seen.length
    ? `it holds ${counts.length > 1 ? `${counts.slice(0, -1).join(', ')} and ${counts.at(-1)}` : counts[0]} ` +
      `(${list(
        seen.map((n) => (type(n) === 'dir' ? `${n}/` : n)),
        shown,
      )})`
    : 'it holds nothing discovery looks at';
  // The agents' own homes are entered (read/discover.ts): said apart, they held no session.
  const homes = new Set(homeRoots.map((r) => r.split('/')[0]!));
  const entered = skipped.filter((n) => homes.has(n));
  const dots = skipped.filter((n) => n.startsWith('.') && !homes.has(n));
  const modules = skipped.filter((n) => !n.startsWith('.'));
  return (
    holds +
    (entered.length ? `; agent homes entered, no session in them: ${list(entered, shown)}` : '') +
    (dots.length ? `; dot entries passed over: ${list(dots, shown)}` : '') +
    (modules.length ? `; not searched: ${modules.join(', ')}` : '')
  );
}
