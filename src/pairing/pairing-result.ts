/**
 * What tool pairing yields: one row per call id, with its status and where its call, result and log lines are, and
 * the findings, each with its code.
 */
import type { ResultStatus } from '../model/transcript-view.js';
import type { Where } from './call-records.js';

export type PairStatus =
  | 'answered'
  | 'synthetic'
  | 'duplicate'
  | 'displaced'
  | 'unanswered'
  | 'interrupted'
  | 'orphan result'
  | 'rewound'
  | 'log only'
  /** The response that made the call ended without running its calls: no result is expected. */
  | 'abandoned';

export interface PairRow {
  id: string;
  name: string;
  promptIndex?: number;
  status: PairStatus;
  call?: Where;
  result?: Where;
  logCall?: Where;
  logTerminal?: Where & { status: string };
  /** Whether the tool can change files or run commands (edit, delete, move, execute, or unknown). */
  mutating: boolean;
  /** Tool kind from the log (read, edit, execute, …) and the call's arguments, when known. */
  kind?: string;
  args?: string;
  note?: string;
  /** How the call's first result ended, as the agent's own reading of its results words it (its transcriptView). */
  ended?: ResultStatus;
}

/**
 * The status a reader is shown: the pairing's, with how the result ended when the agent says more than that it came
 * (a result that failed, was rejected or cancelled reads so, not `answered`); a result the agent wrote itself in
 * place of the tool's (the pairing's `synthetic`) is a placeholder, unless the agent says the user rejected or
 * cancelled the call.
 */
export function statusWord(r: PairRow): string {
  const e = r.ended;
  if (r.status === 'synthetic') return e === 'rejected' || e === 'cancelled' ? e : 'placeholder';
  if (r.status !== 'answered' && r.status !== 'log only') return r.status;
  const how = e !== undefined && e !== 'completed' ? e : r.logTerminal?.status === 'failed' ? 'failed' : undefined;
  if (how === undefined) return r.status;
  // A call only the tool log records keeps saying so.
  return r.status === 'log only' ? `${how} (log only)` : how;
}

export type PairCode =
  | 'TOOL_ORPHAN_RESULT'
  | 'TOOL_DUPLICATE_RESULT'
  | 'TOOL_RESULT_BEFORE_CALL'
  | 'TOOL_UNANSWERED_CALL'
  | 'TOOL_INTERRUPTED_CALL'
  | 'TOOL_DISPLACED_RESULT'
  | 'TOOL_SYNTHETIC_RESULT'
  | 'TOOL_UPDATE_WITHOUT_CALL'
  | 'TOOL_NO_TERMINAL_STATUS'
  | 'XREF_CHAT_VS_UPDATES';

export interface PairFinding {
  code: PairCode;
  at: Where;
  message: string;
  /**
   * The call id: what tells this finding from others of its code in one file, in the fingerprint. Never a line
   * or an offset (a line inserted above would make the finding new): two results of one call are told apart by
   * the bytes of their lines and their occurrence, which the fingerprint adds.
   */
  key: string;
  severity?: 'error' | 'warning' | 'note';
}

export interface PairingResult {
  rows: PairRow[];
  findings: PairFinding[];
}
