/**
 * What a command may do to the outside world; main() supplies the process, tests supply buffers. The process's
 * standard output is written with blocking writes to fd 1 (a pipe's reader sets the pace, memory stays flat); a
 * reader that went away ends the run quietly (OutputClosed), a full disk is one line and exit 2.
 */
import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { OutputClosed, UsageError } from '../errors.js';

export interface Io {
  stdout(s: string): void;
  stderr(s: string): void;
  setExitCode(code: number): void;
  /** Standard output is a terminal (colour by default). */
  isTTY: boolean;
  /** stderr is a terminal and CI is not set: progress may be drawn there. */
  progress?: boolean;
  /** Width for tables and help: $COLUMNS, else the terminal's, else 120. */
  columns: number;
  /** NO_COLOR is set: no colour unless --color (or FORCE_COLOR). */
  noColor?: boolean;
  /** FORCE_COLOR: true (set, not 0 or false) colours even a pipe, false (0 or false) never colours; --color wins. */
  forceColor?: boolean;
}

const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** Write all of `s` to `fd`, waiting out a non-blocking descriptor's EAGAIN. */
function writeAll(fd: number, s: string): void {
  const buf = Buffer.from(s, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(SLEEP, 0, 0, 2);
    }
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EFBIG: 'file too large',
};

export function stdoutWriter(fd = 1): (s: string) => void {
  return (s) => {
    try {
      writeAll(fd, s);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? 'EIO';
      if (code === 'EPIPE' || code === 'EBADF') throw new OutputClosed();
      throw new UsageError(`cannot write to standard output: ${REASONS[code] ?? code} (${code})`);
    }
  };
}

/** $COLUMNS when it is a number, else the width of the terminal on stdout (or stderr), else 120. */
export function terminalColumns(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  // process.stdout is touched only for a terminal: for a pipe it would switch fd 1 to non-blocking writes.
  if (isatty(1) && process.stdout.columns) return process.stdout.columns;
  if (isatty(2) && process.stderr.columns) return process.stderr.columns;
  return 120;
}

/** FORCE_COLOR as chalk reads it: unset or empty says nothing; 0 or false turns colour off; anything else on. */
export function forceColor(v: string | undefined): { forceColor?: boolean } {
  if (v === undefined || v === '') return {};
  return { forceColor: v !== '0' && v !== 'false' };
}

export function processIo(): Io {
  const out = stdoutWriter(1);
  return {
    stdout: out,
    stderr: (s) => {
      try {
        writeAll(2, s);
      } catch {
        // Nowhere left to say it.
      }
    },
    setExitCode: (c) => {
      process.exitCode = c;
    },
    isTTY: isatty(1),
    progress: isatty(2) && !process.env.CI,
    columns: terminalColumns(),
    noColor: process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '',
    ...forceColor(process.env.FORCE_COLOR),
  };
}
