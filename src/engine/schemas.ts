/** Every JSON Schema file this project generates: each format's on-disk records, and our own outputs. */
import { ConfigSchema } from '../config/schema.js';
import { FORMATS } from '../formats/registry.js';
import type { FormatModule, SchemaEntry } from '../formats/types.js';
import { AuditReportSchema } from '../model/report.js';
import { TimelineEventSchema } from '../timeline/model.js';

export const ALL_SCHEMAS: SchemaEntry[] = [
  ...(FORMATS as readonly FormatModule[]).flatMap((f) => Object.values(f.schemas)),
  { file: 'report.schema.json', schema: AuditReportSchema },
  { file: 'timeline-event.schema.json', schema: TimelineEventSchema },
  { file: 'config.schema.json', schema: ConfigSchema },
];
