/**
 * Writing a command's output: to standard output, or to `--output FILE` without ever writing through a link into
 * evidence. FILE is refused when it is a symlink, not a regular file, has other hard links, or is (or lies inside)
 * an input, compared by device and inode, not by path, so a bind mount, a `..` or a symlinked parent cannot hide
 * it. The text goes to a new file created beside FILE (O_CREAT|O_EXCL|O_NOFOLLOW), which is renamed over FILE only
 * when complete, after the same checks are made again: an existing FILE is replaced as a directory entry, never
 * written into, and a failed run leaves it as it was. Output is written as it is produced, in chunks, so a command
 * that streams a million rows holds only one chunk.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

/** A checked `--output` path. */
export interface OutputTarget {
  /** As the user gave it (for messages). */
  given: string;
  /** The real directory it goes into, and its identity when checked. */
  dir: string;
  dirId: string;
  /** The file name in that directory. */
  name: string;
  /** Identities of the inputs (and of everything they are): nothing inside them is ever written. */
  inputs: ReadonlyMap<string, string>;
}

const id = (st: Stats): string => `${st.dev}:${st.ino}`;

const errno = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? 'EIO';

/** Identity of each input (the path itself and, for a symlink given as input, what it names), by input path. */
function inputIds(inputs: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const input of inputs) {
    for (const st of [() => lstatSync(input), () => statSync(input)]) {
      try {
        ids.set(id(st()), input);
      } catch {
        // A missing input is the command's own error to report.
      }
    }
  }
  return ids;
}

/** The input `dir` is, or lies inside (walking up by identity to the root), if any. */
function insideInput(dir: string, inputs: ReadonlyMap<string, string>): string | undefined {
  let cur = dir;
  for (;;) {
    const hit = inputs.get(id(statSync(cur)));
    if (hit !== undefined) return hit;
    const up = dirname(cur);
    if (up === cur) return undefined;
    cur = up;
  }
}

/** What is wrong with the existing entry at `path` as an output target (undefined: nothing, or no entry). */
function targetProblem(path: string, inputs: ReadonlyMap<string, string>): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (e) {
    if (errno(e) === 'ENOENT') return undefined;
    return `cannot be examined (${errno(e)})`;
  }
  if (st.isSymbolicLink()) return 'is a symlink: refusing to write through it (give the path of a new file)';
  if (!st.isFile())
    return 'is not a regular file (a directory, device, FIFO or socket): write to standard output instead';
  const input = inputs.get(id(st));
  if (input !== undefined) return `is the input ${input} (evidence is never modified)`;
  if (st.nlink > 1)
    return (
      `has ${st.nlink - 1} other hard link${st.nlink === 2 ? '' : 's'}, which may be evidence: ` +
      'refusing to replace it'
    );
  return undefined;
}

/**
 * For a writer that checks its target itself (bundle: a bag may be a directory): refuse a path that is inside an
 * input, by identity. The real path to write.
 */
export function checkOutputPath(file: string, inputs: readonly string[]): string {
  const ids = inputIds(inputs);
  let dir: string;
  try {
    dir = realpathSync(dirname(resolve(file)));
  } catch {
    throw new UsageError(`--output ${file}: the directory ${dirname(file)} does not exist`);
  }
  const input = insideInput(dir, ids);
  if (input !== undefined)
    throw new UsageError(
      `--output ${file}: refusing to write inside the input directory ${input} (evidence is never modified)`,
    );
  const target = join(dir, basename(resolve(file)));
  try {
    const hit = ids.get(id(lstatSync(target)));
    if (hit !== undefined) throw new UsageError(`--output ${file}: is the input ${hit} (evidence is never modified)`);
  } catch (e) {
    if (e instanceof UsageError) throw e;
  }
  return target;
}

