/** Options several commands take, as specs (light: no engine code is loaded to describe them). */
import { EVENT_KINDS } from '../model/events.js';
import type { OptionSpec } from './spec.js';

export const formatOption = (formats: readonly string[], dflt: string): OptionSpec => ({
  name: 'format',
  alias: 'f',
  type: 'string',
  value: 'FORMAT',
  describe: `output format: ${formats.join(' | ')} (default ${dflt})`,
});

export const OUTPUT: OptionSpec = {
  name: 'output',
  alias: 'o',
  type: 'string',
  value: 'FILE',
  describe:
    'write to FILE instead of standard output: written to a new file and renamed into place; refused when FILE ' +
    'is a symlink, has other hard links, or lies inside an input',
};

export const FAIL_ON: OptionSpec = {
  name: 'fail-on',
  type: 'string',
  value: 'LEVEL',
  describe: 'exit 1 when a finding is at or above LEVEL: error | warning | note | never (default error)',
};

export const COLOR: OptionSpec = {
  name: 'color',
  type: 'boolean',
  describe:
    'colour on or off (default: on when standard output is a terminal and NO_COLOR is not set; FORCE_COLOR=1 or 0 ' +
    'decides for a pipe too)',
};

export const FORMAT_HINT: OptionSpec = {
  name: 'format-hint',
  type: 'string',
  value: 'AGENT',
  describe: (f) =>
    `read the paths as sessions of this agent only: ${f.formatNames.join(' | ')} (a single file is then read as ` +
    'one, whatever its first lines)',
};

export const MAX_LINE_BYTES: OptionSpec = {
  name: 'max-line-bytes',
  type: 'number',
  value: 'N',
  describe: 'longest JSONL line parsed; longer lines are reported and skipped (default 67108864, 64 MiB)',
};

export const MAX_DB_BYTES: OptionSpec = {
  name: 'max-db-bytes',
  type: 'number',
  value: 'N',
  describe:
    "largest database copied and read (Hermes's SQLite database with its write-ahead log and journal); a larger " +
    'one is reported and not read (default 2147483648, 2 GiB)',
};

export const SANDBOX_CONFIG: OptionSpec = {
  name: 'sandbox-config',
  type: 'string',
  multiple: true,
  value: 'FILE',
  describe: 'a sandbox.toml defining custom profiles (user file first, then project)',
};

export const GROK_HOME: OptionSpec = {
  name: 'grok-home',
  type: 'string',
  value: 'DIR',
  describe: 'the grok home whose relocation journals decide between copies (default: the parent of a sessions root)',
};

export const BASELINE: OptionSpec = {
  name: 'baseline',
  type: 'string',
  value: 'FILE',
  describe: 'an earlier JSON report: the findings it already holds are suppressed (matched by fingerprint)',
};

export const NOTES: OptionSpec = {
  name: 'notes',
  type: 'boolean',
  describe:
    'list every note, and every finding of a code in a file, as a row of its own in the table and the HTML page ' +
    "(by default a session's notes are one line by code, and five or more findings of one code in one file one " +
    'row); the JSON, SARIF and JUnit reports keep every finding anyway',
};

export const LIMIT: OptionSpec = {
  name: 'limit',
  type: 'number',
  value: 'N',
  describe: 'table rows shown (default 1000; 0: all); the line under the table says how many more there are',
};

/** Exit codes of a command whose findings gate the run. */
export const GATING_EXITS: Array<[number, string]> = [
  [0, 'no finding at or above --fail-on'],
  [1, 'findings at or above --fail-on'],
  [2, 'unusable arguments, paths or output (one line on stderr)'],
  [3, 'an internal error of session-audit (please report it)'],
];

/** Exit codes of a command that only shows what it read. */
export const PLAIN_EXITS: Array<[number, string]> = [
  [0, 'done (findings do not change the exit code; use audit to gate)'],
  [2, 'unusable arguments, paths or output (one line on stderr)'],
  [3, 'an internal error of session-audit (please report it)'],
];

/** The time window of `timeline` and `search`: both bounds inclusive, on the event's own time. */
export const SINCE: OptionSpec = {
  name: 'since',
  type: 'string',
  value: 'TIME',
  describe: 'only events at or after TIME (ISO 8601 or epoch ms)',
};
export const UNTIL: OptionSpec = {
  name: 'until',
  type: 'string',
  value: 'TIME',
  describe: 'only events at or before TIME (ISO 8601 or epoch ms)',
};
export const EVENT_KIND: OptionSpec = {
  name: 'kind',
  type: 'string',
  multiple: true,
  value: 'KIND',
  describe: `only events of these kinds (comma-separated or repeated): ${EVENT_KINDS.join(', ')}`,
};
