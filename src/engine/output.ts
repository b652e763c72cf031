/** Writing the report: stdout, or a file that must never be inside the evidence. */
import { realpathSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import { UsageError } from '../errors.js';

function resolveTarget(file: string): string {
  let dir: string;
  try {
    dir = realpathSync(dirname(file));
  } catch {
    throw new UsageError(`--output ${file}: the directory ${dirname(file)} does not exist`);
  }
  return join(dir, basename(file));
}

const inside = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** Refuse an output path inside any of the input directories: evidence is read-only. */
export function checkOutputPath(file: string, inputs: readonly string[]): string {
  const target = resolveTarget(file);
  for (const input of inputs) {
    let abs: string;
    try {
      abs = realpathSync(input);
    } catch {
      continue;
    }
    if (inside(target, abs))
      throw new UsageError(
        `--output ${file}: refusing to write inside the input directory ${input} (evidence is never modified)`,
      );
  }
  return target;
}

export function writeOutput(text: string, file: string | undefined, stdout: (s: string) => void): void {
  if (file === undefined) {
    stdout(text);
    return;
  }
  try {
    writeFileSync(file, text);
  } catch (e) {
    throw new UsageError(`--output ${file}: cannot write (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
