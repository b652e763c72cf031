/** Options shared by the commands, and their validation into typed values. */
import { statSync } from 'node:fs';
import type { Argv } from 'yargs';
import { SEVERITIES, type Severity } from '../model/finding.js';
import { codeInfo } from '../checks/catalog.js';
import { UsageError } from '../errors.js';
import type { FailOn } from '../model/finding.js';
import { FORMAT_NAMES } from '../formats/registry.js';

/**
 * `--format-hint grok|codex|claude`: read the inputs as this agent's sessions only (a single file is read as one
 * whatever its first lines).
 */
export function withFormatHint<T>(y: Argv<T>) {
  return y.option('format-hint', {
    type: 'string',
    describe:
      `read the paths as sessions of this agent only: ${FORMAT_NAMES.join(' | ')} (a single file is then ` +
      `read as one, whatever its first lines)`,
  });
}

export function parseFormatHint(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!FORMAT_NAMES.includes(v))
    throw new UsageError(`--format-hint ${JSON.stringify(v)}: expected one of ${FORMAT_NAMES.join(', ')}`);
  return v;
}

export interface CommonArgs {
  format?: string;
  output?: string;
  'fail-on'?: string;
  ignore: string[];
  severity: string[];
  color?: boolean;
  'max-line-bytes'?: number;
  baseline?: string;
  config?: string;
  jobs?: number;
}

/** Report options. No yargs defaults where the config file may supply the value: flags > config > default. */
export function withReportOptions<T>(y: Argv<T>, formats: readonly string[]) {
  return y
    .option('format', { alias: 'f', type: 'string', describe: `output format: ${formats.join(' | ')} (default table)` })
    .option('output', { alias: 'o', type: 'string', describe: 'write the report to FILE instead of stdout' })
    .option('fail-on', {
      type: 'string',
      describe: 'exit 1 when a finding is at or above: error | warning | note | never (default error)',
    })
    .option('ignore', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'drop findings with this CODE (repeatable)',
    })
    .option('severity', {
      type: 'string',
      array: true,
      default: [] as string[],
      describe: 'override a severity: CODE=error|warning|note (repeatable)',
    })
    .option('baseline', {
      type: 'string',
      describe: 'an earlier JSON report: suppress the findings it already holds (by fingerprint)',
    })
    .option('config', { type: 'string', describe: 'the config file (default: ./.session-audit.json when present)' })
    .option('jobs', {
      alias: 'j',
      type: 'number',
      describe: 'sessions audited in parallel, in worker threads (default 1)',
    })
    .option('color', { type: 'boolean', describe: 'force colour on or off (default: on for a terminal)' })
    .option('max-line-bytes', {
      type: 'number',
      describe: 'longest JSONL line parsed; longer lines are reported and skipped (default 64 MiB)',
    });
}

export function parseJobs(v: number | undefined): number {
  if (v === undefined) return 1;
  if (!Number.isInteger(v) || v < 1 || v > 256)
    throw new UsageError(
      `--jobs ${Number.isNaN(v) ? 'is not a number' : String(v)}: expected a whole number from 1 to 256`,
    );
  return v;
}

export function parseMaxLineBytes(v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 1)
    throw new UsageError(
      `--max-line-bytes ${Number.isNaN(v) ? 'is not a number' : String(v)}: expected a positive whole number of ` +
        `bytes (e.g. 67108864)`,
    );
  return v;
}

export function parseFailOn(v: string): FailOn {
  if (v === 'never' || (SEVERITIES as readonly string[]).includes(v)) return v as FailOn;
  throw new UsageError(`--fail-on ${JSON.stringify(v)}: expected error, warning, note or never`);
}

export function parseFormat<F extends string>(v: string, allowed: readonly F[]): F {
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`--format ${JSON.stringify(v)}: expected one of ${allowed.join(', ')}`);
  return v as F;
}

const knownCode = (code: string, flag: string): string => {
  if (!codeInfo(code))
    throw new UsageError(`${flag} ${JSON.stringify(code)}: unknown finding code (see \`session-audit checks\`)`);
  return code;
};

export function parseIgnore(list: readonly string[]): Set<string> {
  return new Set(
    list
      .flatMap((s) => s.split(','))
      .filter(Boolean)
      .map((c) => knownCode(c, '--ignore')),
  );
}

export function parseSeverity(list: readonly string[]): Map<string, Severity> {
  const m = new Map<string, Severity>();
  for (const item of list.flatMap((s) => s.split(',')).filter(Boolean)) {
    const [code, level] = item.split('=');
    if (!code || !level || !(SEVERITIES as readonly string[]).includes(level)) {
      throw new UsageError(`--severity ${JSON.stringify(item)}: expected CODE=error|warning|note`);
    }
    m.set(knownCode(code, '--severity'), level as Severity);
  }
  return m;
}

/** `--grok-home DIR`: an agent home whose relocation journals decide between copies; it must be a directory. */
export function parseHome(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  let isDir = false;
  try {
    isDir = statSync(v).isDirectory();
  } catch {
    /* reported below */
  }
  if (!isDir)
    throw new UsageError(
      `--grok-home ${v}: no such directory (give the grok home that holds the relocation journals, e.g. ~/.grok)`,
    );
  return v;
}
