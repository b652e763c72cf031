/**
 * The files Claude Code keeps in its home beside the transcripts (home-artifacts.md §3), and the checks that judge
 * them. `~/.claude.json` sits beside `~/.claude/`, so it is listed as `../.claude.json` (read/home-files.ts).
 * `shell-snapshots/` is not judged: its files are named `snapshot-<shell>-<ms>-<random>.sh`, which ties none of them
 * to a session.
 */
import type { HomeCheck } from '../../../checks/define-home.js';
import { CONFIG_FILE } from './config-file.js';
import { claudeConfig } from './config.js';
import { HISTORY_FILE } from './dating.js';
import { claudeFileHistory, FILE_HISTORY } from './file-history.js';
import { claudeHistory } from './history.js';

export const CLAUDE_HOME = {
  files: [HISTORY_FILE, CONFIG_FILE, `${FILE_HISTORY}/*/*`],
  checks: [claudeHistory, claudeConfig, claudeFileHistory] as readonly HomeCheck[],
};
