/** `audit <path..>` and `validate <path..>`: the same pipeline, with all checks or the schema-level ones. */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildReport, fails } from '../../engine/report.js';
import { REPORT_FORMATS } from '../../report/registry.js';
import { applyBaseline, parseBaseline } from '../../report/baseline.js';
import { inputOutside, type SarifPlaces } from '../../report/sarif-places.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Io } from '../io.js';
import { checkOutputFile, writeOutput } from '../../engine/output.js';
import {
  parseFailOn,
  parseFormat,
  parseFormatHint,
  parseHome,
  parseIgnore,
  parseJobs,
  parseMaxDbBytes,
  parseMaxLineBytes,
  parseSeverity,
  useColor,
} from '../options.js';
import { progressBar } from '../progress.js';
import { renderReport } from '../render-report.js';
import { auditTreeParallel } from '../../engine/tree.js';
import { readUserFile } from '../../engine/user-files.js';
import { loadConfig } from '../../config/load.js';
import type { AuditReport } from '../../model/report.js';
import type { FailOn } from '../../model/finding.js';
import { opt, type CommandModule } from '../spec.js';
import { effectiveConfiguration, mergeSources } from '../configuration.js';

/** `--shard k/n`: 1 <= k <= n. */
export function parseShard(v: string | undefined): { index: number; count: number } | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(v);
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || index < 1 || count < 1 || index > count || count > 100_000)
    throw new UsageError(`--shard ${JSON.stringify(v)}: expected k/n with 1 <= k <= n (e.g. --shard 2/8)`);
  return { index, count };
}

/** Where SARIF places files: the inputs' directories (an input file: the directory holding it), `--sarif-root`. */
export function sarifPlaces(inputs: readonly string[], root: string | undefined): SarifPlaces {
  const dirs = inputs.map((p) => {
    try {
      return statSync(p).isDirectory() ? p : dirname(p);
    } catch {
      return p;
    }
  });
  const places: SarifPlaces = { cwd: process.cwd(), inputs: dirs, ...(root !== undefined ? { root } : {}) };
  if (root !== undefined) {
    let isDir = false;
    try {
      isDir = statSync(root).isDirectory();
    } catch {
      /* reported below */
    }
    if (!isDir) throw new UsageError(`--sarif-root ${root}: no such directory`);
    const outside = inputOutside(places);
    if (outside !== undefined)
      throw new UsageError(
        `--sarif-root ${root}: the input ${outside} is not under it ` +
          '(code scanning can only place files below its root)',
      );
  }
  return places;
}

/** The exit code a report calls for. */
export function exitFor(report: AuditReport, failOn: FailOn): number {
  return report.toolErrors.length ? EXIT.internal : fails(report.findings, failOn) ? EXIT.findings : EXIT.ok;
}

export function reportToolErrors(report: AuditReport, io: Io): void {
  for (const e of report.toolErrors)
    io.stderr(
      `session-audit: internal error in check ${e.check} on ${e.session}:\n${e.message}\nThis is a bug in ` +
        `session-audit; please report it.\n`,
    );
}

