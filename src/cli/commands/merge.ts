/**
 * `merge <shard reports..>`: the shards of `audit --shard k/n` combined into one report, identical to an unsharded run.
 */
import type { Argv, CommandModule } from 'yargs';
import { fails } from '../../engine/report.js';
import { REPORT_FORMATS } from '../../report/registry.js';
import { applyBaseline, parseBaseline } from '../../report/baseline.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Io } from '../io.js';
import { checkOutputPath, writeOutput } from '../../engine/output.js';
import { parseFailOn, parseFormat } from '../options.js';
import { renderReport } from '../render-report.js';
import { readUserFile } from '../../engine/user-files.js';

type Args = {
  reports: string[];
  format: string;
  output?: string;
  'fail-on': string;
  baseline?: string;
  color?: boolean;
};

export function mergeCommand(io: Io): CommandModule<object, Args> {
  return {
    command: 'merge <reports..>',
    describe: 'combine the JSON shard reports of `audit --shard k/n` into the report of the unsharded run',
    builder: (y: Argv) =>
      y
        .positional('reports', {
          type: 'string',
          array: true,
          demandOption: true,
          describe: 'every shard report (1/n … n/n)',
        })
        .option('format', { alias: 'f', type: 'string', default: 'table', describe: REPORT_FORMATS.join(' | ') })
        .option('output', { alias: 'o', type: 'string', describe: 'write the report to FILE' })
        .option('fail-on', {
          type: 'string',
          default: 'error',
          describe: 'exit 1 when a finding is at or above: error | warning | note | never',
        })
        .option('baseline', {
          type: 'string',
          describe: 'an earlier JSON report: suppress the findings it already holds',
        })
        .option('color', { type: 'boolean', describe: 'force colour on or off' }) as unknown as Argv<Args>,
    handler: async (argv) => {
      const format = parseFormat(argv.format, REPORT_FORMATS);
      const failOn = parseFailOn(argv['fail-on']);
      const output = argv.output === undefined ? undefined : checkOutputPath(argv.output, []);
      const { mergeShards } = await import('../../engine/merge.js');
      const merged = mergeShards(argv.reports);
      let report = merged.report;
      if (argv.baseline !== undefined) {
        const entries = parseBaseline(readUserFile('--baseline', argv.baseline).toString('utf8'));
        if (typeof entries === 'string') throw new UsageError(`--baseline ${argv.baseline}: ${entries}`);
        report = applyBaseline(report, entries, argv.baseline);
      }
      const text = await renderReport({
        format,
        report,
        options: merged.options,
        failOn,
        paths: merged.paths,
        graphs: merged.graphs,
        color: argv.color ?? (output === undefined && io.isTTY),
        width: io.columns,
        ...(merged.formatHint !== undefined ? { formatHint: merged.formatHint } : {}),
      });
      writeOutput(text, output, io.stdout);
      io.setExitCode(
        report.toolErrors.length ? EXIT.internal : fails(report.findings, failOn) ? EXIT.findings : EXIT.ok,
      );
    },
  };
}
