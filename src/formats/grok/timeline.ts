/**
 * Grok Build's emission order (persistence.rs:1642-1647): streamed text chunks are buffered and the merged line is
 * written only when the next ACP update arrives, while xAI updates are written at once, so on disk a text chunk can
 * follow lines emitted after it; its `_meta.eventId` counter says where it belongs. A process that loads a session
 * sends an available_commands_update.
 */
import type { TimelineRules } from '../../timeline/rules.js';

const BUFFERED = new Set(['model_text', 'thought']);

export const GROK_TIMELINE: TimelineRules = {
  writtenLate: (e) => BUFFERED.has(e.kind),
  lateCause: 'a buffered text chunk flushed late',
  lateLine: 'a late-written text chunk',
  announcesLoad: (e) => e.tag === 'available_commands_update',
  loadReason: 'an available_commands_update (sent when a session is loaded) after prompt turns had run',
};
