/** `audit <path..>` and `validate <path..>`: the same pipeline, with all checks or the schema-level ones. */
import type { Argv, CommandModule } from 'yargs';
import { buildReport, fails } from '../../engine/report.js';
import { REPORT_FORMATS } from '../../report/registry.js';
import { applyBaseline, parseBaseline } from '../../report/baseline.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Io } from '../io.js';
import { checkOutputPath, writeOutput } from '../../engine/output.js';
import {
  parseFailOn,
  parseFormat,
  parseFormatHint,
  parseHome,
  parseIgnore,
  parseJobs,
  parseMaxLineBytes,
  parseSeverity,
  withFormatHint,
  withReportOptions,
  type CommonArgs,
} from '../options.js';
import { progressBar } from '../progress.js';
import { renderReport } from '../render-report.js';
import { auditTreeParallel } from '../../engine/tree.js';
import { readUserFile } from '../../engine/user-files.js';
import { loadConfig } from '../../config/load.js';

type Args = CommonArgs & {
  paths: string[];
  'sandbox-config': string[];
  against?: string;
  'grok-home'?: string;
  shard?: string;
  'format-hint'?: string;
};

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

export function auditCommand(command: 'audit' | 'validate', io: Io): CommandModule<object, Args> {
  return {
    command: `${command} <paths..>`,
    describe:
      command === 'audit'
        ? 'full audit of session directories, cwd groups or whole sessions roots'
        : 'schema validation only: JSONL damage, record schemas, loadability',
    builder: (y: Argv) =>
      withFormatHint(
        withReportOptions(y.positional('paths', { type: 'string', array: true, demandOption: true }), REPORT_FORMATS),
      )
        .option('sandbox-config', {
          type: 'string',
          array: true,
          default: [] as string[],
          describe: 'a sandbox.toml defining custom profiles (repeatable: user file first, then project)',
        })
        .option('against', {
          type: 'string',
          describe: 'an earlier capture (a copied session dir or root) to compare recorded sandbox profiles with',
        })
        .option('grok-home', {
          type: 'string',
          describe:
            'the grok home whose relocation journals decide between copies (default: the parent of a `sessions` root)',
        })
        .option('shard', {
          type: 'string',
          describe: 'audit only shard k of n (k/n), chosen by session id; combine the JSON shard reports with `merge`',
        }) as unknown as Argv<Args>,
    handler: async (argv) => {
      const { config } = loadConfig(argv.config);
      const format = parseFormat(
        argv.format ?? (argv.shard !== undefined ? 'json' : undefined) ?? config.format ?? 'table',
        REPORT_FORMATS,
      );
      const failOn = parseFailOn(argv['fail-on'] ?? config.failOn ?? 'error');
      const ignore = new Set([...(config.ignore ?? []), ...parseIgnore(argv.ignore)]);
      const severity = new Map([...Object.entries(config.severity ?? {}), ...parseSeverity(argv.severity)]);
      const maxLineBytes = parseMaxLineBytes(argv['max-line-bytes']) ?? config.maxLineBytes;
      const jobs = parseJobs(argv.jobs ?? config.jobs);
      const options = { command, ignore, severity, ...(maxLineBytes !== undefined ? { maxLineBytes } : {}) };
      const baselinePath = argv.baseline ?? config.baseline;
      const baseline =
        baselinePath === undefined
          ? undefined
          : parseBaseline(readUserFile('--baseline', baselinePath).toString('utf8'));
      if (typeof baseline === 'string') throw new UsageError(`--baseline ${baselinePath!}: ${baseline}`);
      const output = argv.output === undefined ? undefined : checkOutputPath(argv.output, argv.paths);
      const sandboxConfig = argv['sandbox-config'].length ? argv['sandbox-config'] : (config.sandboxConfig ?? []);
      const formatHint = parseFormatHint(argv['format-hint']);
      const home = parseHome(argv['grok-home']);
      const tree = {
        sandboxConfig,
        ...(argv.against !== undefined ? { against: argv.against } : {}),
        ...(home !== undefined ? { home } : {}),
        ...(formatHint !== undefined ? { formatHint } : {}),
      };
      const shard = parseShard(argv.shard);
      if (shard && format !== 'json')
        throw new UsageError('--shard writes a JSON shard report for `merge`: use --format json (or no --format)');
      if (shard && baselinePath !== undefined)
        throw new UsageError('--shard and --baseline: apply the baseline when merging (`merge --baseline`)');
      const bar = progressBar(io, command === 'audit' ? 'auditing' : 'validating');
      let audited: Awaited<ReturnType<typeof auditTreeParallel>>;
      try {
        audited = await auditTreeParallel(argv.paths, options, tree, {
          jobs,
          progress: bar.tick,
          ...(shard ? { shard } : {}),
        });
      } finally {
        bar.end();
      }
      let report = buildReport(audited.results, options.command);
      if (shard) {
        report = {
          ...report,
          shard: {
            ...shard,
            paths: argv.paths,
            options: {
              command,
              ignore: [...ignore].sort(),
              severity: Object.fromEntries([...severity].sort(([a], [b]) => (a < b ? -1 : 1))),
              ...(maxLineBytes !== undefined ? { maxLineBytes } : {}),
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
        paths: argv.paths,
        graphs: audited.graphs,
        color: argv.color ?? (output === undefined && io.isTTY),
        width: io.columns,
        ...(formatHint !== undefined ? { formatHint } : {}),
      });
      writeOutput(text, output, io.stdout);
      io.setExitCode(
        report.toolErrors.length ? EXIT.internal : fails(report.findings, failOn) ? EXIT.findings : EXIT.ok,
      );
      for (const e of report.toolErrors)
        io.stderr(
          `session-audit: internal error in check ${e.check} on ${e.session}:\n${e.message}\nThis is a bug in ` +
            `session-audit; please report it.\n`,
        );
    },
  };
}
