/** The files Grok Build keeps in its home beside the sessions (home-artifacts.md §1), and their checks. */
import type { HomeCheck } from '../../../checks/define-home.js';
import { ACTIVE, ACTIVE_TMP, grokActiveSessions } from './active-sessions.js';
import { grokPromptHistory, PROMPT_HISTORY } from './prompt-history.js';
import { grokSearchIndex } from './search-check.js';
import { RELOCATION_FILES, SEARCH_FILES } from './search-files.js';

export const GROK_HOME = {
  files: [...SEARCH_FILES, RELOCATION_FILES, PROMPT_HISTORY, ACTIVE, ACTIVE_TMP],
  checks: [grokSearchIndex, grokPromptHistory, grokActiveSessions] as readonly HomeCheck[],
};
