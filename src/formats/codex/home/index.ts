/** The files Codex keeps in its home beside the rollouts (home-artifacts.md §2), and the checks that judge them. */
import type { HomeCheck } from '../../../checks/define-home.js';
import { codexHistory, HISTORY } from './history.js';
import { codexSessionIndex, SESSION_INDEX } from './session-index.js';
import { codexStateDb } from './state-check.js';
import { STATE_DB } from './state-db.js';

export const CODEX_HOME = {
  // Never the -shm: SQLite rebuilds it from the WAL, and it is not copied.
  files: [STATE_DB, `${STATE_DB}-wal`, `${STATE_DB}-journal`, SESSION_INDEX, HISTORY],
  checks: [codexStateDb, codexSessionIndex, codexHistory] as readonly HomeCheck[],
};
