/** Claude Code transcripts (formats/codex-claude.md §2): a session is `<id>.jsonl` and its `<id>/` folder. */
import type { FormatModule } from '../types.js';
import { classifyClaude, detectClaudeFiles, detectClaudeOrphan, sniffClaude } from './artifacts.js';
import { loadClaude, looksLikeTranscriptRecord, streamClaudeLog } from './load.js';
import { claudeEventText } from './normalize.js';
import { validateClaude } from './validate.js';
import { shellQuote } from '../shared/shell.js';

export const claude: FormatModule = {
  name: 'claude',
  displayName: 'Claude Code',
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
  childSessionDir: () => undefined,
  pairing: {
    placement: 'run',
    conversation: 'the transcript',
    orphan: 'the Messages API rejects a tool_result without its tool_use: the line holding the call was lost, or history was spliced in',
    duplicate: 'the model\'s history holds two results for one call',
    unanswered: 'the Messages API rejects a tool_use without its tool_result',
    displaced: 'the Messages API needs each tool_result in the user turn right after the response that made the call',
    synthetic: 'a result Claude Code wrote itself because the call was rejected or interrupted',
  },
  resumeCommand: (id, cwd) => `${cwd !== undefined ? `cd ${shellQuote(cwd)} && ` : ''}claude --resume ${shellQuote(id)}`,
};
