/**
 * HOME_UNEXPECTED_NAME (checks/home-names.ts): a Grok home holding a prompt history in a cwd group whose name is not
 * valid UTF-8. Git (and some file systems) cannot keep such a name, so the case ships the group as `proj-raw` and a
 * setup step renames it to `proj\xff` in the test's copy.
 */
import type { Case } from './case-kit.js';
import { grokHomeParts, renderGrokHome } from './cases-grok-home.js';

const SHIPPED = '.grok/sessions/proj-raw';

export function homeNameCases(): Case[] {
  const files = renderGrokHome(grokHomeParts());
  const line = { timestamp: '2026-08-19T09:00:00.000000Z', session_id: 'x', prompt: 'hi', is_bash: false };
  files.set(`${SHIPPED}/prompt_history.jsonl`, `${JSON.stringify(line)}\n`);
  return [
    {
      name: 'home-unexpected-name',
      description:
        'A cwd group of the Grok home named with a byte that is not valid UTF-8 (`proj\\xff`, made by the setup ' +
        'step) holds a prompt_history.jsonl: no agent writes such a name. The home reports it, inventoried and ' +
        "hashed, and Grok's own checks do not read it as a history; the walk reports the group itself as a " +
        'directory it does not open (SESSION_UNREADABLE).',
      must: ['HOME_UNEXPECTED_NAME', 'SESSION_UNREADABLE'],
      files,
      setup: [{ rename: SHIPPED, to: '.grok/sessions/proj\\xff' }],
    },
  ];
}
