/** The files Grok Build keeps in its home beside the sessions (home-artifacts.md §1), their checks and views. */
import type { HomeCheck, HomeViews } from '../../../checks/define-home.js';
import { ACTIVE, ACTIVE_TMP, grokActiveSessions } from './active-sessions.js';
import { grantsOfSession, grantsOutsideSessions } from './grants-view.js';
import { grokPermissions, PERMISSION_FILES } from './permissions.js';
import { grokPromptHistory, PROMPT_HISTORY } from './prompt-history.js';
import { grokSandboxEvents, SANDBOX_EVENTS } from './sandbox-events.js';
import { sandboxOfSession, sandboxOutsideSessions } from './sandbox-view.js';
import { grokSearchIndex } from './search-check.js';
import { RELOCATION_FILES, SEARCH_FILES } from './search-files.js';
import { grokWorktrees } from './worktrees.js';
import { WORKTREE_FILES } from './worktrees-db.js';

export const GROK_HOME = {
  files: [
    ...SEARCH_FILES,
    RELOCATION_FILES,
    PROMPT_HISTORY,
    ACTIVE,
    ACTIVE_TMP,
    SANDBOX_EVENTS,
    ...WORKTREE_FILES,
    PERMISSION_FILES,
  ],
  checks: [
    grokSearchIndex,
    grokPromptHistory,
    grokActiveSessions,
    grokSandboxEvents,
    grokWorktrees,
    grokPermissions,
  ] as readonly HomeCheck[],
  // The files that name no session, for a reviewer: the permission stores and the sandbox event log.
  views: {
    session: (ctx, s) => [...grantsOfSession(ctx, s), ...sandboxOfSession(ctx, s)],
    outsideSessions: (ctx) => [...grantsOutsideSessions(ctx), ...sandboxOutsideSessions(ctx)],
  } satisfies HomeViews,
};
