/** What `inspect` says about agents whose session is one log (no policy travels with it; a resume command by id). */
import type { PairingDialect } from '../../pairing/dialect.js';
import type { InspectTraits } from '../types.js';
import { shellQuote } from './shell.js';

/** `resume(id)`: the agent's resume command for a session id (unquoted; the id is quoted here). */
export function logSessionInspect(pairing: PairingDialect, resume: string, damagedOnResume: string): InspectTraits {
  return {
    resumeCommand: (id, identity) => {
      const cd = identity?.cwd !== undefined ? `cd ${shellQuote(identity.cwd)} && ` : '';
      return `${cd}${resume} ${shellQuote(identity?.id ?? id)}`;
    },
    resumeSandbox: (_identity, lastPolicy) =>
      'no policy travels with the session: a resume runs under the flags and configuration it is started with' +
      (lastPolicy !== undefined ? `; the session last ran under ${lastPolicy}` : ''),
    danglingOnResume: (n) => `On resume, ${n} dangling call(s) have no result: ${pairing.unanswered}.`,
    runningSubagents: '',
    damagedOnResume,
    replay: (r) => [
      `The transcript: ${r.logLines} line(s), ${r.chatItems} conversation item(s)` +
        (r.danglingCalls ? `, with ${r.danglingCalls} call(s) that have no result` : '') +
        (r.skippedLines
          ? ` (${r.skippedLines} damaged line(s) are skipped on load: the model will not see them)`
          : '') +
        `, ${r.liveTurns} prompt turn(s) on the live branch` +
        (r.rewinds ? ` after ${r.rewinds} rewind(s)` : '') +
        (r.compactions ? `, ${r.compactions} compaction(s)` : '') +
        '.',
    ],
  };
}
