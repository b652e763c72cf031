/** The codes of Gemini CLI's `logs.json` (formats/gemini-cli.md §1.3, §0.3; anomalies 26, 27 and 31). */
import type { CodeInfo } from '../../../model/finding.js';

export type LogsCode =
  | 'GEMINI_LOGS_SESSION_GONE'
  | 'GEMINI_LOGS_PROMPT_MISSING'
  | 'GEMINI_LOGS_OTHER_PROJECT'
  | 'GEMINI_LOGS_TIME_FUTURE'
  | 'GEMINI_LOGS_BAD_ENTRIES'
  | 'GEMINI_LOGS_UNREADABLE'
  | 'GEMINI_LOGS_QUARANTINED';

export const GEMINI_LOGS_CODES: Record<LogsCode, CodeInfo> = {
  GEMINI_LOGS_SESSION_GONE: {
    severity: 'warning',
    title: 'A session in a logs.json has no session file.',
    help:
      "A project dir's logs.json (~/.gemini/tmp/<project>/logs.json) holds what the user typed in a session whose " +
      'session file is nowhere in the home. Gemini CLI never removes entries from logs.json when it deletes a ' +
      'session: its retention cleanup (on by default since v0.33, 30 days) deletes sessions whose last update is ' +
      'older than that at every start, a session with nothing resumable (only slash commands or shell lines) is ' +
      'deleted at exit and at the next start, and the user deletes sessions with --delete-session, the session ' +
      'browser or /exit --delete. A session whose last entry is older than 30 days before the newest entry of the ' +
      'file, or which holds only commands, is a note; a newer one is a warning (deleted by hand, recording stopped ' +
      'on a full disk, or the copy of the home is partial: logs.json cannot tell which). The finding says what the ' +
      'file still holds: how many entries, their times, the project and the first, cut short with every secret ' +
      'redacted.',
  },
  GEMINI_LOGS_PROMPT_MISSING: {
    severity: 'warning',
    title: "A prompt in a logs.json is not in its session's file.",
    help:
      'A prompt logs.json records for a session whose session file is in the home is not among its user messages. ' +
      'Gemini CLI logs each line before it handles it; slash commands, ? and ! lines and lines of shell mode (those ' +
      'in shell_history) are logged and never recorded, so they are not looked for. A normal prompt that is missing ' +
      'means the session file was cut or rewritten after it, recording stopped (a full disk stops it silently), or ' +
      'the prompt was cancelled before it was sent.',
  },
  GEMINI_LOGS_OTHER_PROJECT: {
    severity: 'note',
    title: 'A logs.json names a session whose file is in another project dir.',
    help:
      "Gemini CLI logs a session's lines in the logs.json of the project dir its session file is written in. A " +
      'session whose file is only in another project dir was moved or copied there by hand or by another tool (the ' +
      'v0.29 migration from tmp/<sha256> to tmp/<slug> copies both files together).',
  },
  GEMINI_LOGS_TIME_FUTURE: {
    severity: 'warning',
    title: 'Entries of a logs.json are dated after the audit.',
    help:
      "Entries of logs.json whose timestamp is more than a day after the audit's clock: a clock set wrong, or " +
      'entries written by hand. They are never taken as the newest time the file records, which the ages of ' +
      'deleted sessions are measured against.',
  },
  GEMINI_LOGS_BAD_ENTRIES: {
    severity: 'note',
    title: 'Elements of a logs.json are not entries the CLI reads.',
    help:
      'Elements of the logs.json array that are not objects with a string sessionId, timestamp, type and message ' +
      'and a numeric messageId. Gemini CLI drops them silently when it next reads the file and writes it back ' +
      'without them: another program or a hand edit wrote them. What they held is not judged.',
  },
  GEMINI_LOGS_UNREADABLE: {
    severity: 'warning',
    title: 'A logs.json is not a JSON array the CLI can read.',
    help:
      'Gemini CLI rewrites logs.json whole at every prompt, without a temporary file: a crash or a full disk during ' +
      'the write leaves it cut short, and a hand edit or another program can leave it invalid. At its next start ' +
      'the CLI moves such a file aside as a .bak and begins an empty one. The complete entries before the damage are ' +
      'still judged. A file larger than this audit reads (32 MiB) is a note: only its first entries are judged.',
  },
  GEMINI_LOGS_QUARANTINED: {
    severity: 'note',
    title: 'Gemini CLI moved a logs.json aside.',
    help:
      'A logs.json.invalid_json.<ms>.bak or logs.json.malformed_array.<ms>.bak: the CLI could not read its ' +
      'logs.json (invalid JSON, or not an array) and renamed it, with the time in its name, before writing an empty ' +
      'one. The prompts it held are no longer in the logs.json the CLI reads: they are evidence kept in this file ' +
      'only, and are not judged against the sessions.',
  },
};
