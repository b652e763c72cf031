/**
 * The files Gemini CLI keeps in its home beside the session files (formats/gemini-cli.md §1.3), and the checks that
 * judge them: each project dir's `logs.json` (every line typed, kept when sessions are deleted), the `.bak` copies the
 * CLI leaves when it could not read one, and the project dir's `shell_history` the judge reads with it (shell-mode
 * lines, which are logged and never recorded).
 */
import type { HomeCheck } from '../../../checks/define-home.js';
import { geminiLogs, LOGS_FILES } from './logs.js';

export const GEMINI_HOME = {
  files: LOGS_FILES,
  checks: [geminiLogs] as readonly HomeCheck[],
};
