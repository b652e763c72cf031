/** The formats of `transcript` (kept apart so the command's spec names them without loading a renderer). */
export const TRANSCRIPT_FORMATS = ['terminal', 'markdown', 'html', 'jsonl'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];
