/** `sessions [paths..]`: one row per session (agent, project, times, prompts, calls, worst finding), by start. */
import { checkOutputFile, writeOutput } from '../../engine/output.js';
import { listSessions, type SessionFilters } from '../../engine/sessions.js';
import { EXIT, UsageError } from '../../errors.js';
import { FORMAT_NAMES } from '../../formats/registry.js';
import { notReadLines } from '../../model/not-read.js';
import { sessionsCsv, sessionsJson } from '../../report/sessions-csv.js';
import { sessionsTable } from '../../report/sessions-table.js';
import { parseFormat, useColor } from '../options.js';
import { pathsOrHomes, timeWindow } from '../review-args.js';
import { progressBar } from '../progress.js';
import { opt, type CommandModule } from '../spec.js';

/** `--agent`, repeated or comma-separated: format names. */
function agents(list: readonly string[]): string[] {
  const out = list.flatMap((v) => v.split(',')).map((v) => v.trim());
  for (const a of out)
    if (!FORMAT_NAMES.includes(a))
      throw new UsageError(`--agent ${JSON.stringify(a)}: expected one of ${FORMAT_NAMES.join(', ')}`);
  return out;
}

export const sessionsModule: CommandModule = {
  run(args, io) {
    const paths = pathsOrHomes(args, 'sessions', 'list');
    const format = parseFormat(opt.str(args, 'format') ?? 'table', ['table', 'json', 'csv']);
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, paths);
    const window = timeWindow(opt.str(args, 'since'), opt.str(args, 'until'), 'session');
    const project = opt.str(args, 'project');
    const filters: SessionFilters = {
      agents: agents(opt.list(args, 'agent')),
      ...window,
      ...(project !== undefined ? { project } : {}),
    };
    const bar = progressBar(io, 'listing');
    let listed: ReturnType<typeof listSessions>;
    try {
      listed = listSessions(paths, filters, bar.tick);
    } finally {
      bar.end();
    }
    const { rows, total, notRead, homes } = listed;
    const text =
      format === 'json'
        ? sessionsJson(rows)
        : format === 'csv'
          ? sessionsCsv(rows)
          : sessionsTable(rows, {
              width: io.columns,
              color: useColor(opt.bool(args, 'color'), io, output !== undefined),
              total,
              homes,
            });
    // A check that failed leaves its session's findings short: said on stderr, and exit 3, as `audit` does.
    for (const e of listed.toolErrors)
      io.stderr(
        `session-audit: internal error in check ${e.check} on ${e.session}:\n${e.message}\nThis is a bug in ` +
          'session-audit; please report it.\n',
      );
    io.setExitCode(listed.toolErrors.length ? EXIT.internal : EXIT.ok);
    io.stderr(notReadLines(notRead, 'the list'));
    writeOutput(text, output, io.stdout);
  },
};
