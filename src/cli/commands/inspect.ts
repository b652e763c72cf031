/** `inspect <session>`: the report to read before resuming an interrupted session. */
import type { Argv, CommandModule } from 'yargs';
import { fails } from '../../engine/report.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Io } from '../io.js';
import { checkOutputPath, writeOutput } from '../../engine/output.js';
import { parseFailOn, parseFormat, parseFormatHint, withFormatHint } from '../options.js';
import { oneSession } from '../../engine/session.js';
import { sessionNouns } from '../../formats/registry.js';
import { readUserFile } from '../../engine/user-files.js';

type Args = {
  session: string;
  format: string;
  output?: string;
  'fail-on': string;
  'headless-log'?: string;
  'exit-code'?: number;
  color?: boolean;
  'format-hint'?: string;
};

export function inspectCommand(io: Io): CommandModule<object, Args> {
  return {
    command: 'inspect <session>',
    describe:
      'before resuming an interrupted session: how it stopped, calls in flight, running subagents, the resume command',
    builder: (y: Argv) =>
      withFormatHint(y)
        .positional('session', { type: 'string', demandOption: true, describe: `one session: ${sessionNouns()}` })
        .option('format', { alias: 'f', type: 'string', default: 'text', describe: 'text | json' })
        .option('output', { alias: 'o', type: 'string', describe: 'write the report to FILE' })
        .option('fail-on', {
          type: 'string',
          default: 'error',
          describe: 'exit 1 when an audit finding is at or above: error | warning | note | never',
        })
        .option('headless-log', {
          type: 'string',
          describe: 'what `grok -p --output-format streaming-json|json` printed for this run, to cross-check',
        })
        .option('exit-code', {
          type: 'number',
          describe: 'the exit code of that `grok -p` run (130 SIGINT, 143 SIGTERM, 129 SIGHUP, 1 error)',
        })
        .option('color', { type: 'boolean', describe: 'force colour on or off' }) as unknown as Argv<Args>,
    handler: async (argv) => {
      const format = parseFormat(argv.format, ['text', 'json']);
      const failOn = parseFailOn(argv['fail-on']);
      const code = argv['exit-code'];
      if (code !== undefined && (!Number.isInteger(code) || code < 0 || code > 255))
        throw new UsageError(`--exit-code ${String(code)}: expected a process exit code, 0 to 255`);
      const found = oneSession(argv.session, parseFormatHint(argv['format-hint']));
      const output = argv.output === undefined ? undefined : checkOutputPath(argv.output, [argv.session]);
      const log = argv['headless-log'];
      const extras = {
        ...(log !== undefined ? { headlessLog: { path: log, bytes: readUserFile('--headless-log', log) } } : {}),
        ...(code !== undefined ? { exitCode: code } : {}),
      };
      const [{ inspectSession }, { renderInspect }] = await Promise.all([
        import('../../engine/inspect.js'),
        import('../../report/inspect-text.js'),
      ]);
      const { view, result } = inspectSession(found, extras);
      const color = argv.color ?? (output === undefined && io.isTTY);
      writeOutput(
        format === 'json'
          ? `${JSON.stringify(view.report, null, 2)}\n`
          : renderInspect(view, { color, width: io.columns }),
        output,
        io.stdout,
      );
      const failed = fails(result.findings, failOn);
      io.setExitCode(result.toolErrors.length ? EXIT.internal : failed ? EXIT.findings : EXIT.ok);
      for (const e of result.toolErrors)
        io.stderr(
          `session-audit: internal error in check ${e.check}:\n${e.message}\nThis is a bug in session-audit; ` +
            `please report it.\n`,
        );
    },
  };
}
