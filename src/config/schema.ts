/**
 * `.session-audit.json`: project defaults for audit and validate, so a CI job's command line stays short.
 * Modelled in zod; schemas/config.schema.json (for editors) is generated from it.
 */
import { z } from 'zod';
import { SEVERITIES } from '../model/finding.js';
import { REPORT_FORMATS } from '../report/registry.js';

export const ConfigSchema = z
  .object({
    $schema: z.string().optional().describe('The JSON Schema of this file, for editors.'),
    failOn: z
      .enum([...SEVERITIES, 'never'])
      .optional()
      .describe('Exit 1 when a finding is at or above this severity (default error).'),
    format: z.enum(REPORT_FORMATS).optional().describe('Default output format.'),
    ignore: z
      .array(z.string().regex(/^[A-Z][A-Z0-9_]*$/))
      .optional()
      .describe('Finding codes to drop.'),
    severity: z
      .record(z.string().regex(/^[A-Z][A-Z0-9_]*$/), z.enum(SEVERITIES))
      .optional()
      .describe('Per-code severity overrides.'),
    baseline: z
      .string()
      .optional()
      .describe(
        'An earlier JSON report: findings already in it (by fingerprint) are suppressed. Relative to this file.',
      ),
    maxLineBytes: z.number().int().positive().optional().describe('Longest JSONL line parsed (default 64 MiB).'),
    sandboxConfig: z
      .array(z.string())
      .optional()
      .describe('sandbox.toml files defining custom sandbox profiles. Relative to this file.'),
    jobs: z.number().int().min(1).max(256).optional().describe('Sessions audited in parallel (worker threads).'),
  })
  .strict()
  .meta({
    id: 'SessionAuditConfig',
    description: 'session-audit configuration (.session-audit.json). Command-line options override it.',
  });

export type Config = z.infer<typeof ConfigSchema>;
