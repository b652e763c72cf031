/** Every JSON Schema file this project generates, on-disk formats and our own outputs alike. */
import type { SchemaEntry } from './grok/schemas.js';
import { GROK_SCHEMAS } from './grok/schemas.js';
import { CODEX_SCHEMAS } from './codex/schemas.js';
import { CLAUDE_SCHEMAS } from './claude/schemas.js';
import { AuditReportSchema } from '../model/report.js';
import { TimelineEventSchema } from '../timeline/model.js';
import { ConfigSchema } from '../config/schema.js';

export const ALL_SCHEMAS: SchemaEntry[] = [...Object.values(GROK_SCHEMAS), ...Object.values(CODEX_SCHEMAS), ...Object.values(CLAUDE_SCHEMAS), { file: 'report.schema.json', schema: AuditReportSchema },
  { file: 'timeline-event.schema.json', schema: TimelineEventSchema },
  { file: 'config.schema.json', schema: ConfigSchema },
];
