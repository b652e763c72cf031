/** `verify <bag>`: a conforming BagIt validator plus custody, signature and append-only checks. */
import type { Argv, CommandModule } from 'yargs';
import { fails } from '../../engine/report.js';
import { renderJson } from '../../report/json.js';
import { renderTable, formatLocation } from '../../report/table.js';
import { escapeText } from '../../report/escape.js';
import { EXIT } from '../../errors.js';
import type { Io } from '../io.js';
import { checkOutputPath, writeOutput } from '../../engine/output.js';
import { parseFailOn, parseFormat } from '../options.js';

const FORMATS = ['table', 'json'] as const;

type Args = {
  bag: string;
  key?: string;
  against?: string;
  format: string;
  output?: string;
  'fail-on': string;
  color?: boolean;
};

export function verifyCommand(io: Io): CommandModule<object, Args> {
  return {
    command: 'verify <bag>',
    describe:
      'verify a BagIt bag (directory, zip, tar, tar.gz): manifests, completeness, Payload-Oxum, custody signature; ' +
      '--against a live session',
    builder: (y: Argv) =>
      y
        .positional('bag', {
          type: 'string',
          demandOption: true,
          describe: 'a bag directory or archive (read in place, never extracted)',
        })
        .option('key', {
          type: 'string',
          describe: 'an Ed25519 public key (PEM) the custody signature must verify with',
        })
        .option('against', {
          type: 'string',
          describe: 'a live session directory (or its group or root): check the logs only grew since the capture',
        })
        .option('format', { alias: 'f', type: 'string', default: 'table', describe: FORMATS.join(' | ') })
        .option('output', { alias: 'o', type: 'string', describe: 'write the report to FILE' })
        .option('fail-on', {
          type: 'string',
          default: 'error',
          describe: 'exit 1 when a finding is at or above: error | warning | note | never',
        })
        .option('color', { type: 'boolean', describe: 'force colour on or off' }) as unknown as Argv<Args>,
    handler: async (argv) => {
      const format = parseFormat(argv.format, FORMATS);
      const failOn = parseFailOn(argv['fail-on']);
      const inputs = [argv.bag, ...(argv.against !== undefined ? [argv.against] : [])];
      const output = argv.output === undefined ? undefined : checkOutputPath(argv.output, inputs);
      const { runVerify } = await import('../../engine/verify.js');
      const { report, contents } = await runVerify({
        bag: argv.bag,
        ...(argv.key !== undefined ? { key: argv.key } : {}),
        ...(argv.against !== undefined ? { against: argv.against } : {}),
      });
      let text: string;
      if (format === 'json') text = renderJson(report);
      else {
        text = renderTable(report, { color: argv.color ?? (output === undefined && io.isTTY), width: io.columns });
        const errors = report.summary.findings.error;
        if (contents) {
          const payload = [...contents.members.values()].filter((m) => m.name.startsWith('data/'));
          const verdict = errors ? `INVALID: ${errors} error${errors === 1 ? '' : 's'}` : 'valid';
          text +=
            `Bag ${escapeText(argv.bag)} (${contents.kind}): ${payload.length} payload files, ` +
            `${payload.reduce((n, m) => n + m.size, 0)} bytes: ${verdict}.\n`;
          if (contents.archiveSha256) text += `archive sha256: ${contents.archiveSha256}\n`;
        }
      }
      writeOutput(text, output, io.stdout);
      for (const f of report.findings) {
        if (f.severity === 'warning')
          io.stderr(
            `session-audit: warning: ${f.code} ${escapeText(formatLocation(f.location))}: ${escapeText(f.message)}\n`,
          );
      }
      io.setExitCode(fails(report.findings, failOn) ? EXIT.findings : EXIT.ok);
    },
  };
}
