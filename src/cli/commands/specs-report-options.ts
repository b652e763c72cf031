/**
 * The options of the commands that write a findings report: `reportOptions` for audit and validate (audit's extra
 * ones last), `SARIF_ROOT` for merge too. Light, like every spec: no engine code.
 */
import { REPORT_FORMATS } from '../../report/report-formats.js';
import {
  BASELINE,
  NOTES,
  COLOR,
  FAIL_ON,
  FORMAT_HINT,
  formatOption,
  GROK_HOME,
  MAX_DB_BYTES,
  MAX_LINE_BYTES,
  OUTPUT,
  SANDBOX_CONFIG,
} from '../common-options.js';
import type { OptionSpec } from '../spec.js';

export const SARIF_ROOT: OptionSpec = {
  name: 'sarif-root',
  type: 'string',
  value: 'DIR',
  describe:
    'SARIF only: artifact URIs are relative to DIR (uriBaseId %SRCROOT%), e.g. the repository checkout (default: ' +
    'the current directory when every input is under it, else each input gets its own base id)',
};

export const reportOptions = (command: 'audit' | 'validate'): OptionSpec[] => [
  formatOption(REPORT_FORMATS, 'table'),
  OUTPUT,
  FAIL_ON,
  {
    name: 'ignore',
    type: 'string',
    multiple: true,
    value: 'CODE',
    describe: 'leave out findings with this code (or a comma-separated list); the report counts what it hid',
  },
  {
    name: 'severity',
    type: 'string',
    multiple: true,
    value: 'CODE=LEVEL',
    describe: 'override the severity of a code: CODE=error|warning|note',
  },
  BASELINE,
  NOTES,
  {
    name: 'config',
    type: 'string',
    value: 'FILE',
    describe:
      'the config file (default: ./.session-audit.json when present and not inside an input: evidence never ' +
      'configures its own audit)',
  },
  {
    name: 'jobs',
    alias: 'j',
    type: 'number',
    value: 'N',
    describe: 'sessions audited in N threads (this one and N-1 workers; default 1); the output is identical',
  },
  SARIF_ROOT,
  COLOR,
  MAX_LINE_BYTES,
  MAX_DB_BYTES,
  FORMAT_HINT,
  ...(command === 'audit'
    ? [
        SANDBOX_CONFIG,
        {
          name: 'earlier-capture',
          type: 'string',
          value: 'DIR',
          describe:
            'an earlier capture of the same sessions (a copied session or root): compare recorded sandbox profiles',
        } satisfies OptionSpec,
        {
          name: 'against',
          type: 'string',
          value: 'DIR',
          describe: '',
          deprecated: { use: '--earlier-capture' },
        } satisfies OptionSpec,
        GROK_HOME,
        {
          name: 'shard',
          type: 'string',
          value: 'K/N',
          describe: 'audit only shard K of N (chosen by session id) and write a JSON shard report for `merge`',
        } satisfies OptionSpec,
      ]
    : []),
];
