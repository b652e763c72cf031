/** Grok Build: a session is a directory `<sessions root>/<encoded cwd>/<session id>/` (formats/grok-build.md). */
import type { FormatModule } from '../types.js';
import { classify, detect } from './artifacts.js';
import { grokChangePolicy } from './changes.js';
import { headless } from './checks/headless.js';
import { sandbox } from './checks/sandbox.js';
import { sessionLeftovers } from './checks/session-leftovers.js';
import { xrefChatHistory } from './checks/xref-chat-history.js';
import { xrefCompaction } from './checks/xref-compaction.js';
import { xrefCounts } from './checks/xref-counts.js';
import { xrefIdentity } from './checks/xref-identity.js';
import { xrefRewind } from './checks/xref-rewind.js';
import { xrefSubagent } from './checks/xref-subagent.js';
import { xrefSystemPrompt } from './checks/xref-system-prompt.js';
import { grokChildSession } from './child.js';
import { GROK_HOME } from './home/index.js';
import { grokIdentityOf } from './identity.js';
import { GROK_INSPECT } from './inspect.js';
import { LOOKS_LIKE, loadGrok } from './load.js';
import { looksLikeUpdate, streamUpdatesLog } from './log-stream.js';
import { eventText } from './normalize.js';
import { GROK_CODE_NOTES } from './notes.js';
import { GROK_PAIRING } from './pairing.js';
import { grokRelocations } from './relocations.js';
import { GROK_SCHEMAS } from './schemas.js';
import { GROK_TIMELINE } from './timeline.js';
import { validateGrok } from './validate.js';
import { grokToolView, GROK_RESULT_VIEW } from './tool-view.js';
import { grokTranscriptView } from './transcript-view.js';

/** The pointers of updates.jsonl at which a record holds one chunk of a streamed text. */
const GROK_STREAMED_TEXT = ['/params/update/content/text', '/params/update/arguments_delta'];

export const grok = {
  name: 'grok',
  displayName: 'Grok Build',
  shortName: 'Grok',
  sessionNoun: 'a Grok session directory with summary.json or updates.jsonl',
  homeRoots: ['.grok/sessions'],
  detect,
  directorySessions: true,
  classify,
  load: loadGrok,
  validate: validateGrok,
  streamLog(source, artifacts, limits, onEvent) {
    const log = [...artifacts.values()].find((a) => a.kind === 'updates');
    if (!log || source.entry(log.path)?.type !== 'file') return undefined;
    return streamUpdatesLog(
      source,
      log.path,
      limits,
      () => {},
      onEvent,
      () => {},
    );
  },
  eventText,
  transcriptView: grokTranscriptView,
  // A model's message, thought and prompt are streamed as ACP chunks at content/text, a tool call's arguments as
  // xAI delta chunks: updates.jsonl alone.
  streamedText: (kind) => (kind === 'updates' ? GROK_STREAMED_TEXT : []),
  jsonlShape: (kind) => (kind === 'updates' ? looksLikeUpdate : LOOKS_LIKE[kind]),
  identityOf: grokIdentityOf,
  childSession: grokChildSession,
  pairing: GROK_PAIRING,
  toolView: grokToolView,
  toolResults: GROK_RESULT_VIEW,
  timeline: GROK_TIMELINE,
  duplicateKeys: {
    rejectsRecord: true,
    text:
      'Grok reads each record with serde, which refuses a repeated field ("duplicate field"): on load it skips the ' +
      'line (a log) or cannot load the session (summary.json), while JSON.parse, which this audit uses, keeps the ' +
      'last value',
  },
  damageNotes: {
    JSONL_CRLF: 'Grok writes LF only, so the file was rewritten by another tool',
    JSONL_BOM: "Grok's serde reader rejects such a line, so it would skip this record",
    JSONL_INVALID_UTF8: 'Grok skips such a line, so the record is lost',
    JSONL_TOO_DEEP: "serde_json, Grok's reader, refuses nesting deeper than 128 levels: Grok skips this line too",
  },
  sessionDocument: {
    path: 'summary.json',
    kind: 'summary',
    unloadable: 'Grok cannot load this session',
    missing: 'Grok does not see this directory as a session and cannot resume it',
    notRegular: 'Grok does not see this directory as a session',
  },
  symlinkedSession: 'Grok skips symlinked sessions too',
  lineage: {
    unclaimedSubagent:
      'no session under the audited root lists it in subagents/ (session_kind subagent, but no session under the ' +
      'root ' +
      'lists it in subagents/)',
    duplicateId: 'no relocation journal says which is authoritative: Grok refuses to pick',
  },
  checks: [
    sessionLeftovers,
    xrefIdentity,
    xrefCounts,
    xrefChatHistory,
    xrefCompaction,
    xrefRewind,
    xrefSystemPrompt,
    xrefSubagent,
    headless,
  ],
  rootChecks: [sandbox],
  home: GROK_HOME,
  relocations: grokRelocations,
  schemas: GROK_SCHEMAS,
  inspect: GROK_INSPECT,
  changePolicy: grokChangePolicy,
  cleanup: "Grok's cleanup_ttl_days deletes old files",
  codeNotes: GROK_CODE_NOTES,
  timesketchType: 'session-audit:grok:event',
} satisfies FormatModule;