export function auditModule(command: 'audit' | 'validate'): CommandModule {
  return {
    async run(args, io) {
      const paths = opt.posList(args, 'paths');
      const loaded = loadConfig(opt.str(args, 'config'), paths);
      const { config } = loaded;
      const shard = parseShard(opt.str(args, 'shard'));
      const format = parseFormat(
        opt.str(args, 'format') ?? (shard !== undefined ? 'json' : undefined) ?? config.format ?? 'table',
        REPORT_FORMATS,
      );
      const failOnFlag = opt.str(args, 'fail-on');
      const failOn = parseFailOn(failOnFlag ?? config.failOn ?? 'error');
      const ignoreFrom = mergeSources(
        (config.ignore ?? []).map((c) => [c, true] as [string, true]),
        [...parseIgnore(opt.list(args, 'ignore'))].map((c) => [c, true] as [string, true]),
      );
      const severityFrom = mergeSources(
        Object.entries(config.severity ?? {}),
        parseSeverity(opt.list(args, 'severity')),
      );
      const ignore = new Set(ignoreFrom.keys());
      const severity = new Map([...severityFrom].map(([k, v]) => [k, v.value]));
      const maxLineBytes = parseMaxLineBytes(opt.num(args, 'max-line-bytes')) ?? config.maxLineBytes;
      const jobs = parseJobs(opt.num(args, 'jobs') ?? config.jobs);
      const maxDbBytes = parseMaxDbBytes(opt.num(args, 'max-db-bytes'));
      const options = {
        command,
        ignore,
        severity,
        ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
        ...(maxDbBytes !== undefined ? { maxDbBytes } : {}),
      };
      const baselineFlag = opt.str(args, 'baseline');
      const baselinePath = baselineFlag ?? config.baseline;
      const baseline =
        baselinePath === undefined
          ? undefined
          : parseBaseline(readUserFile('--baseline', baselinePath).toString('utf8'));
      if (typeof baseline === 'string') throw new UsageError(`--baseline ${baselinePath!}: ${baseline}`);
      const outputFlag = opt.str(args, 'output');
      const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, paths);
      const sandboxFlag = opt.list(args, 'sandbox-config');
      const sandboxConfig = sandboxFlag.length ? sandboxFlag : (config.sandboxConfig ?? []);
      const formatHint = parseFormatHint(opt.str(args, 'format-hint'));
      const home = parseHome(opt.str(args, 'grok-home'));
      const against = opt.str(args, 'earlier-capture');
      const tree = {
        sandboxConfig,
        ...(against !== undefined ? { against } : {}),
        ...(home !== undefined ? { home } : {}),
        ...(formatHint !== undefined ? { formatHint } : {}),
      };
      if (shard && format !== 'json')
        throw new UsageError('--shard writes a JSON shard report for `merge`: use --format json (or no --format)');
      if (shard && baselinePath !== undefined)
        throw new UsageError('--shard and --baseline: apply the baseline when merging (`merge --baseline`)');
      const places = format === 'sarif' ? sarifPlaces(paths, opt.str(args, 'sarif-root')) : undefined;
      const bar = progressBar(io, command === 'audit' ? 'auditing' : 'validating');
      let audited: Awaited<ReturnType<typeof auditTreeParallel>>;
      try {
        audited = await auditTreeParallel(paths, options, tree, {
          jobs,
          progress: bar.tick,
          ...(shard ? { shard } : {}),
        });
      } finally {
        bar.end();
      }
      let report = buildReport(audited.results, options.command);
      report.configuration = effectiveConfiguration(
        {
          loaded,
          failOn,
          failOnFrom: failOnFlag !== undefined ? 'option' : config.failOn !== undefined ? 'config' : 'default',
          ignore: new Map([...ignoreFrom].map(([k, v]) => [k, v.from])),
          severity: new Map([...severityFrom].map(([k, v]) => [k, { severity: v.value, from: v.from }])),
          ...(baselinePath !== undefined
            ? { baseline: { path: baselinePath, from: baselineFlag !== undefined ? 'option' : 'config' } }
            : {}),
        },
        audited.results,
        report.findings,
      );
      if (loaded.skipped)
        io.stderr(
          `session-audit: ${loaded.skipped.path} not read: it lies inside the input ${loaded.skipped.input} ` +
            '(evidence never configures its own audit; name it with --config to use it)\n',
        );
      if (shard) {
        report = {
          ...report,
          shard: {
            ...shard,
            paths,
            options: {
              command,
              ignore: [...ignore].sort(),
              severity: Object.fromEntries([...severity].sort(([a], [b]) => (a < b ? -1 : 1))),
              ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
              ...(maxDbBytes !== undefined ? { maxDbBytes } : {}),
              sandboxConfig,
              ...(tree.against !== undefined ? { against: tree.against } : {}),
              ...(tree.home !== undefined ? { home: tree.home } : {}),
              ...(formatHint !== undefined ? { formatHint } : {}),
            },
            lineage: audited.facts,
          },
        };
      }
      if (baseline) report = applyBaseline(report, baseline, baselinePath!);
      const text = await renderReport({
        format,
        report,
        options,
        failOn,
        paths,
        graphs: audited.graphs,
        color: useColor(opt.bool(args, 'color'), io, output !== undefined),
        width: io.columns,
        ...(opt.bool(args, 'notes') ? { notes: true } : {}),
        ...(places ? { sarif: places } : {}),
        ...(formatHint !== undefined ? { formatHint } : {}),
      });
      io.setExitCode(exitFor(report, failOn));
      reportToolErrors(report, io);
      writeOutput(text, output, io.stdout);
    },
  };
}
