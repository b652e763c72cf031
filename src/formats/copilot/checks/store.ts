/**
 * COPILOT_STORE_*: the home's session-store.db (formats/copilot-cli.md §1.7, §8 CP-X-02), read from a private copy
 * with its -wal, against the logs beside it: one turn per user.message of a session's log; a session of the store
 * whose files are gone (deleted sessions survive in the store and the cloud: not proof of tampering).
 */
import { defineCheck } from '../../../checks/define.js';
import { STORE } from '../artifacts.js';
import { STORE_KIND, type StoreFacts } from '../store.js';

export const copilotStore = defineCheck({
  id: 'copilot-store',
  validate: false,
  codes: {
    COPILOT_STORE_UNREADABLE: {
      severity: 'warning',
      title: "Copilot CLI's session-store.db cannot be read",
      help:
        'The store is copied with its -wal to a private place and opened read-only there; this one could not be ' +
        'copied, opened or read (the message says why). The sessions themselves are audited from their logs; only ' +
        'the comparison with the store is lost.',
    },
    COPILOT_STORE_INTEGRITY: {
      severity: 'error',
      title: "SQLite's integrity check fails on Copilot CLI's session-store.db",
      help:
        'PRAGMA integrity_check reports damage in the store (with its -wal applied): pages lost or overwritten. ' +
        '/chronicle reindex rebuilds the store from the session directories (and uploads it): bundle first.',
    },
    COPILOT_STORE_WAL_FOREIGN: {
      severity: 'error',
      title: "session-store.db-wal is not the store's own write-ahead log",
      help:
        "SQLite applies any -wal it finds beside a database. This one's header or page size is another database's: " +
        'it was laid beside the store by hand. The store is read without it.',
    },
    COPILOT_STORE_TURNS: {
      severity: 'warning',
      title: 'session-store.db counts other turns for a session than its log holds',
      help:
        'The store keeps one row in turns per user.message of a session. A different count is a log that lost or ' +
        'gained prompts after the store saw them (a /rewind or /undo truncates the log; an edit), a store read ' +
        'without its -wal (this audit reads it), a reindex not run, or a resume that did not update the log ' +
        '(issues #2118, #2202).',
    },
    COPILOT_STORE_SESSION_GONE: {
      severity: 'note',
      title: 'session-store.db lists a session whose files are not in the home',
      help:
        'The store names a session that has no directory (nor flat log) under session-state/: a session deleted ' +
        'with /session delete (its store row and cloud copy survive, issues #3811, #4942), or a home copied in part.',
    },
  },
  create(ctx) {
    return {
      doc(d) {
        if (d.kind !== STORE_KIND) return;
        const f = d.value as StoreFacts;
        const at = { file: STORE };
        if (f.walForeign?.length)
          ctx.emit(
            'COPILOT_STORE_WAL_FOREIGN',
            { file: `${STORE}-wal` },
            `${f.walForeign.join('; ')}: read without it`,
          );
        if (f.error !== undefined) {
          ctx.emit('COPILOT_STORE_UNREADABLE', at, `${STORE}: ${f.error}`);
          return;
        }
        if (f.integrity.length)
          ctx.emit('COPILOT_STORE_INTEGRITY', at, `integrity_check: ${f.integrity.slice(0, 3).join('; ')}`);
        for (const s of f.sessions) {
          if (s.log === true && s.logTurns !== undefined && s.logTurns !== s.turns)
            ctx.emit(
              'COPILOT_STORE_TURNS',
              { ...at, pointer: `/turns/${s.id}` },
              `session ${s.id}: the store has ${s.turns} turn(s)${f.hasWal ? ' (with its -wal)' : ''}, its log ` +
                `${s.logTurns} user message(s)`,
              { key: s.id },
            );
          else if (s.log === false && s.files === false)
            ctx.emit(
              'COPILOT_STORE_SESSION_GONE',
              { ...at, pointer: `/sessions/${s.id}` },
              `session ${s.id} (${s.turns} turn(s)) has no files under session-state/: deleted, or not copied`,
              { key: s.id },
            );
        }
      },
    };
  },
});
