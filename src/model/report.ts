/**
 * The audit report: the one JSON document every renderer starts from. Modelled in zod so that its JSON
 * Schema (schemas/report.schema.json) is generated from the same truth as the TypeScript types.
 */
import { z } from 'zod';
import { SEVERITIES } from './finding.js';

const Severity = z.enum(SEVERITIES);

export const LocationSchema = z.object({
  file: z.string().describe('Path relative to the session directory; "" for the directory itself.'),
  line: z.number().int().positive().optional(),
  byteOffset: z.number().int().nonnegative().optional(),
  byteLength: z.number().int().nonnegative().optional(),
  pointer: z.string().optional().describe('RFC 6901 JSON Pointer into the record.'),
});

export const FindingSchema = z.object({
  code: z.string(),
  severity: Severity,
  message: z.string(),
  check: z.string(),
  session: z.string().describe('Session id (directory name).'),
  sessionPath: z.string().describe('The session directory as given on the command line.'),
  location: LocationSchema,
  fingerprint: z.string().describe('Stable identity of the finding, for baselines.'),
});

export const FileRecordSchema = z.object({
  path: z.string(),
  type: z.enum(['file', 'dir', 'symlink', 'fifo', 'socket', 'block-device', 'char-device', 'unknown']),
  size: z.number().int().nonnegative().optional(),
  sha256: z.string().optional(),
  linkTarget: z.string().optional(),
  readError: z.string().optional(),
});

const Counts = z.object({ error: z.number().int(), warning: z.number().int(), note: z.number().int() });

export const SessionReportSchema = z.object({
  id: z.string(),
  path: z.string(),
  format: z.string(),
  files: z.array(FileRecordSchema).describe('Every entry under the session directory, with the sha256 of every regular file read.'),
  findings: Counts,
});

export const ToolErrorSchema = z.object({ session: z.string(), check: z.string(), message: z.string() });

export const AuditReportSchema = z
  .object({
    tool: z.object({ name: z.literal('session-audit'), version: z.string() }),
    reportVersion: z.literal(1),
    command: z.enum(['audit', 'validate', 'verify']),
    summary: z.object({
      sessions: z.number().int(),
      files: z.number().int(),
      bytes: z.number().int(),
      findings: Counts,
      byCode: z.record(z.string(), z.number().int()),
    }),
    sessions: z.array(SessionReportSchema),
    findings: z.array(FindingSchema),
    toolErrors: z.array(ToolErrorSchema).describe('Internal errors of the tool itself (a check that crashed); empty in a healthy run.'),
    baseline: z
      .object({
        path: z.string(),
        suppressed: z.number().int().describe('Findings left out because the baseline already holds them (same fingerprint).'),
        absent: z
          .array(z.object({ fingerprint: z.string(), code: z.string(), sessionPath: z.string().optional(), file: z.string().optional(), line: z.number().int().optional() }))
          .describe('Baseline entries that no longer occur: fixed, or the evidence changed.'),
      })
      .optional()
      .describe('Present when --baseline was given.'),
  })
  .meta({ id: 'AuditReport', description: 'The JSON report of `session-audit audit|validate --format json`.' });

export type AuditReport = z.infer<typeof AuditReportSchema>;
export type SessionReport = z.infer<typeof SessionReportSchema>;
export type FileRecord = z.infer<typeof FileRecordSchema>;
export type ToolError = z.infer<typeof ToolErrorSchema>;
