/**
 * Gemini CLI sessions (google-gemini/gemini-cli; formats/gemini-cli.md): `~/.gemini/tmp/<project>/chats/`, a JSONL
 * recording folded by its loader (v0.39+) or a legacy single-JSON file (v0.4-v0.38), found by content wherever they
 * sit; the files of one session id in one folder (a resume's stray file, a migrated .json) are one session.
 */
import type { PairingDialect } from '../../pairing/dialect.js';
import { IN_ORDER } from '../../timeline/rules.js';
import type { FormatModule } from '../types.js';
import { classifyGemini, detectGeminiFiles, sniffGemini } from './artifacts.js';
import { geminiFile } from './checks/file.js';
import { geminiFold } from './checks/fold.js';
import { GEMINI_HOME } from './home/index.js';
import { geminiInspect } from './inspect.js';
import { loadGemini, streamGeminiLog } from './load.js';
import { geminiEventText } from './text.js';
import { GEMINI_SCHEMAS } from './schemas.js';
import { validateGemini } from './validate.js';
import { geminiToolView, GEMINI_RESULT_VIEW } from './tool-view.js';
import { geminiTranscriptView } from './transcript-view.js';

const PAIRING: PairingDialect = {
  mutating: (name) => geminiToolView(name, undefined).mutating,
  placement: 'run',
  conversation: 'the session file (the conversation its loader folds)',
  preamble: /^\s*<session_context>/,
  orphan:
    'the CLI sends the model a functionResponse whose call is not in the history, which the API rejects: the ' +
    'message holding the call was rewound, replaced by a snapshot, or recorded in a subagent file',
  duplicate: 'the conversation holds two results for one call',
  unanswered:
    'the CLI records a call only once it completed, with its result: the result was lost, or the turn was cut off ' +
    'before the CLI recorded it',
  displaced: 'the API needs each functionResponse right after the model turn that made the call',
  synthetic: 'the "[Operation Cancelled]" result the CLI writes for a call it cancelled',
};

export const gemini = {
  name: 'gemini',
  displayName: 'Gemini CLI',
  shortName: 'Gemini CLI',
  homeRoots: ['.gemini/tmp'],
  sessionNoun: 'a Gemini CLI session-<time>-<id>.jsonl (or legacy .json) file',
  fileNoun: 'Gemini CLI session file',
  detect: () => 'descend',
  detectFiles: detectGeminiFiles,
  sniff: sniffGemini,
  classify: classifyGemini,
  load: loadGemini,
  validate: validateGemini,
  streamLog: streamGeminiLog,
  // No second thread: a file named .jsonl may hold a pretty-printed legacy document (Entire CLI's full.jsonl).
  jsonlShape: () => undefined,
  eventText: geminiEventText,
  transcriptView: geminiTranscriptView,
  // Its logs hold whole messages: no record is a chunk of a longer text.
  streamedText: () => [],
  pairing: PAIRING,
  toolView: geminiToolView,
  toolResults: GEMINI_RESULT_VIEW,
  timeline: IN_ORDER,
  duplicateKeys: {
    rejectsRecord: false,
    text: 'Gemini CLI reads its files with JSON.parse, which keeps the last value, as this audit does',
  },
  damageNotes: {
    JSONL_BAD_LINE: 'Gemini CLI skips a line it cannot parse, silently; later copies of messages still apply',
    JSONL_MERGED_LINE: 'Gemini CLI cannot parse the line and loses every record on it',
    JSONL_TORN_TAIL: 'Gemini CLI skips the torn line; its next append starts a new line after it',
    JSONL_UNTERMINATED_TAIL: "Gemini CLI's next append is glued onto this line, and then it loses both records",
    JSONL_CRLF: 'Gemini CLI reads CRLF lines as it reads LF ones; its writer writes LF only',
    JSONL_BOM:
      'JSON.parse rejects a leading byte-order mark: on line 1 Gemini CLI sees no metadata line, cannot load the ' +
      'file, and its next start deletes it',
    JSONL_TOO_DEEP: 'JSON.parse accepts any depth: Gemini CLI reads this record',
  },
  lineage: {
    unclaimedSubagent: 'no toolCalls[].agentId of its parent session names it (a parent before v0.39, or rewound)',
    duplicateId:
      'Gemini CLI resumes the copy with the later lastUpdated (--resume keeps one per sessionId); copies under ' +
      'tmp/<sha256> and tmp/<slug> are the storage migration of v0.29, others are copies made by another tool',
    duplicateIdSeverity: 'note',
  },
  checks: [geminiFile, geminiFold],
  home: GEMINI_HOME,
  schemas: GEMINI_SCHEMAS,
  inspect: geminiInspect(PAIRING),
  changePolicy: (rel) => (rel.endsWith('.jsonl') ? 'append-only' : 'rewritable'),
  cleanup:
    "Gemini CLI's retention cleanup (on by default since v0.33: general.sessionRetention, 30 days) deletes old, " +
    'unloadable and prompt-less sessions at every start, with every file sharing their 8-character id prefix',
  codeNotes: {
    TOOL_UNANSWERED_CALL:
      'Gemini CLI records a call with its result in one toolCalls entry, once the call completed: a call without a ' +
      'result is a lost result or a foreign writer.',
    TIME_BACKWARDS:
      'Gemini CLI appends a message again whole with its first timestamp when tokens or tool calls arrive, and ' +
      'snapshots carry older times: file order, not time, is the order of its fold.',
  },
  timesketchType: 'session-audit:gemini:event',
} satisfies FormatModule;
