/** Codex CLI rollouts (formats/codex-claude.md §1): a session is one rollout-*.jsonl file (and a .zst copy). */
import type { PairingDialect } from '../../pairing/dialect.js';
import { IN_ORDER } from '../../timeline/rules.js';
import { logSessionInspect } from '../shared/inspect.js';
import type { FormatModule } from '../types.js';
import { classifyCodex, detectCodexFiles, sniffCodex } from './artifacts.js';
import { codexRollout } from './checks/rollout.js';
import { CODEX_HOME } from './home/index.js';
import { loadCodex, looksLikeRolloutLine, streamCodexLog } from './load.js';
import { codexEventText } from './normalize.js';
import { CODEX_SCHEMAS } from './schemas.js';
import { validateCodex } from './validate.js';
import { codexToolView, CODEX_RESULT_VIEW } from './tool-view.js';
import { codexTranscriptView } from './transcript-view.js';

const PAIRING: PairingDialect = {
  mutating: (name) => codexToolView(name, undefined).mutating,
  placement: 'anywhere',
  conversation: 'the rollout',
  orphan:
    'Codex drops an output without its call when it rebuilds the context (remove_orphan_outputs): the line holding ' +
    'the call was lost, or history was spliced in',
  duplicate: "the model's history holds two outputs for one call",
  unanswered:
    'Codex answers it with an "aborted" placeholder when it rebuilds the context (ensure_call_outputs_present), ' +
    'which ' +
    'hides whether the tool ran',
  displaced: 'results are joined to calls by call_id',
  synthetic: 'the "aborted" placeholder Codex writes for a call that never returned',
};

export const codex = {
  name: 'codex',
  displayName: 'Codex CLI',
  shortName: 'Codex CLI',
  sessionNoun: 'a Codex rollout-*.jsonl',
  homeRoots: ['.codex/sessions', '.codex/archived_sessions'],
  fileNoun: 'Codex rollout',
  detect: () => 'descend',
  detectFiles: detectCodexFiles,
  sniff: sniffCodex,
  classify: classifyCodex,
  load: loadCodex,
  validate: validateCodex,
  streamLog: streamCodexLog,
  jsonlShape: (kind) => (kind === 'rollout' ? looksLikeRolloutLine : undefined),
  eventText: codexEventText,
  transcriptView: codexTranscriptView,
  // Its logs hold whole messages: no record is a chunk of a longer text.
  streamedText: () => [],
  pairing: PAIRING,
  toolView: codexToolView,
  toolResults: CODEX_RESULT_VIEW,
  timeline: IN_ORDER,
  duplicateKeys: {
    rejectsRecord: true,
    text:
      'Codex reads each rollout line with serde, which refuses a repeated field ("duplicate field"): it skips the ' +
      'line, while JSON.parse, which this audit uses, keeps the last value',
  },
  damageNotes: {
    JSONL_CRLF: 'Codex writes LF only, so the file was rewritten by another tool',
    JSONL_BOM: "Codex's serde reader rejects such a line and skips it (openai/codex#28139)",
    JSONL_INVALID_UTF8: 'Codex skips a line it cannot parse (and counts it), so the record is lost',
    JSONL_TOO_DEEP: "serde_json, Codex's reader, refuses nesting deeper than 128 levels: Codex skips this line too",
  },
  lineage: {
    unclaimedSubagent: 'no rollout under the audited root links it to a parent',
    duplicateId: 'nothing records which copy is authoritative: a resume by id cannot tell which one is meant',
  },
  checks: [codexRollout],
  home: CODEX_HOME,
  schemas: CODEX_SCHEMAS,
  inspect: logSessionInspect(
    PAIRING,
    'codex resume',
    'Codex skips the lines it cannot parse, and a resume opens the rollout append-only, after any torn last line ' +
      '(the two merge)',
  ),
  changePolicy: (rel) => (/(^|\/)rollout-[^/]*\.jsonl$/.test(rel) ? 'append-only' : 'rewritable'),
  codeNotes: {
    JSONL_BAD_LINE:
      'Codex skips an unparseable line and counts it (parse_errors in RolloutRecorder::load_rollout_items).',
    JSONL_BOM: "Codex's serde reader rejects a byte-order mark too (openai/codex#28139).",
    SCHEMA_UNKNOWN_TYPE: 'Codex adds variants often, and reads unknown response items as Other.',
    TOOL_UNANSWERED_CALL: 'Codex answers a dangling call with an "aborted" placeholder when it rebuilds the context.',
    TOOL_SYNTHETIC_RESULT: 'Codex writes "aborted" for a call that never returned (ensure_call_outputs_present).',
    SANDBOX_WIDENED:
      'In a Codex rollout the policy is recorded per turn: a turn_context whose approval_policy / sandbox_policy / ' +
      'permission_profile grants more than the first one (workspace-write → danger-full-access, on-request → ' +
      'never, a ' +
      'new writable root or network access).',
  },
  timesketchType: 'session-audit:codex:event',
} satisfies FormatModule;
