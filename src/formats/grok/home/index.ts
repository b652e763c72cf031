/** The files Grok Build keeps in its home beside the sessions (home-artifacts.md §1), and their checks. */
import type { HomeCheck } from '../../../checks/define-home.js';
import { grokSearchIndex } from './search-check.js';
import { RELOCATION_FILES, SEARCH_FILES } from './search-files.js';

export const GROK_HOME = {
  files: [...SEARCH_FILES, RELOCATION_FILES],
  checks: [grokSearchIndex] as readonly HomeCheck[],
};
