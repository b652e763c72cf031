/**
 * `merge <shard reports..>`: the shards of `audit --shard k/n` combined into one report, identical to an unsharded run.
 */
import { REPORT_FORMATS } from '../../report/registry.js';
import { applyBaseline, parseBaseline } from '../../report/baseline.js';
import { UsageError } from '../../errors.js';
import { checkOutputFile, writeOutput } from '../../engine/output.js';
import { parseFailOn, parseFormat, useColor } from '../options.js';
import { renderReport } from '../render-report.js';
import { readUserFile } from '../../engine/user-files.js';
import { opt, type CommandModule } from '../spec.js';
import { exitFor, reportToolErrors, sarifPlaces } from './audit.js';

export const mergeModule: CommandModule = {
  async run(args, io) {
    const reports = opt.posList(args, 'reports');
    const format = parseFormat(opt.str(args, 'format') ?? 'table', REPORT_FORMATS);
    const failOnFlag = opt.str(args, 'fail-on');
    const failOn = parseFailOn(failOnFlag ?? 'error');
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, reports);
    const { mergeShards } = await import('../../engine/merge.js');
    const merged = mergeShards(reports);
    let report = merged.report;
    const baselinePath = opt.str(args, 'baseline');
    if (report.configuration)
      report.configuration = {
        ...report.configuration,
        failOn,
        failOnFrom: failOnFlag !== undefined ? 'option' : 'default',
        baseline: baselinePath !== undefined ? { path: baselinePath, from: 'option' } : null,
      };
    if (baselinePath !== undefined) {
      const entries = parseBaseline(readUserFile('--baseline', baselinePath).toString('utf8'));
      if (typeof entries === 'string') throw new UsageError(`--baseline ${baselinePath}: ${entries}`);
      report = applyBaseline(report, entries, baselinePath);
    }
    const places = format === 'sarif' ? sarifPlaces(merged.paths, opt.str(args, 'sarif-root')) : undefined;
    const text = await renderReport({
      format,
      report,
      options: merged.options,
      failOn,
      paths: merged.paths,
      graphs: merged.graphs,
      color: useColor(opt.bool(args, 'color'), io, output !== undefined),
      width: io.columns,
      ...(opt.bool(args, 'notes') ? { notes: true } : {}),
      ...(places ? { sarif: places } : {}),
      ...(merged.formatHint !== undefined ? { formatHint: merged.formatHint } : {}),
    });
    io.setExitCode(exitFor(report, failOn));
    reportToolErrors(report, io);
    writeOutput(text, output, io.stdout);
  },
};
