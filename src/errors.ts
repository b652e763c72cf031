/** The one error policy: usage problems are one line and exit 2; anything else is a bug, exit 3. */

/** A problem with what the user asked for (a flag, a path, an unusable input): one line on stderr, exit 2. */
export class UsageError extends Error {}

/**
 * The reader of standard output went away (`| head`, a closed pipe): the run ends quietly, with the exit code the
 * command already set from its findings. Thrown by the output writer, caught by main().
 */
export class OutputClosed extends Error {
  constructor() {
    super('standard output was closed');
  }
}

/** `notSafe`: `inspect` only, a resume is not safe (a mutating call in flight, conversation lines the loader drops). */
export const EXIT = { ok: 0, findings: 1, usage: 2, internal: 3, notSafe: 4 } as const;

export function reportError(e: unknown, stderr: (s: string) => void): number {
  if (e instanceof UsageError) {
    stderr(`session-audit: ${e.message}\n`);
    return EXIT.usage;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  stderr(
    `session-audit: internal error: ${err.message}\n${err.stack ?? ''}\n` +
      'This is a bug in session-audit; please report it with the command line and the stack above.\n',
  );
  return EXIT.internal;
}
