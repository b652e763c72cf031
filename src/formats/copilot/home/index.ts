/**
 * The files Copilot CLI keeps in its home beside the sessions that a home check reads (formats/copilot-cli.md
 * §1.7): `session-store.db` with its `-wal` (never the `-shm`: SQLite rebuilds it, and it is not copied), and the
 * `-journal` the store's own reader copies too. The store is also a session of this audit (artifacts.ts).
 */
import type { HomeCheck } from '../../../checks/define-home.js';
import { STORE } from '../artifacts.js';
import { copilotStoreHome } from './store-check.js';

export const COPILOT_HOME = {
  files: [STORE, `${STORE}-wal`, `${STORE}-journal`],
  checks: [copilotStoreHome] as readonly HomeCheck[],
};
