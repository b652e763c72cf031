/**
 * What differs between agents in rebuilding the order of events: which lines the agent's writer may put on disk
 * after lines emitted later (their event-id counter says where they belong), and which events a process sends when
 * it loads a session (evidence of a resume). Every format module supplies its rules; an agent that writes each
 * line as it happens and announces nothing needs none.
 */
import type { SessionEvent } from '../model/events.js';

export interface TimelineRules {
  /**
   * `late`, written to the file after `earlier`, may have been emitted before it: the agent's writer can put `late`
   * on disk after `earlier` although `late` came first (it is placed back by its event-id counter). Absent: the
   * agent writes every line as it happens, so file order is emission order.
   */
  writtenLate?(late: SessionEvent, earlier: SessionEvent): boolean;
  /** Why the agent's lines can be late, for messages (e.g. "the writer holds each line until the next arrives"). */
  lateCause: string;
  /** The same, as a noun phrase (e.g. "a late-written text chunk"). */
  lateLine: string;
  /** The event is one a process sends when it loads the session: after prompt turns, a resume. */
  announcesLoad?(e: SessionEvent): boolean;
  /** Why such an event means a resume, for messages. */
  loadReason: string;
}

/** An agent that writes every line as it happens and announces nothing on load. */
export const IN_ORDER: TimelineRules = {
  lateCause: "the agent's writer put them on disk late",
  lateLine: 'a line written late',
  loadReason: 'an event sent when a session is loaded, after prompt turns had run',
};
