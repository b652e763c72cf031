/** What `inspect` says about resuming a Grok Build session (`grok -r`), and what the resume replays. */
import type { InspectTraits } from '../types.js';
import { shellQuote } from '../shared/shell.js';

export const GROK_INSPECT: InspectTraits = {
  resumeCommand: (id, identity) =>
    `cd ${shellQuote(identity?.cwd ?? '<the session cwd>')} && grok -r ${shellQuote(id)}`,
  resumeSandbox: (identity) =>
    identity?.sandboxProfile
      ? `the saved sandbox profile ${JSON.stringify(identity.sandboxProfile)} applies on resume; an explicit ` +
        `--sandbox ` +
        'with another profile is refused ("cannot resume this session under sandbox profile …")'
      : 'no sandbox profile is recorded: a resume runs under --sandbox, GROK_SANDBOX, the config file, or off, ' +
        'whichever comes first; pass the profile it ran under explicitly',
  danglingOnResume: (n) =>
    `On resume, Grok's repair answers the ${n} dangling call(s) with "Tool execution was cancelled by the user ` +
    '(tool … was not executed)": the model will believe they did not run, whatever actually happened.',
  runningSubagents: '; Grok marks them cancelled on the next load',
  damagedOnResume:
    "Grok's load skips the lines it cannot parse, copies the raw chat_history.jsonl to chat_history.jsonl.corrupt " +
    '(only the first time) and rewrites it without them; the resume then appends to the logs, after any torn last ' +
    'line (the two merge)',
  replay: (r) => [
    `The model's history: ${r.chatItems} item(s) of chat_history.jsonl` +
      (r.skippedLines ? ` (${r.skippedLines} damaged line(s) are skipped on load: the model will not see them)` : '') +
      (r.danglingCalls
        ? `, with ${r.danglingCalls} dangling call(s) that Grok's repair will answer as cancelled`
        : '') +
      '.',
    `The UI replay: ${r.logLines} line(s) of updates.jsonl, ${r.liveTurns} prompt turn(s) on the live branch` +
      (r.rewinds ? ` after ${r.rewinds} rewind(s)` : '') +
      (r.compactions ? `, ${r.compactions} compaction(s)` : '') +
      '.',
  ],
};
