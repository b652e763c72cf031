/**
 * The audit report: the one JSON document every renderer starts from. Modelled in zod so that its JSON
 * Schema (schemas/report.schema.json) is generated from the same truth as the TypeScript types.
 */
import { z } from 'zod';
import { SEVERITIES } from './finding.js';
import { VerdictSchema } from './verdict.js';

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
  fingerprint: z
    .string()
    .describe(
      'Stable identity of the finding, for baselines: survives lines inserted above it ' +
        '(see configuration.fingerprintVersion).',
    ),
});

export const FileRecordSchema = z.object({
  path: z
    .string()
    .describe(
      'Relative to the session directory; a byte of the name that is not valid UTF-8 is written \\xHH and a ' +
        'backslash \\\\ (so two names never give one path).',
    ),
  rawPath: z.string().optional().describe("The path's real bytes, base64, when the name is not valid UTF-8."),
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
  files: z
    .array(FileRecordSchema)
    .describe('Every entry under the session directory, with the sha256 of every regular file read.'),
  findings: Counts,
  dir: z
    .string()
    .optional()
    .describe(
      'For a session stored as files (not a directory of its own): the directory holding them, which its files and ' +
        "its findings' locations are relative to. Absent: they are relative to `path`.",
    ),
  home: z
    .string()
    .optional()
    .describe(
      'The agent home (a dot-directory such as `home/alice/.codex`) the walk entered to find the session: the ' +
        "agents' homes are entered wherever they appear in a tree given, every other dot entry is passed over.",
    ),
  kind: z
    .literal('home')
    .optional()
    .describe(
      "An agent's home, not a session: the files the agent keeps beside its sessions (prompt histories, indexes, " +
        'crash registries), audited against the sessions found in it. Absent: a session.',
    ),
});

export const ToolErrorSchema = z.object({ session: z.string(), check: z.string(), message: z.string() });

const SubagentLinkSchema = z.object({
  id: z.string(),
  file: z.string(),
  line: z.number().int().optional(),
  status: z.string().optional(),
  type: z.string().optional(),
  resumedFrom: z.string().optional(),
});

const LocationInRecordSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  byteOffset: z.number().int().optional(),
  byteLength: z.number().int().optional(),
  pointer: z.string().optional(),
});

/** What the lineage and sandbox checks need from one session (see src/lineage/facts.ts), carried by shard reports. */
export const LineageFactsSchema = z.object({
  id: z.string(),
  path: z.string(),
  abs: z.string(),
  format: z.string(),
  group: z.string().optional(),
  root: z.string(),
  hasSummary: z.boolean(),
  summaryId: z.string().optional(),
  cwd: z.string().optional(),
  createdAt: z.string().optional(),
  sessionKind: z.string().optional(),
  parentSessionId: z.string().optional(),
  forkedAt: z.string().optional(),
  sandboxProfile: z.string().optional(),
  hidden: z.boolean().optional(),
  sourceWorkspaceDir: z.string().optional(),
  subagents: z.array(SubagentLinkSchema),
  resumes: z.array(z.number().int()),
  linkAt: LocationInRecordSchema.optional(),
  linkEvidence: z.string().optional(),
  kindAt: LocationInRecordSchema.optional(),
  selfLinked: z.boolean().optional(),
});

export const ShardSchema = z
  .object({
    index: z.number().int().positive().describe('This shard, 1-based.'),
    count: z.number().int().positive().describe('How many shards the sessions were split into.'),
    paths: z.array(z.string()).describe('The paths audited (every shard must name the same).'),
    options: z.object({
      command: z.enum(['audit', 'validate']),
      ignore: z.array(z.string()),
      severity: z.record(z.string(), z.enum(SEVERITIES)),
      maxLineBytes: z.number().int().positive().optional(),
      maxDbBytes: z.number().int().positive().optional(),
      sandboxConfig: z.array(z.string()),
      against: z.string().optional(),
      home: z.string().optional().describe('The agent home given with --grok-home (its relocation journals).'),
      formatHint: z.string().optional().describe("--format-hint, when the sessions were read as one agent's only."),
    }),
    lineage: z
      .array(LineageFactsSchema)
      .describe("Lineage facts of this shard's sessions: `merge` runs the checks over the whole graph."),
  })
  .describe('Present in the report of `audit --shard k/n`; `merge` combines the shards into the unsharded report.');

