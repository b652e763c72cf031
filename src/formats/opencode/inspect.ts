/**
 * What `inspect` says about resuming an opencode session (formats/opencode.md §5, §6.2, §6.3, §6.9): there is no
 * resume record, the next prompt appends to the same rows; and, always, that opening the data with opencode itself
 * destroys evidence, so the directory is bundled first.
 */
import type { PairingDialect } from '../../pairing/dialect.js';
import type { InspectTraits } from '../types.js';
import { shellQuote } from '../shared/shell.js';

export const OPENCODE_DESTROYS =
  'opening the data with opencode (any start, even `opencode db "<query>"`) checkpoints the write-ahead log into the ' +
  'database (stale frames may be overwritten), runs the migrations a newer binary carries, which delete rows (the ' +
  'event log, the v2 tables, workspaces) and drop tables (the old permission table), may rewrite project ids and ' +
  'move sessions between projects, re-imports or ignores a JSON tree, and deletes logs and tool outputs past their ' +
  'retention';

export function opencodeInspect(pairing: PairingDialect): InspectTraits {
  return {
    resumeCommand: (id, identity) =>
      `${identity?.cwd !== undefined ? `cd ${shellQuote(identity.cwd)} && ` : ''}opencode --session ` +
      `${shellQuote(identity?.id ?? id)}   # the session updated last; \`opencode session list\` names the ` +
      'others (XDG_DATA_HOME decides which data directory opencode opens)',
    resumeSandbox: () =>
      "no sandbox travels with the session: opencode's permissions are the agent's ruleset from opencode.json, the " +
      "session's own `permission` column (a task child's derived ruleset) and approvals kept in memory only",
    danglingOnResume: (n) => `On resume, ${n} call(s) have no result: ${pairing.unanswered}.`,
    runningSubagents: 'their child sessions keep whatever rows they had; opencode does not resume them by itself',
    damagedOnResume: OPENCODE_DESTROYS,
    replay: (r) => [
      `The sessions' rows: ${r.logLines} row(s), ${r.chatItems} conversation item(s)` +
        (r.danglingCalls
          ? `, with ${r.danglingCalls} tool part(s) left pending or running: a resume sends each to the model as ` +
            '"[Tool execution was interrupted]" (in memory only; the row stays as it is)'
          : '') +
        (r.compactions ? `, ${r.compactions} compaction(s) (the model sees only the summary and what follows)` : '') +
        '. A resume appends the next prompt to the same rows; a pending revert deletes the messages after it at ' +
        'that prompt.',
      `Opening the data with opencode deletes rows and drops tables: ${OPENCODE_DESTROYS}. Bundle first ` +
        '(session-audit bundle), and open only a copy with opencode.',
    ],
  };
}
