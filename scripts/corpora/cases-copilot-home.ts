/**
 * The Copilot CLI home corpora: the clean Copilot tree inside a `.copilot` home, where its session-store.db is read
 * by the home's check too (formats/copilot-cli.md §1.7), which must stay clean (every row of the store has its
 * session); and a home whose store still knows a session whose files were deleted, one of its turns holding a key.
 */
import type { Case, Files } from './case-kit.js';
import { COPILOT_CWD, COPILOT_IDS, COPILOT_T0, copilotCleanTree, copilotTreeWithRows } from './cases-copilot.js';
import { PLANTED } from './secrets.js';

const inHome = (files: Files): Files => new Map([...files].map(([p, c]) => [`.copilot/${p}`, c]));

export function copilotHomeCases(): Case[] {
  return [
    {
      name: 'home-clean',
      description:
        'A clean ~/.copilot home: the clean sessions beside session-store.db, which has a row for every session ' +
        'and as many turns as their logs have prompts. No finding, and no session listed as gone.',
      must: [],
      files: inHome(copilotCleanTree()),
    },
    {
      name: 'home-store-gone',
      description:
        'session-store.db keeps a session whose directory under session-state/ was deleted (/session delete, or by ' +
        'hand): its row and two turns survive, the first holding an API key the user pasted. The store says so ' +
        "(COPILOT_STORE_SESSION_GONE, a note: the store's row outlives a /session delete), the `sessions` list " +
        'shows it gone with its summary, and the key outlives the session in the store (SECRET_IN_HOME, its value ' +
        'never shown).',
      must: ['COPILOT_STORE_SESSION_GONE', 'SECRET_IN_HOME'],
      files: inHome(
        copilotTreeWithRows([
          {
            id: COPILOT_IDS.gone,
            cwd: COPILOT_CWD,
            turns: 2,
            at: new Date(COPILOT_T0 + 2 * 86_400_000).toISOString(),
            summary: 'Configure the staging client',
            texts: [
              [`Use this key for the staging client: ${PLANTED['api-key']!}`, 'The staging client now reads the key.'],
              ['Deploy it to staging.', null],
            ],
          },
        ]),
      ),
    },
  ];
}
