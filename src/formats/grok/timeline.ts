/**
 * Grok Build's emission order (formats/grok-build.md §2.3; Grok's xai-grok-shell src/session/persistence.rs, mirror
 * zhangtyzzz/grok-build @ 49ecb6ae): every ACP notification is first held as the single pending one
 * (`maybe_merge_notification`, L1287-1340) and written when the next ACP notification arrives or at a flush
 * (`drain_pending` runs only in `flush_pending` and `handle_durable_append`, L1508-1558), while xAI updates are
 * written at once without draining it (L1660-1666). So on disk an ACP line can follow xAI lines emitted after it,
 * never another ACP line: the ACP lines alone are in eventId order, and so are the xAI lines.
 *
 * turn_completed is no exception: `emit_turn_completed` (acp_session_impl/turn_end.rs L398-428) sends it through
 * `send_xai_notification_with_extra_meta` (acp_session_impl/updates.rs L949-974) as a plain
 * `PersistenceMsg::Update`, not the durable append. A turn the model ran to its end is flushed before it (the turn
 * task's `flush_to_disk`, acp_session_impl/turn.rs L1004), but a turn the user stopped (tasks_cancel.rs
 * `cancel_running_task`, L887) or a built-in slash command (turn.rs L456, before that flush) leaves its last ACP
 * line pending: it is written after the turn_completed, when the next ACP line arrives or at the session's end.
 *
 * A process that loads a session sends an available_commands_update.
 */
import type { TimelineRules } from '../../timeline/rules.js';

export const GROK_TIMELINE: TimelineRules = {
  writtenLate: (late, earlier) => late.rail !== 'xai' && earlier.rail === 'xai',
  lateCause: "Grok's writer holds each ACP line until the next ACP update arrives and writes xAI lines at once",
  lateLine: 'an ACP line written after xAI lines',
  announcesLoad: (e) => e.tag === 'available_commands_update',
  loadReason: 'an available_commands_update (sent when a session is loaded) after prompt turns had run',
};
