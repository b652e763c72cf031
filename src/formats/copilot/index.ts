/**
 * GitHub Copilot CLI (`copilot`, npm @github/copilot; formats/copilot-cli.md): under `~/.copilot` (`$COPILOT_HOME`;
 * early builds `$XDG_CONFIG_HOME/copilot`), `session-state/<id>/events.jsonl` with its sidecars, the older flat
 * `session-state/<id>.jsonl` and legacy `history-session-state/*.json`, and the cross-session `session-store.db`.
 * Found by name and content wherever they sit; each session directory, flat log, legacy file and store is a session
 * of this audit. In a home, the store is read by the home's check too (home/): the sessions it knows whose files are
 * gone, and the turns it keeps.
 */
import type { PairingDialect } from '../../pairing/dialect.js';
import { IN_ORDER } from '../../timeline/rules.js';
import type { FormatModule } from '../types.js';
import { classifyCopilot, detectCopilotFiles, sniffCopilot } from './artifacts.js';
import { copilotLog } from './checks/log.js';
import { copilotSession } from './checks/session.js';
import { copilotStore } from './checks/store.js';
import { COPILOT_HOME } from './home/index.js';
import { copilotInspect } from './inspect.js';
import { loadCopilot, looksLikeCopilotRecord, streamCopilotLog } from './load.js';
import { copilotEventText } from './normalize.js';
import { COPILOT_SCHEMAS } from './schemas.js';
import { validateCopilot } from './validate.js';
import { copilotToolView, COPILOT_RESULT_VIEW } from './tool-view.js';
import { copilotTranscriptView } from './transcript-view.js';

const PAIRING: PairingDialect = {
  mutating: (name) => copilotToolView(name, undefined).mutating,
  // Completions follow hooks and permission prompts, in any order: they are joined by toolCallId.
  placement: 'anywhere',
  conversation: 'events.jsonl',
  orphan:
    'Copilot CLI rebuilds the model history from the log and a provider rejects a result without its call: the ' +
    'line holding the call was lost (a /rewind, a sliced or edited log)',
  duplicate: 'the log holds two completions for one call (merged lines, or an edit)',
  unanswered:
    'the call started and never completed: interrupted (Ctrl+C, a crash, a kill) or still running in a live ' +
    'session; a later resume completes it in memory, never in the file',
  displaced: 'Copilot CLI joins results to calls by toolCallId, wherever they are',
  synthetic:
    'the denial the user gave at the permission prompt (permission.completed "denied-interactively-by-user", then ' +
    'abort): the CLI writes no completion for a denied call',
};

export const copilot = {
  name: 'copilot',
  displayName: 'GitHub Copilot CLI',
  shortName: 'Copilot CLI',
  homeRoots: ['.copilot', '.config/copilot'],
  sessionNoun:
    'a Copilot CLI session (session-state/<id>/events.jsonl, session-state/<id>.jsonl, ' +
    'history-session-state/session_<id>_<ms>.json) or session-store.db',
  fileNoun: 'Copilot CLI session log',
  detect: () => 'descend',
  detectFiles: detectCopilotFiles,
  sniff: sniffCopilot,
  classify: classifyCopilot,
  load: loadCopilot,
  validate: validateCopilot,
  streamLog: streamCopilotLog,
  jsonlShape: (kind) => (kind === 'events' ? looksLikeCopilotRecord : undefined),
  eventText: copilotEventText,
  transcriptView: copilotTranscriptView,
  // Its logs hold whole messages: no record is a chunk of a longer text.
  streamedText: () => [],
  pairing: PAIRING,
  toolView: copilotToolView,
  toolResults: COPILOT_RESULT_VIEW,
  timeline: IN_ORDER,
  duplicateKeys: {
    rejectsRecord: false,
    text: 'Copilot CLI reads lines with JSON.parse, which keeps the last value, as this audit does',
  },
  damageNotes: {
    JSONL_BAD_LINE:
      'Copilot CLI refuses to resume the session ("Session file is corrupted (line N)"): it skips no line',
    JSONL_TORN_TAIL:
      'Copilot CLI refuses to resume the session, and its next append is glued onto the torn line (issue #4098)',
    JSONL_UNTERMINATED_TAIL: "Copilot CLI's next append is glued onto this line, which then no longer parses",
    JSONL_MERGED_LINE:
      'a torn line followed by a resume that appended without a newline (issue #4098): Copilot CLI refuses the ' +
      'session; the complete record on the line keeps the ids of the torn one',
    JSONL_NUL_BYTES:
      'NUL padding after an OS crash: Copilot CLI before 1.0.57 treats the session as nonexistent, 1.0.57 and ' +
      'later skip NUL-only trailing lines',
    JSONL_CRLF: 'Copilot CLI writes LF only, even on Windows: the file was rewritten by another tool',
    JSONL_BOM: 'Copilot CLI never writes a byte-order mark: the file was rewritten by another tool',
    JSONL_BLANK_LINE: 'Copilot CLI never writes a blank line: the file was edited',
    JSONL_OVERSIZED_LINE: 'Copilot CLI reportedly fails to resume logs with events above about 1.7 MB (issue #2490)',
    JSONL_TOO_DEEP: 'JSON.parse accepts any depth: Copilot CLI reads this record',
  },
  lineage: {
    unclaimedSubagent: "Copilot CLI's sub-agents write into their parent's events.jsonl, not a session of their own",
    duplicateId: 'Copilot CLI resumes the directory session-state/<id>/: other copies are not the one it resumes',
  },
  checks: [copilotLog, copilotSession, copilotStore],
  home: COPILOT_HOME,
  schemas: COPILOT_SCHEMAS,
  inspect: copilotInspect(PAIRING),
  changePolicy: (rel) =>
    rel === 'events.jsonl' || /^[^/]+\.jsonl$/.test(rel)
      ? 'append-only'
      : /^checkpoints\/\d{3}-[^/]+\.md$/.test(rel)
        ? 'immutable'
        : 'rewritable',
  cleanup:
    'Copilot CLI deletes a whole session directory on /session delete, delete-all and its prune of old sessions; ' +
    '/rewind and /undo truncate events.jsonl',
  codeNotes: {
    TOOL_INTERRUPTED_CALL:
      'Copilot CLI writes no completion for a call interrupted by Ctrl+C, a crash or a kill; a resume completes ' +
      'it in memory only.',
    TOOL_SYNTHETIC_RESULT:
      'For Copilot CLI: a call the user denied at the permission prompt, which the CLI never completes in the log.',
  },
  timesketchType: 'session-audit:copilot:event',
} satisfies FormatModule;
