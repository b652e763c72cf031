/**
 * Grok Build's emission order (persistence.rs `maybe_merge_notification`, formats/grok-build.md §2.3): every ACP
 * notification is first held as the single pending one and written when the next ACP notification arrives (or at a
 * flush, and before the durable turn_completed append), while xAI updates are written at once. So on disk an ACP
 * line can follow xAI lines emitted after it, never another ACP line: the ACP lines alone are in eventId order, and
 * so are the xAI lines. A process that loads a session sends an available_commands_update.
 */
import type { TimelineRules } from '../../timeline/rules.js';

export const GROK_TIMELINE: TimelineRules = {
  // The turn_completed append first writes the pending ACP line, so nothing emitted before it comes after it.
  writtenLate: (late, earlier) => late.rail !== 'xai' && earlier.rail === 'xai' && earlier.kind !== 'turn_completed',
  lateCause: "Grok's writer holds each ACP line until the next ACP update arrives and writes xAI lines at once",
  lateLine: 'an ACP line written after xAI lines',
  announcesLoad: (e) => e.tag === 'available_commands_update',
  loadReason: 'an available_commands_update (sent when a session is loaded) after prompt turns had run',
};
