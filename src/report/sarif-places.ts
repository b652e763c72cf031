/**
 * Where SARIF says a file is: a relative URI under a base id (`uriBaseId`), with each base's absolute location in
 * `run.originalUriBaseIds`, so code scanning can place a result however far the sessions are from the repository.
 * The base is `--sarif-root DIR` when given (every input must be under it), else the working directory when every
 * input is under it (`%SRCROOT%`), else each input's own directory (`INPUT1`, `INPUT2`, …).
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface SarifPlaces {
  /** The working directory (absolute). */
  cwd: string;
  /** The directories of the inputs as the command line gave them (an input file: the directory holding it). */
  inputs: readonly string[];
  /** `--sarif-root`, as given. */
  root?: string;
  /** Leave the bases' absolute locations out (an example report that must not depend on where it was made). */
  portable?: boolean;
}

export interface SarifBases {
  /** `run.originalUriBaseIds`. */
  originalUriBaseIds: Record<string, { uri?: string; description: { text: string } }>;
  /**
   * The artifact location of a path (as the report shows it: relative to the working directory, or absolute); a
   * directory's URI ends in `/`.
   */
  locate(path: string, isDir?: boolean): { uri: string; uriBaseId?: string };
}

/** `child` is `parent` or lies below it (both absolute). */
export function isUnder(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** A relative path as a URI reference: each segment percent-encoded (Grok's group names hold `%`). */
export function pathUri(rel: string): string {
  return rel
    .split(sep)
    .map((s) => (s === '.' || s === '..' ? s : encodeURIComponent(s)))
    .join('/');
}

const dirUri = (abs: string): string => {
  const href = pathToFileURL(abs).href;
  return href.endsWith('/') ? href : `${href}/`;
};

/** The input (if any) that is not under `root`, for `--sarif-root` checks. */
export function inputOutside(places: SarifPlaces): string | undefined {
  if (places.root === undefined) return undefined;
  const root = resolve(places.cwd, places.root);
  return places.inputs.find((i) => !isUnder(resolve(places.cwd, i), root));
}

export function sarifBases(places: SarifPlaces): SarifBases {
  const abs = (p: string): string => resolve(places.cwd, p);
  const inputs = places.inputs.map(abs);
  let bases: Array<{ id: string; dir: string; what: string }>;
  if (places.root !== undefined)
    bases = [{ id: '%SRCROOT%', dir: abs(places.root), what: 'the directory given with --sarif-root' }];
  else if (inputs.every((i) => isUnder(i, places.cwd)))
    bases = [{ id: '%SRCROOT%', dir: places.cwd, what: 'the working directory of the run' }];
  else {
    // One base per distinct input, longest first so the deepest input that holds a path wins.
    const seen = new Set<string>();
    bases = [];
    places.inputs.forEach((given, k) => {
      const dir = inputs[k]!;
      if (seen.has(dir)) return;
      seen.add(dir);
      bases.push({ id: `INPUT${bases.length + 1}`, dir, what: `the input ${given}` });
    });
  }
  const byDepth = [...bases].sort((a, b) => b.dir.length - a.dir.length);
  return {
    originalUriBaseIds: Object.fromEntries(
      bases.map((b) => [
        b.id,
        places.portable ? { description: { text: b.what } } : { uri: dirUri(b.dir), description: { text: b.what } },
      ]),
    ),
    locate(path, isDir = false) {
      const p = abs(path);
      const base = byDepth.find((b) => isUnder(p, b.dir));
      if (!base) return { uri: isDir ? dirUri(p) : pathToFileURL(p).href };
      const rel = pathUri(relative(base.dir, p));
      return { uri: isDir ? (rel === '' ? './' : `${rel}/`) : rel, uriBaseId: base.id };
    },
  };
}
