/**
 * Pi coding agent sessions (formats/pi-hermes.md §1): one JSONL file per session, header on line 1, entries in a
 * tree by id/parentId from v2 on; found by content under `~/.pi/agent/sessions/`, a `--session-dir`, or the old
 * `~/.pi/agent/*.jsonl` placement.
 */
import type { PairingDialect } from '../../pairing/dialect.js';
import { IN_ORDER } from '../../timeline/rules.js';
import type { FormatModule } from '../types.js';
import { classifyPi, detectPiFiles, sniffPi } from './artifacts.js';
import { piHeader } from './checks/header.js';
import { piTree } from './checks/tree.js';
import { piInspect } from './inspect.js';
import { loadPi, looksLikePiRecord, streamPiLog } from './load.js';
import { piEventText } from './normalize.js';
import { PI_SCHEMAS } from './schemas.js';
import { validatePi } from './validate.js';
import { piToolView, PI_RESULT_VIEW } from './tool-view.js';
import { piTranscriptView } from './transcript-view.js';

const PAIRING: PairingDialect = {
  mutating: (name) => piToolView(name, undefined).mutating,
  placement: 'run',
  conversation: 'the session file',
  orphan:
    'Pi sends the model a toolResult without its toolCall, which the provider rejects: the entry holding the ' +
    'call was lost, or history was spliced in',
  duplicate: "the model's history holds two results for one call",
  unanswered:
    'Pi adds a "No result provided" stub for it in every request (never written to the file), which hides whether ' +
    'the tool ran',
  displaced:
    'chat providers need each toolResult right after the assistant message that made the call; Pi sends the ' +
    'history as written, so the provider may reject it',
  synthetic: 'a result Pi wrote itself because the call was skipped, blocked or named an unknown tool',
};

export const pi = {
  name: 'pi',
  displayName: 'Pi coding agent',
  shortName: 'Pi',
  homeRoots: ['.pi/agent'],
  sessionNoun: 'a Pi <time>_<id>.jsonl session file',
  fileNoun: 'Pi session file',
  detect: () => 'descend',
  detectFiles: detectPiFiles,
  sniff: sniffPi,
  classify: classifyPi,
  load: loadPi,
  validate: validatePi,
  streamLog: streamPiLog,
  jsonlShape: (kind) => (kind === 'session' ? looksLikePiRecord : undefined),
  eventText: piEventText,
  transcriptView: piTranscriptView,
  // Its logs hold whole messages: no record is a chunk of a longer text.
  streamedText: () => [],
  pairing: PAIRING,
  toolView: piToolView,
  toolResults: PI_RESULT_VIEW,
  timeline: IN_ORDER,
  duplicateKeys: {
    rejectsRecord: false,
    text: 'Pi reads session files with JSON.parse, which keeps the last value, as this audit does',
  },
  damageNotes: {
    JSONL_BAD_LINE: 'Pi skips the line silently',
    JSONL_MERGED_LINE:
      'Pi appends without a leading newline, so a line that lost its newline takes the next record; Pi cannot parse ' +
      'the line and drops every record on it',
    JSONL_TORN_TAIL: 'Pi skips the line, and its next append is glued onto it',
    JSONL_UNTERMINATED_TAIL: "Pi's next append is glued onto this line, and then Pi drops both records",
    JSONL_CRLF: 'Pi writes LF only, so the file was rewritten by another tool',
    JSONL_BOM: 'JSON.parse rejects a leading byte-order mark: on line 1, Pi sees no header and truncates the file',
    JSONL_TOO_DEEP: 'JSON.parse accepts any depth: Pi reads this record',
  },
  lineage: {
    unclaimedSubagent: 'Pi has no sub-agents of its own',
    duplicateId: 'nothing records which copy is authoritative: `pi --session <id>` picks one of them',
  },
  checks: [piHeader, piTree],
  schemas: PI_SCHEMAS,
  inspect: piInspect(PAIRING),
  changePolicy: () => 'append-only',
  codeNotes: {
    TOOL_INTERRUPTED_CALL:
      'Pi runs no call of an assistant message that ended with stopReason "error" or "aborted": those calls have ' +
      'no result by design and are not reported.',
    JSONL_MERGED_LINE:
      'Real Pi files hold such lines (an assistant message glued to the next user message or compaction): every ' +
      'complete record on the line is recovered here; Pi itself drops them all.',
  },
  timesketchType: 'session-audit:pi:event',
} satisfies FormatModule;
