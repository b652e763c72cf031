/**
 * HERMES_DB_TOOL_*: tool calls and results in the message rows of state.db (formats/pi-hermes.md §2.4): every
 * `tool_calls[].id` of an assistant row is answered by exactly one later `tool` row of the same session with that
 * `tool_call_id`. In real homes pairing is strict (11,402 calls, 11,402 results, none unmatched), and Hermes writes a
 * synthetic result itself for a call it cancels or skips, so an unmatched row is meaningful.
 */
import { defineCheck } from '../../../checks/define.js';
import { DB_KIND, type DbMessageRow, type DbSessionRow } from '../db/facts.js';
import { hermesIdOf } from '../artifacts.js';
import { isDbFacts } from './db.js';

export const hermesDbPairing = defineCheck({
  id: 'hermes-db-pairing',
  validate: false,
  codes: {
    HERMES_DB_TOOL_ORPHAN_RESULT: {
      severity: 'error',
      title: 'A tool row in state.db answers no earlier call of its session, or answers one twice',
      help:
        "A `tool` message row whose tool_call_id matches no earlier assistant row's tool_calls in the same " +
        'session, or a second result for one call. Hermes sends the rows as they are to the provider on resume, ' +
        "which rejects a result without its call (Hermes's compression sanitizer drops such results). Causes: rows " +
        'deleted or inserted behind Hermes, or a /branch copy that failed half way (Hermes swallows its errors: ' +
        'graded a warning on a branched session).',
    },
    HERMES_DB_TOOL_UNANSWERED: {
      severity: 'error',
      title: 'A tool call in state.db has no result row',
      help:
        'An assistant row declares a tool call and no later `tool` row of the session answers it. Hermes writes a ' +
        'result for every call, a synthetic one when it cancels or skips the call, so a missing one means the ' +
        'result row was lost or deleted, and the tool may have run without its output on record. The last calls ' +
        'of a session that has not ended are graded a warning: Hermes stopped (a crash, a kill) while they ran.',
    },
  },
  create(ctx) {
    // Sessions without a transcript reach the generic pairing as the database's conversation (load.ts): their rows
    // are checked there (TOOL_*), once. This check covers the rows of the sessions a transcript also holds.
    const transcribed = new Set(
      [...ctx.session.artifacts.values()]
        .filter((a) => a.kind === 'transcript')
        .map((a) => hermesIdOf(a.path))
        .filter((id): id is string => id !== undefined),
    );
    return {
      doc({ kind, value }) {
        if (kind !== DB_KIND || !isDbFacts(value) || value.error !== undefined) return;
        const file = value.file;
        const sessions = new Map<string, DbSessionRow>(value.sessions.map((s) => [s.id, s]));
        // The rows of the transcribed sessions only, streamed session by session.
        for (const [sid, rows] of bySession(value.rows(transcribed))) {
          const s = sessions.get(sid);
          const calls = new Map<string, { row: number; name: string; answered: number }>();
          let lastAssistant = -1;
          for (const m of rows) {
            if (m.role === 'assistant') {
              lastAssistant = m.id;
              for (const c of m.calls ?? []) if (c.id) calls.set(c.id, { row: m.id, name: c.name, answered: 0 });
            } else if (m.role === 'tool') {
              const c = m.toolCallId !== undefined ? calls.get(m.toolCallId) : undefined;
              if (c) c.answered++;
              if (c && c.answered === 1) continue;
              ctx.emit(
                'HERMES_DB_TOOL_ORPHAN_RESULT',
                { file, pointer: `/messages/${m.id}` },
                `session ${sid}, message ${m.id}: ` +
                  (c
                    ? `a second result for call ${m.toolCallId} (${c.name}, message ${c.row})`
                    : `result for call ${JSON.stringify(m.toolCallId ?? '')}, which no earlier assistant row of ` +
                      'the session made'),
                { key: `${sid}/${m.id}`, ...(s?.branchedFrom !== undefined ? { severity: 'warning' as const } : {}) },
              );
            }
          }
          for (const [id, c] of calls) {
            if (c.answered > 0) continue;
            const open = s !== undefined && s.endedAt === undefined && c.row === lastAssistant;
            ctx.emit(
              'HERMES_DB_TOOL_UNANSWERED',
              { file, pointer: `/messages/${c.row}` },
              `session ${sid}, message ${c.row}: call ${id} (${c.name}) has no result row` +
                (open ? ' (the session never ended: Hermes stopped while it ran)' : ''),
              { key: `${sid}/${id}`, ...(open ? { severity: 'warning' as const } : {}) },
            );
          }
        }
      },
    };
  },
});

/** Consecutive rows of one session, as [session id, its rows]: one session's rows in memory at a time. */
export function* bySession(rows: Iterable<DbMessageRow>): Generator<[string, DbMessageRow[]]> {
  let id: string | undefined;
  let list: DbMessageRow[] = [];
  for (const m of rows) {
    if (m.sessionId !== id) {
      if (id !== undefined) yield [id, list];
      id = m.sessionId;
      list = [];
    }
    list.push(m);
  }
  if (id !== undefined) yield [id, list];
}
