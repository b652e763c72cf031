/**
 * The files Claude Code keeps in its home beside the transcripts (home-artifacts.md §3), and the checks that judge
 * them. `~/.claude.json` sits beside `~/.claude/`, so it is listed as `../.claude.json` (read/home-files.ts).
 * `shell-snapshots/` is not judged: its files are named `snapshot-<shell>-<ms>-<random>.sh`, which ties none of them
 * to a session. File versions and `.claude.json` are judged, inventoried and hashed, never bagged.
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
  // Copies of the user's files before an edit, and a config that holds the account and MCP servers' settings.
  withheld: [CONFIG_FILE, `${FILE_HISTORY}/*/*`],
};
