/** The lineage graph's output formats (a constant of its own: the command list reads it without loading a renderer). */
export const LINEAGE_FORMATS = ['table', 'json', 'dot', 'mermaid'] as const;
export type LineageFormat = (typeof LINEAGE_FORMATS)[number];
