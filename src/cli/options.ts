/** The validation of option values into typed values (one-line usage errors). */
import { statSync } from 'node:fs';
import { SEVERITIES, type Severity } from '../model/finding.js';
import { codeInfo } from '../checks/catalog.js';
import { UsageError } from '../errors.js';
import type { FailOn } from '../model/finding.js';
import { FORMAT_NAMES } from '../formats/registry.js';

export function parseFormatHint(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (!FORMAT_NAMES.includes(v))
    throw new UsageError(`--format-hint ${JSON.stringify(v)}: expected one of ${FORMAT_NAMES.join(', ')}`);
  return v;
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

export function parseMaxDbBytes(v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 1)
    throw new UsageError(
      `--max-db-bytes ${Number.isNaN(v) ? 'is not a number' : String(v)}: expected a positive whole number of ` +
        `bytes (e.g. 2147483648)`,
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

export { useColor } from './color.js';

/** `--limit N`: table rows shown; 0 is all. */
export function parseLimit(v: number | undefined, dflt = 1000): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < 0)
    throw new UsageError(`--limit ${String(v)}: expected a whole number (0: no limit)`);
  return v === 0 ? Number.POSITIVE_INFINITY : v;
}

/** A time option (`--since`, `--until`): ISO 8601 or epoch milliseconds. */
export function parseTime(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const ms = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (Number.isNaN(ms))
    throw new UsageError(
      `${flag} ${JSON.stringify(v)}: expected an ISO 8601 time (2026-08-19T10:00:00Z) or epoch milliseconds`,
    );
  return ms;
}
