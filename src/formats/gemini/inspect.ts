/**
 * What `inspect` says about resuming a Gemini CLI session: `gemini --resume <id>` from the project directory, what a
 * resume writes (§6.2), and, always, that starting the CLI at all may delete these files (§2.7): bundle or archive
 * first.
 */
import { logSessionInspect } from '../shared/inspect.js';
import type { PairingDialect } from '../../pairing/dialect.js';
import type { InspectTraits } from '../types.js';

export const GEMINI_DESTROYS =
  'Starting Gemini CLI on this machine (any start, even gemini --list-sessions) may delete these files: its ' +
  'retention cleanup removes sessions older than 30 days, files with no real prompt or that it cannot load, and ' +
  "every file sharing such a file's 8-character id prefix; it also rewrites the previous session in place (a " +
  'summary appended to a .jsonl, a legacy .json rewritten whole)';

const RESUME_WRITES =
  'A resume appends to the original file: a second metadata line (or a stray context-only file named for the ' +
  'current minute, which the next start deletes together with the original), {"$set":{"sessionId":…}} and a full ' +
  'snapshot of the history, which leaves out info, error and warning messages; a legacy .json is migrated to a new ' +
  '.jsonl beside it';

export function geminiInspect(pairing: PairingDialect): InspectTraits {
  const base = logSessionInspect(pairing, 'gemini --resume', `${GEMINI_DESTROYS}. Bundle first`);
  return {
    ...base,
    resumeSandbox: () =>
      'Gemini CLI records no approval mode (default, auto_edit, yolo, plan) and no sandbox with a session: a resume ' +
      'runs under the flags and settings.json it is started with',
    replay: (r) => [
      ...base.replay(r),
      `${RESUME_WRITES}.`,
      `${GEMINI_DESTROYS}. Bundle or archive first (session-audit bundle / archive), and run Gemini CLI only on a ` +
        'copy, with GEMINI_CLI_HOME pointing elsewhere.',
    ],
  };
}
