/**
 * What `inspect` says about resuming a Copilot CLI session (formats/copilot-cli.md §3.5, §6.1, §6.4):
 * `copilot --resume <id>` from its cwd; what a resume replays; and, always, that opening the session in the CLI
 * changes the evidence (workspace.yaml, the store and a lock rewritten, the session possibly synced to the cloud,
 * new lines appended after a torn tail), so it is bundled first; and that the permission flags it ran with are not
 * recorded.
 */
import type { PairingDialect } from '../../pairing/dialect.js';
import { logSessionInspect } from '../shared/inspect.js';
import type { InspectTraits } from '../types.js';
import { STORE_ID } from './artifacts.js';

export const COPILOT_REWRITES =
  'opening a session in Copilot CLI (--resume, --continue, /resume) rewrites workspace.yaml (updated_at, its git ' +
  'context, the mc_* cloud fields), updates session-store.db and its -wal, creates an inuse.<pid>.lock, may upload ' +
  'the session to your GitHub account (remote export is on by default), and appends new lines to events.jsonl ' +
  'right after a torn last line (the two then read as one damaged line); /rewind and /undo truncate the log';

const PERMISSIONS =
  'the permission flags a session ran with (--allow-all-tools, --allow-tool, --yolo, COPILOT_ALLOW_ALL) are never ' +
  'recorded in the log: a resume runs under the flags, trusted folders (config.json) and saved approvals ' +
  '(permissions-config.json) it is started with; only prompts shown to the user (permission.* lines, CLI 1.0.40 ' +
  'and later) and permission mode changes (session.permissions_changed, 1.0.55 and later) are in the log';

export function copilotInspect(pairing: PairingDialect): InspectTraits {
  const base = logSessionInspect(pairing, 'copilot --resume', COPILOT_REWRITES);
  return {
    ...base,
    resumeCommand: (id, identity) =>
      id === STORE_ID
        ? 'session-store.db is not a session: copilot --resume <id> resumes each session it lists'
        : base.resumeCommand(id, identity),
    resumeSandbox: (_identity, lastPolicy) =>
      PERMISSIONS + (lastPolicy !== undefined ? `; the log last recorded ${lastPolicy}` : ''),
    replay: (r) => [
      ...base.replay(r),
      'A resume reads events.jsonl from its first line (it refuses the session if any line does not parse, or if ' +
        'line 1 is not session.start), appends session.resume, then the new turn; calls left without a result are ' +
        'completed in memory, not in the file.',
      `Bundle first (session-audit bundle), and open only a copy: ${COPILOT_REWRITES}.`,
    ],
  };
}
