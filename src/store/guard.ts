/**
 * Who may have written the store, checked before it is used. The store's files are opened by path (SQLite, the
 * records, the objects): that is safe only if nobody but the user running can change what a path names. So a run
 * that writes (`archive`, `--reindex`) refuses a store whose directory, or any of its own entries (store.json,
 * head.json, the lock, tmp/, objects/ and its shards, captures/ and its shards, the index), is a symlink, is not of
 * the kind it should be, is owned by another user, or is writable by anyone but its owner; and a store inside a
 * directory another user could rename it out of (an ancestor writable by others without the sticky bit, or owned
 * by a user other than root and the one running). Below directories that pass, nobody else can plant an entry, so
 * the files inside need no check of their own.
 *
 * A run that only reads (`verify --store`, `search`, `bundle --from-store`) accepts a store another user made (that
 * is how a reviewer receives one) but never one whose own entries are symlinks: nothing it reads may lie outside it.
 */
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';

export class StoreUnsafe extends Error {}

type Kind = 'file' | 'dir';

/** The store's own top-level entries and what each must be. Anything else in the directory is not read. */
const TOP: ReadonlyArray<readonly [RegExp, Kind]> = [
  [/^store\.json$/, 'file'],
  [/^head\.json$/, 'file'],
  [/^lock(\.stale\..+)?$/, 'file'],
  [/^tmp$/, 'dir'],
  [/^objects$/, 'dir'],
  [/^captures$/, 'dir'],
  [/^index\.sqlite(-journal|-wal|-shm)?$/, 'file'],
];
/** Directories whose entries (the shards) are checked too. */
const SHARDED = ['objects', 'captures'];

const kindOf = (st: Stats): string =>
  st.isSymbolicLink() ? 'a symlink' : st.isDirectory() ? 'a directory' : st.isFile() ? 'a file' : 'a special file';

const uid = (): number | undefined => process.geteuid?.();

/** What is wrong with one of the store's entries, or undefined. */
function entryProblem(st: Stats, kind: Kind, strict: boolean): string | undefined {
  if (st.isSymbolicLink()) return 'is a symlink';
  if (kind === 'dir' ? !st.isDirectory() : !st.isFile())
    return `is ${kindOf(st)}, not ${kind === 'dir' ? 'a directory' : 'a file'}`;
  if (!strict) return undefined;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `is owned by uid ${st.uid}, not by this user (uid ${me})`;
  if (st.mode & 0o022) return `is writable by ${st.mode & 0o002 ? 'every user' : 'its group'} (mode ${octal(st.mode)})`;
  return undefined;
}

const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(4, '0');

/** An ancestor of the store another user could rename it out of, or undefined. */
function ancestorProblem(store: string): string | undefined {
  const me = uid();
  for (let dir = dirname(store); ; dir = dirname(dir)) {
    let st: Stats;
    try {
      st = lstatSync(dir);
    } catch {
      return undefined;
    }
    const owner = me === undefined || st.uid === 0 || st.uid === me;
    const sticky = (st.mode & 0o1000) !== 0;
    if (!owner) return `${dir}, a directory above it, is owned by uid ${st.uid}: that user could replace the store`;
    if (st.mode & 0o022 && !sticky)
      return (
        `${dir}, a directory above it, is writable by others (mode ${octal(st.mode)}, no sticky bit): ` +
        'they could replace the store'
      );
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * For `verify --store`: the store's own entries that others than its owner could have written (writable by group or
 * everyone, or owned by another user than the store directory), as sentences; the first few and a count.
 */
export function unprotected(store: string): string[] {
  const out: string[] = [];
  const owner = lstatSync(store).uid;
  const look = (path: string, st: Stats): void => {
    if (st.isSymbolicLink()) return;
    const rel = path === store ? 'the store directory' : path.slice(store.length + 1);
    if (st.uid !== owner) out.push(`${rel} is owned by uid ${st.uid}, the store by uid ${owner}`);
    else if (st.mode & 0o022)
      out.push(`${rel} is writable by ${st.mode & 0o002 ? 'every user' : 'its group'} (mode ${octal(st.mode)})`);
  };
  look(store, lstatSync(store));
  for (const name of readdirSync(store)) {
    if (!TOP.some(([re]) => re.test(name))) continue;
    const path = join(store, name);
    const st = lstatSync(path);
    look(path, st);
    if (SHARDED.includes(name) && st.isDirectory())
      for (const shard of readdirSync(path)) look(join(path, shard), lstatSync(join(path, shard)));
  }
  return out;
}

/**
 * Throws StoreUnsafe (one sentence) when the store at the canonical path `store` may not be used. `write`: the run
 * writes the store (the strict rules above); else it only reads it.
 */
export function guardStore(store: string, write: boolean): void {
  const fail = (what: string, why: string): never => {
    throw new StoreUnsafe(
      `${what} ${why}: ${write ? 'refusing to write the store' : 'refusing to read the store'}` +
        (write ? ' (only the user who owns it may write it, and nobody else may be able to)' : ''),
    );
  };
  const top = lstatSync(store);
  const p = entryProblem(top, 'dir', write);
  if (p) fail(store, p);
  if (write) {
    const a = ancestorProblem(store);
    if (a) fail('the store', `lies in ${a}`);
  }
  for (const name of readdirSync(store)) {
    const rule = TOP.find(([re]) => re.test(name));
    if (!rule) continue;
    const path = join(store, name);
    const problem = entryProblem(lstatSync(path), rule[1], write);
    if (problem) fail(path, problem);
    if (!SHARDED.includes(name)) continue;
    for (const shard of readdirSync(path)) {
      const sub = join(path, shard);
      const st = lstatSync(sub);
      // A stray file among the shards is verify's finding; a symlink never passes.
      if (st.isSymbolicLink()) fail(sub, 'is a symlink');
      if (st.isDirectory()) {
        const q = entryProblem(st, 'dir', write);
        if (q) fail(sub, q);
      }
    }
  }
}

/** The modes the store creates: readable by the owner's group (a reviewer's), writable by nobody else. */
export const DIR_MODE = 0o750;
export const FILE_MODE = 0o640;
