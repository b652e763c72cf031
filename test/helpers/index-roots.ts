/**
 * The roots the index's tests archive: every agent's clean corpus and a few damaged ones (merged lines, a torn tail,
 * late-written lines, resumes).
 */
import { join } from 'node:path';

const CORPORA = join(import.meta.dirname, '..', '..', 'corpora');

export const INDEX_ROOTS = [
  'grok/clean/sessions',
  'grok/jsonl-merged-line/sessions',
  'grok/jsonl-bad-line/sessions',
  'grok/time-acp-reordered/sessions',
  'grok/timeline-resume/sessions',
  'grok/xref-rewind-points/sessions',
  'codex/clean/sessions',
  'codex/jsonl-torn-tail/sessions',
  'claude/clean/projects',
  'claude/tool-displaced-result/projects',
  'pi/clean/sessions',
  'hermes/clean',
].map((r) => join(CORPORA, r));
