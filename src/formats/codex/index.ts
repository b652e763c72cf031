/** Codex CLI rollouts (formats/codex-claude.md §1): a session is one rollout-*.jsonl file (and a .zst copy). */
import type { FormatModule } from '../types.js';
import { classifyCodex, detectCodexFiles, sniffCodex } from './artifacts.js';
import { loadCodex, looksLikeRolloutLine, streamCodexLog } from './load.js';
import { codexEventText } from './normalize.js';
import { validateCodex } from './validate.js';
import { shellQuote } from '../shared/shell.js';

export const codex: FormatModule = {
  name: 'codex',
  displayName: 'Codex CLI',
  detect: () => 'descend',
  detectFiles: detectCodexFiles,
  sniff: sniffCodex,
  classify: classifyCodex,
  load: loadCodex,
  validate: validateCodex,
  streamLog: streamCodexLog,
  jsonlShape: (kind) => (kind === 'rollout' ? looksLikeRolloutLine : undefined),
  eventText: codexEventText,
  childSessionDir: () => undefined,
  pairing: {
    placement: 'anywhere',
    conversation: 'the rollout',
    orphan: 'Codex drops an output without its call when it rebuilds the context (remove_orphan_outputs): the line holding the call was lost, or history was spliced in',
    duplicate: 'the model\'s history holds two outputs for one call',
    unanswered: 'Codex answers it with an "aborted" placeholder when it rebuilds the context (ensure_call_outputs_present), which hides whether the tool ran',
    displaced: 'results are joined to calls by call_id',
    synthetic: 'the "aborted" placeholder Codex writes for a call that never returned',
  },
  resumeCommand: (id, cwd) => `${cwd !== undefined ? `cd ${shellQuote(cwd)} && ` : ''}codex resume ${shellQuote(id)}`,
};