const Source = z.enum(['option', 'config', 'default']);

/** What decided the report: where each setting came from, and what it hid. */
export const ConfigurationSchema = z
  .object({
    file: z
      .string()
      .nullable()
      .describe('The config file read (`--config FILE`, or ./.session-audit.json); null when none was read.'),
    skipped: z
      .string()
      .optional()
      .describe(
        'A ./.session-audit.json that was not read because it lies inside an input ' +
          '(evidence never configures its own audit).',
      ),
    failOn: z.enum([...SEVERITIES, 'never']),
    failOnFrom: Source,
    ignore: z
      .array(z.object({ code: z.string(), from: Source.exclude(['default']), hidden: z.number().int().nonnegative() }))
      .describe('Codes left out, where each ignore came from, and how many findings it hid.'),
    severity: z
      .array(
        z.object({
          code: z.string(),
          severity: Severity,
          from: Source.exclude(['default']),
          findings: z.number().int().nonnegative().describe('Findings of this code in the report, at this severity.'),
        }),
      )
      .describe('Severity overrides.'),
    baseline: z.object({ path: z.string(), from: Source.exclude(['default']) }).nullable(),
    fingerprintVersion: z
      .literal(2)
      .describe('2: code, session, file, pointer, key, a digest of the bytes pointed at, occurrence (no line number).'),
  })
  .describe('The effective configuration of the run.');

export const AuditReportSchema = z
  .object({
    tool: z.object({ name: z.literal('session-audit'), version: z.string() }),
    reportVersion: z.literal(1),
    command: z.enum(['audit', 'validate', 'verify']),
    summary: z.object({
      sessions: z.number().int().describe("Sessions audited (agents' homes are not counted: see `homes`)."),
      homes: z
        .number()
        .int()
        .optional()
        .describe("Agents' homes whose own files (histories, indexes) were audited beside their sessions."),
      files: z.number().int(),
      bytes: z.number().int(),
      findings: Counts,
      byCode: z.record(z.string(), z.number().int()),
    }),
    sessions: z.array(SessionReportSchema),
    findings: z.array(FindingSchema),
    toolErrors: z
      .array(ToolErrorSchema)
      .describe('Internal errors of the tool itself (a check that crashed); empty in a healthy run.'),
    configuration: ConfigurationSchema.optional(),
    baseline: z
      .object({
        path: z.string(),
        suppressed: z
          .number()
          .int()
          .describe('Findings left out because the baseline already holds them (same fingerprint).'),
        absent: z
          .array(
            z.object({
              fingerprint: z.string(),
              code: z.string(),
              sessionPath: z.string().optional(),
              file: z.string().optional(),
              line: z.number().int().optional(),
            }),
          )
          .describe('Baseline entries that no longer occur: fixed, or the evidence changed.'),
        matchedBy: z
          .enum(['fingerprint', 'place'])
          .describe(
            'fingerprint: a baseline of fingerprint version 2; place: an older baseline, matched by code, session, ' +
              'file, line and pointer (a finding whose line moved is new until the baseline is written again).',
          ),
      })
      .optional()
      .describe('Present when --baseline was given.'),
    shard: ShardSchema.optional(),
    verdict: VerdictSchema.optional().describe('verify: what the bag or the store proved (and the live session).'),
  })
  .meta({ id: 'AuditReport', description: 'The JSON report of `session-audit audit|validate --format json`.' });

export type AuditReport = z.infer<typeof AuditReportSchema>;
export type SessionReport = z.infer<typeof SessionReportSchema>;
export type FileRecord = z.infer<typeof FileRecordSchema>;
export type ToolError = z.infer<typeof ToolErrorSchema>;
export type Configuration = z.infer<typeof ConfigurationSchema>;
