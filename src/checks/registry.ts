/** The registry: a plain array, in the order checks run. Adding a check is adding a file and a line here. */
import type { Check } from './define.js';
import type { CodeInfo } from '../model/finding.js';
import { jsonlIntegrity } from './jsonl-integrity.js';
import { schema } from './schema.js';
import { sessionFiles } from './session-files.js';
import { sessionLeftovers } from './session-leftovers.js';
import { xrefIdentity } from './xref-identity.js';
import { xrefCounts } from './xref-counts.js';
import { xrefChatHistory } from './xref-chat-history.js';
import { xrefCompaction } from './xref-compaction.js';
import { xrefRewind } from './xref-rewind.js';
import { xrefSystemPrompt } from './xref-system-prompt.js';
import { xrefSubagent } from './xref-subagent.js';
import { toolPairing } from './tool-pairing.js';
import { headless } from './headless.js';
import { sessionPolicy } from './session-policy.js';
import { codexRollout } from './codex-rollout.js';
import { claudeTranscript } from './claude-transcript.js';
import { time } from './time.js';
import type { RootCheck } from './define-root.js';
import { lineage } from './lineage.js';
import { sandbox } from './sandbox.js';
import { BUNDLE_CODES } from './bundle-codes.js';

export const CHECKS: readonly Check[] = [
  sessionFiles,
  jsonlIntegrity,
  schema,
  sessionLeftovers,
  xrefIdentity,
  xrefCounts,
  xrefChatHistory,
  xrefCompaction,
  xrefRewind,
  xrefSystemPrompt,
  xrefSubagent,
  toolPairing,
  time,
  headless,
  sessionPolicy,
  codexRollout,
  claudeTranscript,
];

/** Checks over a whole tree of sessions, run by `audit` after every session has been read. */
export const ROOT_CHECKS: readonly RootCheck[] = [lineage, sandbox];

export interface CatalogEntry extends CodeInfo {
  code: string;
  check: string;
}

/**
 * Every code, sorted, with the check that owns it. Codes are API: add, never rename. A code one check shares with
 * another (the in-session policy check emits the root sandbox check's SANDBOX_WIDENED / SANDBOX_CHANGED) is listed
 * once, under the root check that defines it.
 */
export function catalog(): CatalogEntry[] {
  const out: CatalogEntry[] = [];
  const seen = new Set<string>();
  for (const c of [...ROOT_CHECKS, ...CHECKS, { id: 'bundle', codes: BUNDLE_CODES as Record<string, CodeInfo> }]) {
    for (const [code, info] of Object.entries(c.codes)) {
      if (seen.has(code)) continue;
      seen.add(code);
      out.push({ code, check: c.id, ...info });
    }
  }
  return out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export function codeInfo(code: string): CatalogEntry | undefined {
  return catalog().find((e) => e.code === code);
}
