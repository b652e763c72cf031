/** `inspect <session>`: the report to read before resuming an interrupted session. */
import { fails } from '../../engine/report.js';
import { EXIT, UsageError } from '../../errors.js';
import { checkOutputFile, writeOutput } from '../../engine/output.js';
import { parseFailOn, parseFormat, parseFormatHint, parseMaxDbBytes, useColor } from '../options.js';
import { oneSession } from '../../engine/session.js';
import { readUserFile } from '../../engine/user-files.js';
import { opt, type CommandModule } from '../spec.js';
import { fileTitle } from '../title-file.js';

export const inspectModule: CommandModule = {
  async run(args, io) {
    const format = parseFormat(opt.str(args, 'format') ?? 'text', ['text', 'json']);
    const failOn = parseFailOn(opt.str(args, 'fail-on') ?? 'error');
    const code = opt.num(args, 'exit-code');
    if (code !== undefined && (!Number.isInteger(code) || code < 0 || code > 255))
      throw new UsageError(`--exit-code ${String(code)}: expected a process exit code, 0 to 255`);
    const session = opt.pos(args, 'session');
    const found = oneSession(session, parseFormatHint(opt.str(args, 'format-hint')));
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, [session]);
    const log = opt.str(args, 'headless-log');
    const maxDbBytes = parseMaxDbBytes(opt.num(args, 'max-db-bytes'));
    const extras = {
      ...(log !== undefined ? { headlessLog: { path: log, bytes: readUserFile('--headless-log', log) } } : {}),
      ...(code !== undefined ? { exitCode: code } : {}),
    };
    const [{ inspectSession }, { renderInspect }] = await Promise.all([
      import('../../engine/inspect.js'),
      import('../../report/inspect-text.js'),
    ]);
    const { view, result } = inspectSession(found, extras, maxDbBytes);
    const title = fileTitle(found);
    const color = useColor(opt.bool(args, 'color'), io, output !== undefined);
    const failed = fails(result.findings, failOn);
    // Not safe to resume says more than findings do: a script decides on it (exit 4) before it looks at them.
    io.setExitCode(
      result.toolErrors.length
        ? EXIT.internal
        : !view.report.safeToResume
          ? EXIT.notSafe
          : failed
            ? EXIT.findings
            : EXIT.ok,
    );
    for (const e of result.toolErrors)
      io.stderr(
        `session-audit: internal error in check ${e.check}:\n${e.message}\nThis is a bug in session-audit; ` +
          `please report it.\n`,
      );
    writeOutput(
      format === 'json'
        ? `${JSON.stringify(view.report, null, 2)}\n`
        : renderInspect(view, { color, width: io.columns, ...(title !== undefined ? { title } : {}) }),
      output,
      io.stdout,
    );
  },
};
