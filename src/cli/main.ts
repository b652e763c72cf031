/** Entry point: parse → call → render → write → exit code. Never calls process.exit(). */
import yargs from 'yargs';
import { TOOL_VERSION } from '../version.js';
import { auditCommand } from './commands/audit.js';
import { bundleCommand } from './commands/bundle.js';
import { checksCommand } from './commands/checks.js';
import { verifyCommand } from './commands/verify.js';
import { mergeCommand } from './commands/merge.js';
import { inspectCommand } from './commands/inspect.js';
import { pairsCommand } from './commands/pairs.js';
import { lineageCommand } from './commands/lineage.js';
import { timelineCommand } from './commands/timeline.js';
import { reportError, UsageError, EXIT } from '../errors.js';
import type { Io } from './io.js';

export async function main(argv: string[], io: Io): Promise<void> {
  const parser = yargs(argv)
    .scriptName('session-audit')
    .usage("$0 <command> [options]\n\nOffline forensic auditor for AI coding agents' session directories.")
    .command(auditCommand('audit', io))
    .command(auditCommand('validate', io))
    .command(timelineCommand(io))
    .command(pairsCommand(io))
    .command(lineageCommand(io))
    .command(inspectCommand(io))
    .command(mergeCommand(io))
    .command(bundleCommand(io))
    .command(verifyCommand(io))
    .command(checksCommand(io))
    .demandCommand(
      1,
      'give a command: audit, validate, timeline, pairs, inspect, lineage, merge, bundle, verify or checks',
    )
    .strict()
    .version(TOOL_VERSION)
    .help()
    .wrap(Math.min(110, io.columns))
    .exitProcess(false)
    .fail((msg, err) => {
      throw err ?? new UsageError(`${msg} (see --help)`);
    });
  try {
    // yargs hands help and version text to this callback instead of printing it.
    await parser.parseAsync(argv, {}, (err, _argv, output) => {
      if (output && !err) io.stdout(`${output}\n`);
    });
  } catch (e) {
    io.setExitCode(reportError(e, io.stderr));
  }
}

export function processIo(): Io {
  return {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    setExitCode: (c) => {
      process.exitCode = c;
    },
    isTTY: Boolean(process.stdout.isTTY),
    progress: Boolean(process.stderr.isTTY) && !process.env.CI,
    columns: process.stdout.columns || 120,
  };
}

export { EXIT };
