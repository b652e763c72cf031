/** `activity [paths..]`: per session, the commands run, the files touched, the tools reaching outside, failed calls. */
import { type ActivityFilters, sessionActivity } from '../../engine/activity.js';
import { checkOutputFile, writeOutput } from '../../engine/output.js';
import { EXIT, UsageError } from '../../errors.js';
import { FORMAT_NAMES } from '../../formats/registry.js';
import { ACTIVITY_KINDS, type ActivityKind } from '../../model/activity.js';
import { notReadLines } from '../../model/not-read.js';
import { activityCsv, activityJson } from '../../report/activity-csv.js';
import { activityTable } from '../../report/activity-table.js';
import { parseFormat, useColor } from '../options.js';
import { pathsOrHomes, timeWindow } from '../review-args.js';
import { progressBar } from '../progress.js';
import { opt, type CommandModule } from '../spec.js';

/** A repeated or comma-separated option, each value one of `allowed`. */
function listOf<T extends string>(flag: string, list: readonly string[], allowed: readonly T[]): T[] {
  const out = list.flatMap((v) => v.split(',')).map((v) => v.trim());
  for (const a of out)
    if (!(allowed as readonly string[]).includes(a))
      throw new UsageError(`${flag} ${JSON.stringify(a)}: expected one of ${allowed.join(', ')}`);
  return out as T[];
}

export const activityModule: CommandModule = {
  run(args, io) {
    const paths = pathsOrHomes(args, 'activity', 'read');
    const format = parseFormat(opt.str(args, 'format') ?? 'table', ['table', 'json', 'csv']);
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, paths);
    const window = timeWindow(opt.str(args, 'since'), opt.str(args, 'until'), 'entry');
    const filters: ActivityFilters = {
      agents: listOf('--agent', opt.list(args, 'agent'), FORMAT_NAMES),
      kinds: listOf<ActivityKind>('--kind', opt.list(args, 'kind'), ACTIVITY_KINDS),
      ...window,
    };
    const bar = progressBar(io, 'reading');
    let read: ReturnType<typeof sessionActivity>;
    try {
      read = sessionActivity(paths, filters, bar.tick);
    } finally {
      bar.end();
    }
    const { sessions, total, notRead } = read;
    const text =
      format === 'json'
        ? activityJson(sessions)
        : format === 'csv'
          ? activityCsv(sessions)
          : activityTable(sessions, {
              width: io.columns,
              color: useColor(opt.bool(args, 'color'), io, output !== undefined),
              total,
            });
    // A check that failed leaves its session's findings short: said on stderr, and exit 3, as `audit` does.
    for (const e of read.toolErrors)
      io.stderr(
        `session-audit: internal error in check ${e.check} on ${e.session}:\n${e.message}\nThis is a bug in ` +
          'session-audit; please report it.\n',
      );
    io.setExitCode(read.toolErrors.length ? EXIT.internal : EXIT.ok);
    io.stderr(notReadLines(notRead, 'the activity'));
    writeOutput(text, output, io.stdout);
  },
};
