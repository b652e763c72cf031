/**
 * How Grok Build writes each file of a session (formats/grok-build.md §4), which decides what a later change means.
 */
import type { ChangePolicy } from '../types.js';

export function grokChangePolicy(rel: string): ChangePolicy {
  if (/^(updates|feedback|btw_history|events)\.jsonl$/.test(rel) || rel === 'compaction/INDEX.md') return 'append-only';
  if (/^workflows\/[^/]+\/journal\.jsonl$/.test(rel)) return 'append-only';
  if (/^chat_history\.jsonl\.(corrupt|pre-strip)$/.test(rel) || /^(images|prompts)\//.test(rel)) return 'immutable';
  if (/^compaction\/segment_\d+\.md$/.test(rel)) return 'immutable';
  return 'rewritable';
}
