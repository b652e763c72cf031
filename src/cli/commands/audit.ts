/** `audit <path..>` and `validate <path..>`: the same pipeline, with all checks or the schema-level ones. */
import type { Argv, CommandModule } from 'yargs';
import { fails } from '../../audit.js';
import { renderJson } from '../../report/json.js';
import { renderTable } from '../../report/table.js';
import { EXIT } from '../errors.js';
import { checkOutputPath, writeOutput } from '../output.js';
import { parseFailOn, parseFormat, parseIgnore, parseMaxLineBytes, parseSeverity, withReportOptions, type CommonArgs } from '../options.js';
import { runAudit } from '../run-audit.js';
import type { Io } from '../io.js';

const FORMATS = ['table', 'json'] as const;

type Args = CommonArgs & { paths: string[]; 'sandbox-config': string[]; against?: string; 'grok-home'?: string };

export function auditCommand(command: 'audit' | 'validate', io: Io): CommandModule<object, Args> {
  return {
    command: `${command} <paths..>`,
    describe:
      command === 'audit'
        ? 'full audit of session directories, cwd groups or whole sessions roots'
        : 'schema validation only: JSONL damage, record schemas, loadability',
    builder: (y: Argv) =>
      withReportOptions(y.positional('paths', { type: 'string', array: true, demandOption: true }), FORMATS)
        .option('sandbox-config', { type: 'string', array: true, default: [] as string[], describe: 'a sandbox.toml defining custom profiles (repeatable: user file first, then project)' })
        .option('against', { type: 'string', describe: 'an earlier capture (a copied session dir or root) to compare recorded sandbox profiles with' })
        .option('grok-home', { type: 'string', describe: 'the grok home whose relocations/ journals decide between copies (default: the parent of a `sessions` root)' }) as unknown as Argv<Args>,
    handler: (argv) => {
      const format = parseFormat(argv.format, FORMATS);
      const failOn = parseFailOn(argv['fail-on']);
      const options = { command, ignore: parseIgnore(argv.ignore), severity: parseSeverity(argv.severity), maxLineBytes: parseMaxLineBytes(argv['max-line-bytes']) };
      const output = argv.output === undefined ? undefined : checkOutputPath(argv.output, argv.paths);
      const report = runAudit(argv.paths, options, { sandboxConfig: argv['sandbox-config'], ...(argv.against !== undefined ? { against: argv.against } : {}), ...(argv['grok-home'] !== undefined ? { grokHome: argv['grok-home'] } : {}) });
      const text = format === 'json' ? renderJson(report) : renderTable(report, { color: argv.color ?? (output === undefined && io.isTTY), width: io.columns });
      writeOutput(text, output, io.stdout);
      io.setExitCode(report.toolErrors.length ? EXIT.internal : fails(report, failOn) ? EXIT.findings : EXIT.ok);
      for (const e of report.toolErrors) io.stderr(`session-audit: internal error in check ${e.check} on ${e.session}:\n${e.message}\nThis is a bug in session-audit; please report it.\n`);
    },
  };
}
