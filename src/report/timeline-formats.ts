/** The timeline's output formats (a constant of its own: the command list reads it without loading a renderer). */
export const TIMELINE_FORMATS = ['table', 'jsonl', 'json', 'csv', 'timesketch'] as const;
export type TimelineFormat = (typeof TIMELINE_FORMATS)[number];
