/**
 * SECRET_IN_SESSION: a Grok session whose prompts hold one secret of each kind the detectors know, and an answer
 * that streams a key split across two chunk lines. Every occurrence in updates.jsonl is expected where it is.
 */
import { GrokSession } from './grok-builder.js';
import { lineOf, type Case, type Expectation } from './case-kit.js';
import { PLANTED } from './secrets.js';

const ID = '019a4000-5ec0-7000-8000-00000000c001';
const DIR = `sessions/%2Fhome%2Fdev%2Fvault/${ID}`;
/** A key the answer streams in two chunks: neither chunk alone holds it. */
const SPLIT_KEY = `sk-ant-api03-${'Q7'.repeat(20)}`;
/** A key in a tool call's arguments. */
export const TOOL_KEY = `ghp_${'Zq'.repeat(18)}`;

export function secretCases(): Case[] {
  const s = new GrokSession({
    id: ID,
    cwd: '/home/dev/vault',
    startMs: Date.UTC(2026, 3, 2, 9, 0, 0),
    sandboxProfile: 'workspace',
  });
  for (const [kind, secret] of Object.entries(PLANTED)) {
    s.prompt(`(${kind} case) Use this to configure the client: ${secret}`).say('Configured.').endTurn('end_turn');
  }
  s.prompt('Export the GitHub token for the release script.')
    .tools('', [
      {
        id: 'call_export_token',
        name: 'run_terminal_cmd',
        title: 'Export the token',
        kind: 'execute',
        args: { command: `export GH_TOKEN=${TOOL_KEY} && ./release.sh` },
        output: 'released',
      },
    ])
    .say('Released.')
    .endTurn('end_turn');
  s.prompt('Print the deploy key you generated.')
    .sayInChunks([`The key is ${SPLIT_KEY.slice(0, 16)}`, `${SPLIT_KEY.slice(16)} and it is live.`])
    .endTurn('end_turn');
  const files = s.render();
  const updates = files.get('updates.jsonl') as string;
  const at: Expectation[] = Object.keys(PLANTED).map((kind) => ({
    code: 'SECRET_IN_SESSION',
    file: 'updates.jsonl',
    line: lineOf(updates, new RegExp(`\\(${kind} case\\)`)),
    severity: 'warning',
  }));
  at.push({
    code: 'SECRET_IN_SESSION',
    file: 'updates.jsonl',
    line: lineOf(updates, /"sessionUpdate":"tool_call","toolCallId":"call_export_token"/),
    severity: 'warning',
  });
  at.push({
    code: 'SECRET_IN_SESSION',
    file: 'updates.jsonl',
    line: lineOf(updates, /and it is live/),
    severity: 'warning',
  });
  return [
    {
      name: 'secret-in-session',
      description:
        'Each prompt holds one kind of secret (a PEM private key, a JWT, an xAI key, an Authorization header, a ' +
        'Cookie header, an OPENAI_API_KEY= assignment, a password in a postgres:// URI, a password= assignment); a ' +
        'tool call exports a GitHub token in its arguments; the ' +
        'last answer streams an Anthropic key split across two chunk lines. One finding per occurrence (the chat ' +
        'history holds them too), never the value.',
      must: ['SECRET_IN_SESSION'],
      at,
      files: new Map([...files].map(([p, c]) => [`${DIR}/${p}`, c])),
    },
  ];
}
