/**
 * HERMES_PART_MISSING: a part of a Hermes home audited without the rest (detect-parts.ts): `state.db` copied alone,
 * or `sessions/` alone. What the missing part holds cannot be checked, nor compared with the part that is here.
 */
import { defineCheck } from '../../../checks/define.js';
import { DB_FILE } from '../artifacts.js';
import { SESSIONS_DIR } from '../detect-parts.js';

export const hermesPart = defineCheck({
  id: 'hermes-part',
  validate: true,
  codes: {
    HERMES_PART_MISSING: {
      severity: 'warning',
      title: 'A part of the Hermes home is not in this copy',
      help:
        'The audit was given a part of a Hermes home without the rest: `state.db` (recognised by its SQLite ' +
        'header and the schema of its `sessions` and `messages` tables, never by its name) without the ' +
        '`sessions/` folder beside it, or a `sessions/` folder (gateway transcripts, CLI snapshots, the gateway ' +
        'index) without `state.db`. The message names the part that is absent. Nothing in it was checked, and the ' +
        'part that is here could not be compared with it: ask for the whole home (`bundle` captures it), or ' +
        'confirm the part was empty. A home written since 2026-05-20 may legitimately have no transcripts (Hermes ' +
        'stopped writing them) and no snapshots (opt-in), but it still keeps its sessions in `state.db`.',
    },
  },
  create(ctx) {
    return {
      end() {
        // A home found whole (a directory session) is what Hermes left; only a part given alone is a file session.
        if (ctx.session.found.members === undefined) return;
        const paths = new Set(ctx.session.inventory.map((e) => e.path));
        if (!paths.has(DB_FILE))
          ctx.emit(
            'HERMES_PART_MISSING',
            { file: DB_FILE },
            `${DB_FILE} is absent: the rows Hermes resumes from are not in this copy (only ${SESSIONS_DIR}/ was ` +
              'given), so no session here can be checked against them',
          );
        if (!paths.has(SESSIONS_DIR))
          ctx.emit(
            'HERMES_PART_MISSING',
            { file: `${SESSIONS_DIR}/` },
            `${SESSIONS_DIR}/ is absent: the gateway transcripts, CLI snapshots and gateway index that sit beside ` +
              `${DB_FILE} in a Hermes home are not in this copy (only ${DB_FILE} was given), so the rows are not ` +
              'compared with them',
          );
      },
    };
  },
});
