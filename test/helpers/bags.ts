/** Bags made by `bundle` in a scratch directory: unpacking them, reading every member, rebuilding tag manifests. */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BAGIT_PYTHON = fileURLToPath(
  new URL('../../../shared/tools/bagit-python/bagit-validate', import.meta.url),
);

/** python3 can run (the vendored bagit-python and zip extraction need it). */
export const hasPython = spawnSync('python3', ['--version']).status === 0;

/** Unpack a bag archive (zip, tar, tgz) into `dir`; a directory bag is returned as it is. */
export function unpack(bag: string, dir: string): string {
  if (statSync(bag).isDirectory()) return bag;
  mkdirSync(dir, { recursive: true });
  if (bag.endsWith('.zip')) {
    if (hasPython) execFileSync('python3', ['-m', 'zipfile', '-e', bag, dir]);
    else execFileSync('unzip', ['-q', bag, '-d', dir]);
  } else execFileSync('tar', ['-xf', bag, '-C', dir]);
  return dir;
}

/** Every regular file under `dir`, as bag-relative paths, sorted. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out.sort();
}

/** Rewrite both tag manifests of a directory bag from the files as they are now (what a forger does). */
export function rebuildTagManifests(dir: string): void {
  const tags = filesUnder(dir).filter((f) => !f.startsWith('data/') && !/^tagmanifest-/.test(f));
  for (const alg of ['sha256', 'sha512']) {
    const lines = tags.map(
      (f) =>
        `${createHash(alg)
          .update(readFileSync(join(dir, f)))
          .digest('hex')}  ${f}\n`,
    );
    writeFileSync(join(dir, `tagmanifest-${alg}.txt`), lines.join(''));
  }
}

/** bagit-python's verdict on an unpacked bag: exit status and what it printed. */
export function bagitPython(dir: string): { ok: boolean; output: string } {
  const r = spawnSync('python3', [BAGIT_PYTHON, '--validate', dir], { encoding: 'utf8' });
  return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
}

export const bagitPythonPresent = hasPython && existsSync(BAGIT_PYTHON);
