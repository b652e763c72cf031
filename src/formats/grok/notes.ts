/**
 * What Grok Build does about the generic finding codes, appended to their catalog help (`checks CODE`, SARIF rule
 * help). Sources: formats/grok-build.md.
 */
export const GROK_CODE_NOTES: Readonly<Record<string, string>> = {
  JSONL_TORN_TAIL:
    'Grok heals the tear on its next append by writing a newline first, which turns it into a JSONL_BAD_LINE.',
  JSONL_BAD_LINE:
    'Grok heals torn tails this way; it skips such a line on load and quarantines a copy of chat_history.jsonl in ' +
    'chat_history.jsonl.corrupt.',
  JSONL_MERGED_LINE: 'Pre-heal Grok binaries left such lines; Grok skips the whole line, losing both records.',
  JSONL_INVALID_UTF8:
    'Grok parses lines with serde_json::from_slice, which rejects invalid UTF-8, so the record is skipped.',
  JSONL_BOM: 'Grok never writes a BOM; serde_json rejects it, so Grok skips that record on load.',
  JSONL_BLANK_LINE: 'Grok never writes empty lines and skips them on load.',
  JSONL_OVERSIZED_LINE:
    'The 64 MiB default is Grok\'s own limit for updates.jsonl in fork copy ("a tail that lost its newlines").',
  SCHEMA_VIOLATION:
    'A JSONL line of the wrong shape is skipped on load; a summary.json of the wrong shape makes the session ' +
    'unloadable.',
  SCHEMA_UNKNOWN_TYPE:
    'On the xAI rail Grok decodes an unknown tag as Unknown and ignores it; an unknown chat item or ACP update is ' +
    'skipped on load.',
  SCHEMA_NOT_PERSISTED:
    'Grok documents session_status, last_turn_summary, pending_interaction, interaction_resolved, ' +
    'tool_call_delta_chunk and subagent_progress as transient.',
  SCHEMA_LEGACY_RECORD:
    'A format-0 chat line (OpenAI-style role/content) or an updates line without the {timestamp, method, params} ' +
    'envelope; Grok still reads both.',
  SESSION_SUMMARY_MISSING:
    'The document is summary.json, the commit marker of a session directory: without it (as a regular file) Grok ' +
    'does not list the session and cannot resume it. TTL cleanup deletes old summaries too.',
  SESSION_SUMMARY_EMPTY:
    'A zero-byte summary.json (fork copy and subagent init write it in place); Grok refuses to load the session ' +
    '("InvalidData").',
  SESSION_SUMMARY_UNPARSEABLE:
    "Grok's session list and scan silently skip a session whose summary.json does not parse.",
  SESSION_FILE_UNPARSEABLE:
    'Grok treats most of these (plan.json, signals.json, a subagent meta.json, ...) as absent with a warning; a ' +
    'missing compaction checkpoint makes rewind across that compaction impossible.',
  SESSION_UNEXPECTED_FILE: 'provider_binding.json and archived.flag are written by the third-party nonexphere fork.',
  SESSION_SYMLINK: "Grok's own session scanners skip symlinks too.",
  TOOL_ORPHAN_RESULT:
    'What a torn line leaves when it took the declaring assistant item with it ("orphaned ToolResults left by a torn ' +
    'JSONL line, which 400 on every request"); Grok\'s repair strips the result.',
  TOOL_DUPLICATE_RESULT: "Grok's dedup keeps the last result.",
  TOOL_UNANSWERED_CALL:
    'Grok\'s repair inserts a synthetic "cancelled" result, which hides whether the tool ran; updates.jsonl says ' +
    'whether it did.',
  TOOL_DISPLACED_RESULT:
    "Grok's repair strips a displaced result. Results separated from their call only by reasoning or backend-tool " +
    "items are accepted by Grok's turn scanner but not by its strict repair rule (a note).",
  TOOL_SYNTHETIC_RESULT:
    'Grok\'s texts are "Tool execution was cancelled by the user (tool `x` was not executed)." and "…halted by the ' +
    'harness…".',
  TOOL_UPDATE_WITHOUT_CALL: 'In updates.jsonl every tool_call_update follows the tool_call that created the call.',
  XREF_CHAT_VS_UPDATES: 'chat_history.jsonl and updates.jsonl take tool call ids from the same source.',
  TIME_BACKWARDS: "Grok's event times are `_meta.agentTimestampMs`, else the envelope's whole seconds.",
  TIME_EVENT_ID_DUPLICATE: 'Grok mints `_meta.eventId` as "<session>-<counter>".',
  TIME_EVENT_ID_REGRESSION:
    'A drop is not a regression when an ACP line comes after xAI lines emitted later: Grok holds the last ACP line ' +
    'until the next one arrives. An ACP line below another ACP line is a real reordering.',
  TIME_RESUME_BOUNDARY: 'Grok sends an available_commands_update when it loads a session.',
  TIME_FILE_ORDER:
    'Grok holds every ACP notification as the single pending one until the next ACP notification arrives (or a ' +
    'flush), while xAI updates are written at once: an ACP line can follow xAI lines emitted after it, never ' +
    'another ACP line. turn_completed is one of those xAI lines: the last line of a turn the user stopped, or of a ' +
    'slash command, comes after its turn_completed. Every Grok log is written so, which is why this is not ' +
    'reported; the timeline flags those lines (L).',
  SANDBOX_WIDENED:
    'Grok fixes the profile at creation, copies it to forks and refuses a different one on resume: a wider ' +
    'recorded profile means the session was created under another configuration, or summary.json was edited.',
  SANDBOX_DROPPED: 'A resume then runs under --sandbox, GROK_SANDBOX, config.toml, or off — whichever comes first.',
  SANDBOX_CHANGED:
    'A custom profile is compared only with its definition (--sandbox-config). Between two captures of the same ' +
    'session any change is an error: no Grok code path rewrites sandbox_profile.',
  SANDBOX_PROFILE_MISSING:
    'No sandbox_profile in summary.json (created before the field existed, or by a foreign tool): a resume falls ' +
    'back ' +
    'to --sandbox, GROK_SANDBOX, config.toml, or off. ("off" recorded explicitly is different: it means ' +
    'unsandboxed by choice.)',
  SANDBOX_PROFILE_UNKNOWN:
    'Custom profiles come from sandbox.toml: give their definitions with --sandbox-config ~/.grok/sandbox.toml ' +
    '--sandbox-config <project>/.grok/sandbox.toml.',
  LINEAGE_PARENT_MISSING:
    'The parent is named by parent_session_id, or by the subagents/ entry that should list the child; TTL cleanup ' +
    'deletes old sessions.',
  LINEAGE_DUPLICATE_ID:
    'Grok refuses to pick one copy unless a relocation journal (~/.grok/relocations/<id>.json) says which is ' +
    'authoritative.',
  BUNDLE_NOT_APPEND_ONLY:
    'Grok only appends to updates.jsonl, feedback.jsonl, btw_history.jsonl, events.jsonl and compaction/INDEX.md ' +
    '(torn-tail healing adds a newline, never rewrites).',
  BUNDLE_FILE_CHANGED:
    'Grok legitimately rewrites summary.json, chat_history.jsonl (compaction, rewind, repair), rewind_points.jsonl ' +
    '(rewind), plan.json and the other state files.',
};
