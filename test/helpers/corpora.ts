/** The corpora cases and a way to materialise one (with its setup steps) in a scratch copy. */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Setup } from '../../scripts/corpora/case-kit.js';
import { fsPath } from '../../src/read/names.js';

export const CORPORA = fileURLToPath(new URL('../../corpora', import.meta.url));

export interface Expected {
  description: string;
  command?: 'inspect' | 'verify' | 'verify-store';
  target?: string;
  args?: string[];
  setup?: Setup[];
  must: string[];
  mustNot: string[];
  maxSeverity?: 'warning' | 'note';
  onlyAt?: string[];
  at?: Array<{ code: string; file: string; session?: string; line?: number; severity?: string }>;
}

export interface CorpusCase {
  format: string;
  name: string;
  dir: string;
  expected: Expected;
}

export function corpusCases(): CorpusCase[] {
  const out: CorpusCase[] = [];
  for (const format of readdirSync(CORPORA).sort()) {
    const fdir = join(CORPORA, format);
    for (const name of readdirSync(fdir).sort()) {
      const dir = join(fdir, name);
      if (!existsSync(join(dir, 'expected.json'))) continue;
      out.push({
        format,
        name,
        dir,
        expected: JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected,
      });
    }
  }
  return out;
}

/**
 * The directory to audit: the case itself, or a scratch copy with the setup applied (FIFOs and modes git cannot
 * store). A store is always a scratch copy with nothing writable by others than its owner: a checkout's modes follow
 * the umask, and a store others may write is a finding of its own.
 */
export function materialise(c: CorpusCase): string {
  const store = c.expected.command === 'verify-store';
  if (!c.expected.setup?.length && !store) return c.dir;
  const dir = mkdtempSync(join(tmpdir(), `sa-${c.name}-`));
  cpSync(c.dir, dir, { recursive: true, verbatimSymlinks: true });
  if (store) execFileSync('chmod', ['-R', 'go-w', dir]);
  for (const step of c.expected.setup ?? []) {
    if ('mkfifo' in step) execFileSync('mkfifo', [join(dir, step.mkfifo)]);
    else if ('rename' in step) renameSync(join(dir, step.rename), fsPath(join(dir, step.to)));
    else execFileSync('chmod', [step.mode, join(dir, step.chmod)]);
  }
  return dir;
}
