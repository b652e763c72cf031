/**
 * What a command leaves out: an entry discovery found but could not open (a directory that cannot be listed, one
 * below the deepest level searched, a session directory that is a symlink, a log no agent claimed because it cannot
 * be read). Audit reports each as a finding; every other command that walks a tree names them too, so that nothing
 * is left out in silence.
 */
import type { FoundSession } from './found.js';

export interface NotRead {
  /** The entry as the user's paths name it. */
  path: string;
  /** Why it was not read. */
  why: string;
  /** A file (a log that cannot be read), not a directory. */
  file?: boolean;
}

/** Why `f` was not read, or undefined when it was (or will be) read. */
export function whyNotRead(f: FoundSession): string | undefined {
  if (f.unreachable !== undefined) return `could not be opened: ${f.unreachable}`;
  if (f.notSearched !== undefined) return `not searched: ${f.notSearched}`;
  if (f.symlinkTarget !== undefined) return 'a symlink (never followed)';
  return undefined;
}

export function notRead(found: readonly FoundSession[]): NotRead[] {
  return found.flatMap((f) => {
    const why = whyNotRead(f);
    if (why === undefined) return [];
    return [f.members && f.unreachable !== undefined ? { path: f.display, why, file: true } : { path: f.display, why }];
  });
}

/** Lines for stderr: what `what` (e.g. "the lineage") leaves out, one entry per line. */
export function notReadLines(gaps: readonly NotRead[], what: string): string {
  if (gaps.length === 0) return '';
  const one = gaps.length === 1;
  const files = gaps.filter((g) => g.file).length;
  const noun =
    files === 0 ? (one ? 'directory' : 'directories') : files === gaps.length ? (one ? 'file' : 'files') : 'entries';
  const head = `session-audit: ${gaps.length} ${noun} not read, so not in ${what} (audit reports each as a finding):\n`;
  return head + gaps.map((g) => `  ${g.path}: ${g.why}\n`).join('');
}
