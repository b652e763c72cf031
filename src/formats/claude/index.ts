/** Claude Code transcripts (formats/codex-claude.md §2): a session is `<id>.jsonl` and its `<id>/` folder. */
import type { PairingDialect } from '../../pairing/dialect.js';
import { IN_ORDER } from '../../timeline/rules.js';
import { logSessionInspect } from '../shared/inspect.js';
import type { FormatModule } from '../types.js';
import { classifyClaude, detectClaudeFiles, detectClaudeOrphan, sniffClaude } from './artifacts.js';
import { claudeTranscript } from './checks/transcript.js';
import { CLAUDE_HOME } from './home/index.js';
import { loadClaude, looksLikeTranscriptRecord, streamClaudeLog } from './load.js';
import { claudeEventText } from './normalize.js';
import { CLAUDE_SCHEMAS } from './schemas.js';
import { validateClaude } from './validate.js';
import { claudeToolView, CLAUDE_RESULT_VIEW } from './tool-view.js';
import { claudeTranscriptView } from './transcript-view.js';

const PAIRING: PairingDialect = {
  mutating: (name) => claudeToolView(name, undefined).mutating,
  placement: 'run',
  conversation: 'the transcript',
  orphan:
    'the Messages API rejects a tool_result without its tool_use: the line holding the call was lost, or history was ' +
    'spliced in',
  duplicate: "the model's history holds two results for one call",
  unanswered: 'the Messages API rejects a tool_use without its tool_result',
  displaced: 'the Messages API needs each tool_result in the user turn right after the response that made the call',
  synthetic: 'a result Claude Code wrote itself because the call was rejected or interrupted',
};

export const claude = {
  name: 'claude',
  displayName: 'Claude Code',
  shortName: 'Claude Code',
  sessionNoun: 'a Claude Code <session>.jsonl',
  homeRoots: ['.claude/projects'],
  fileNoun: 'Claude Code transcript',
  detect: () => 'descend',
  detectFiles: detectClaudeFiles,
  detectOrphan: detectClaudeOrphan,
  sniff: sniffClaude,
  classify: classifyClaude,
  load: loadClaude,
  validate: validateClaude,
  streamLog: streamClaudeLog,
  jsonlShape: (kind) => (kind === 'transcript' || kind === 'subagent' ? looksLikeTranscriptRecord : undefined),
  eventText: claudeEventText,
  transcriptView: claudeTranscriptView,
  // Its logs hold whole messages: no record is a chunk of a longer text.
  streamedText: () => [],
  pairing: PAIRING,
  toolView: claudeToolView,
  toolResults: CLAUDE_RESULT_VIEW,
  timeline: IN_ORDER,
  duplicateKeys: {
    rejectsRecord: false,
    text:
      'Claude Code reads transcripts with JSON.parse, which keeps the last value, as this audit does; other tools ' +
      'may keep the first',
  },
  damageNotes: {
    JSONL_CRLF: 'Claude Code writes LF only, so the file was rewritten by another tool',
    JSONL_BOM: 'JSON.parse rejects a leading byte-order mark, so Claude Code skips this record',
    JSONL_INVALID_UTF8:
      'Claude Code decodes the file leniently (the bad bytes become U+FFFD), so it reads an altered record, or skips ' +
      'the line if it no longer parses',
    JSONL_TOO_DEEP: 'JSON.parse accepts any depth: Claude Code reads this record',
  },
  lineage: {
    unclaimedSubagent: 'no transcript under the audited root lists it',
    duplicateId: 'nothing records which copy is authoritative: a resume by id cannot tell which one is meant',
  },
  checks: [claudeTranscript],
  home: CLAUDE_HOME,
  schemas: CLAUDE_SCHEMAS,
  inspect: logSessionInspect(
    PAIRING,
    'claude --resume',
    'Claude Code skips the lines it cannot parse, and `claude --resume` appends to the same transcript, after any ' +
      'torn last line (the two merge, or the resume refuses to start)',
  ),
  changePolicy: (rel) =>
    /^[0-9a-f-]{36}\.jsonl$/.test(rel) || /^[0-9a-f-]{36}\/subagents\/[^/]+\.jsonl$/.test(rel)
      ? 'append-only'
      : 'rewritable',
  cleanup: 'Claude Code deletes transcripts older than cleanupPeriodDays (30 by default)',
  codeNotes: {
    JSONL_BAD_LINE: 'Claude Code 2.1.121 and later skip a corrupt line ("corrupted by an unclean shutdown").',
    TOOL_SYNTHETIC_RESULT: 'Claude Code writes its own text for a call the user rejected or interrupted.',
    SANDBOX_WIDENED:
      'In a Claude Code transcript the permission mode is recorded as it changes: a mode that grants more than the ' +
      'session started with (default → acceptEdits → bypassPermissions), or a Bash call with ' +
      'dangerouslyDisableSandbox.',
  },
  timesketchType: 'session-audit:claude:event',
} satisfies FormatModule;
