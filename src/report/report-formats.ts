/** The audit report's output formats (a constant of its own: the command list reads it without loading a renderer). */
export const REPORT_FORMATS = ['table', 'json', 'sarif', 'junit', 'markdown', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