/** Check `--output FILE` against the inputs; the target to open later, or a one-line usage error. */
export function checkOutputFile(file: string, inputs: readonly string[]): OutputTarget {
  const ids = inputIds(inputs);
  const parent = dirname(resolve(file));
  let dir: string;
  let dirSt: Stats;
  try {
    dir = realpathSync(parent);
    dirSt = statSync(dir);
  } catch {
    throw new UsageError(`--output ${file}: the directory ${dirname(file)} does not exist`);
  }
  if (!dirSt.isDirectory()) throw new UsageError(`--output ${file}: ${dirname(file)} is not a directory`);
  const name = basename(resolve(file));
  const input = insideInput(dir, ids);
  if (input !== undefined)
    throw new UsageError(
      `--output ${file}: refusing to write inside the input directory ${input} (evidence is never modified)`,
    );
  const problem = targetProblem(join(dir, name), ids);
  if (problem) throw new UsageError(`--output ${file}: ${problem}`);
  return { given: file, dir, dirId: id(dirSt), name, inputs: ids };
}

/** Where a command's text goes, chunk by chunk. `end` commits it; `abort` leaves no trace. */
export interface Output {
  write(s: string): void;
  end(): void;
  abort(): void;
}

const CHUNK = 64 * 1024;

/** Buffer small writes into chunks of about 64 KiB. */
function chunked(flush: (s: string) => void): { write(s: string): void; drain(): void } {
  let parts: string[] = [];
  let size = 0;
  const drain = (): void => {
    if (size === 0) return;
    const s = parts.length === 1 ? parts[0]! : parts.join('');
    parts = [];
    size = 0;
    flush(s);
  };
  return {
    write(s) {
      if (s.length === 0) return;
      parts.push(s);
      size += s.length;
      if (size >= CHUNK) drain();
    },
    drain,
  };
}

function fileOutput(t: OutputTarget): Output {
  const tmp = join(t.dir, `.${t.name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const fail = (what: string, e: unknown): never => {
    throw new UsageError(`--output ${t.given}: ${what} (${errno(e)})`);
  };
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o666);
  } catch (e) {
    return fail('cannot create a file in its directory', e);
  }
  let open = true;
  const cleanup = (): void => {
    if (open) {
      open = false;
      try {
        closeSync(fd);
      } catch {
        /* already gone */
      }
    }
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
  };
  const buf = chunked((s) => {
    const b = Buffer.from(s, 'utf8');
    let off = 0;
    try {
      while (off < b.length) off += writeSync(fd, b, off, b.length - off);
    } catch (e) {
      cleanup();
      fail('cannot write', e);
    }
  });
  return {
    write: (s) => buf.write(s),
    end() {
      buf.drain();
      try {
        fsyncSync(fd);
        const mine = fstatSync(fd);
        closeSync(fd);
        open = false;
        // Again, now: the directory is still the one checked, the new file is in it, FILE is still acceptable.
        const dirNow = statSync(t.dir);
        if (id(dirNow) !== t.dirId) throw new UsageError(`--output ${t.given}: its directory changed during the run`);
        if (id(lstatSync(tmp)) !== id(mine))
          throw new UsageError(`--output ${t.given}: the file being written was replaced during the run`);
        const problem = targetProblem(join(t.dir, t.name), t.inputs);
        if (problem) throw new UsageError(`--output ${t.given}: ${problem}`);
        renameSync(tmp, join(t.dir, t.name));
      } catch (e) {
        cleanup();
        if (e instanceof UsageError) throw e;
        fail('cannot write', e);
      }
    },
    abort: cleanup,
  };
}

/** Open the output: the file target, or standard output through `stdout`. */
export function openOutput(target: OutputTarget | undefined, stdout: (s: string) => void): Output {
  if (target) return fileOutput(target);
  const buf = chunked(stdout);
  return { write: (s) => buf.write(s), end: () => buf.drain(), abort: () => {} };
}

/** Run `produce` with an open output: committed when it returns, removed when it throws. */
export function withOutput<T>(
  target: OutputTarget | undefined,
  stdout: (s: string) => void,
  produce: (out: Output) => T,
): T {
  const out = openOutput(target, stdout);
  let result: T;
  try {
    result = produce(out);
  } catch (e) {
    out.abort();
    throw e;
  }
  out.end();
  return result;
}

/** The whole text at once. */
export function writeOutput(text: string, target: OutputTarget | undefined, stdout: (s: string) => void): void {
  withOutput(target, stdout, (out) => out.write(text));
}
