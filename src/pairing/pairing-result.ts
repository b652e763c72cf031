/**
 * What tool pairing yields: one row per call id, with its status and where its call, result and log lines are, and
 * the findings, each with its code.
 */
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
