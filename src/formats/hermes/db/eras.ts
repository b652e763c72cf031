/**
 * What `state.db` holds in each schema era (formats/pi-hermes.md §2.2, upstream hermes_state.py): the tables and
 * the columns each schema version brought. Hermes adds missing columns on every open (`_reconcile_columns`), so a
 * column newer than the recorded version is normal; a table or column older than it that is missing is not.
 */

/** The newest schema version this audit knows (v16: the `_delegate_from` backfill). */
export const KNOWN_SCHEMA_VERSION = 16;

interface Era {
  version: number;
  tables?: string[];
  sessions?: string[];
  messages?: string[];
}

const ERAS: readonly Era[] = [
  {
    version: 1,
    tables: ['schema_version', 'sessions', 'messages', 'messages_fts'],
    sessions: [
      'id',
      'source',
      'user_id',
      'model',
      'model_config',
      'system_prompt',
      'parent_session_id',
      'started_at',
      'ended_at',
      'end_reason',
      'message_count',
      'tool_call_count',
      'input_tokens',
      'output_tokens',
    ],
    messages: ['id', 'session_id', 'role', 'content', 'tool_call_id', 'tool_calls', 'tool_name', 'timestamp'],
  },
  { version: 2, messages: ['finish_reason'] },
  { version: 4, sessions: ['title'] },
  { version: 6, messages: ['reasoning', 'reasoning_details', 'codex_reasoning_items'] },
  { version: 7, messages: ['reasoning_content'] },
  { version: 8, tables: ['state_meta'], sessions: ['api_call_count'] },
  { version: 9, messages: ['codex_message_items'] },
  { version: 10, tables: ['messages_fts_trigram'] },
  { version: 12, sessions: ['handoff_state', 'handoff_platform', 'handoff_error'], messages: ['platform_message_id'] },
  { version: 13, messages: ['observed'] },
  { version: 14, tables: ['compression_locks'] },
  { version: 15, sessions: ['cwd', 'rewind_count', 'archived'], messages: ['active'] },
];

export interface EraExpectation {
  tables: string[];
  sessions: string[];
  messages: string[];
}

/** The tables and columns a database of schema version `v` has (every era up to it). */
export function expectedAt(v: number): EraExpectation {
  const out: EraExpectation = { tables: [], sessions: [], messages: [] };
  for (const e of ERAS) {
    if (e.version > v) break;
    out.tables.push(...(e.tables ?? []));
    out.sessions.push(...(e.sessions ?? []));
    out.messages.push(...(e.messages ?? []));
  }
  return out;
}
