/** The codes of Grok's sandbox event log check (home-artifacts.md §1.3, checks GSB-1 to GSB-4). */
export const SANDBOX_EVENT_CODES = {
  GROK_SANDBOX_VIOLATION_OUTSIDE_SESSIONS: {
    severity: 'note',
    title: 'A sandbox violation falls in no session of the home.',
    help:
      'sandbox-events.jsonl records an FsViolation (a read, mkdir, write or delete refused with a permission error) ' +
      'at a time that lies in no known session of its workspace. The line names no session: it is tied to one by ' +
      'its time and its workspace. Legitimate causes: the session was deleted since (the 30-day cleanup), or the ' +
      'process was no TUI session (the workspace server). It is evidence that a process ran then. After an ' +
      'ApplyFailed line the sandbox was not applied, yet Grok still logs violations: such a line can be an ' +
      'ordinary EPERM, not a sandbox denial.',
  },
  GROK_SANDBOX_PROFILE_NOT_APPLIED: {
    severity: 'warning',
    title: 'A session claims a sandbox profile the sandbox log does not show applied.',
    help:
      "A session's summary.json records a sandbox profile other than off, but the nearest startup line of " +
      'sandbox-events.jsonl before the session started is missing, is an ApplyFailed, or says enforced false. ' +
      'Legitimate causes: the off profile writes nothing, a binary built without the enforce feature logs nothing, ' +
      'the log was removed or started after the session, or the session was started in a process that had ' +
      'applied its profile earlier in another workspace. Otherwise the session ran unsandboxed.',
  },
  GROK_SANDBOX_UNKNOWN_EVENT: {
    severity: 'note',
    title: 'The sandbox log holds an event kind or field the known Grok writer never produces.',
    help:
      'Grok Build 0.2.134 writes only ProfileApplied, ApplyFailed and FsViolation lines, and never sets command or ' +
      'tool_call_id. A NetViolation or Bypass line, another event_type, or those fields come from a newer binary ' +
      'or from another program writing the file.',
  },
  GROK_SANDBOX_TIME_ORDER: {
    severity: 'note',
    title: 'Lines of the sandbox log go back in time.',
    help:
      'sandbox-events.jsonl is appended without a lock: a timestamp earlier than the line before it comes from ' +
      'several processes appending at once (each flushes its buffered events), or from a clock change.',
  },
  GROK_SANDBOX_UNREADABLE: {
    severity: 'note',
    title: 'Lines of the sandbox log are not events.',
    help:
      'Lines of sandbox-events.jsonl that do not parse, or are not an object with a timestamp and an event_type: ' +
      'cut or damaged lines (a torn append, a disk full), or lines another program wrote. What they held is not ' +
      'judged. A file that cannot be read at all is said once.',
  },
} as const;
