/**
 * `timeline <session>`: the authoritative timeline, in emission order, with rewinds, compactions and resumes marked.
 */
import type { Argv, CommandModule } from 'yargs';
import { formatOf, sessionNouns } from '../../formats/registry.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../model/records.js';
import { EVENT_KINDS, type EventKind } from '../../model/events.js';
import { sessionTimeline } from '../../engine/timeline.js';
import type { TimelineEvent } from '../../timeline/model.js';
import { TIMELINE_FORMATS, TIMELINE_RENDERERS } from '../../report/timeline.js';
import { UsageError } from '../../errors.js';
import type { Io } from '../io.js';
import { checkOutputPath, writeOutput } from '../../engine/output.js';
import { parseFormat, parseFormatHint, parseMaxLineBytes, withFormatHint } from '../options.js';
import { oneSession } from '../../engine/session.js';

type Args = {
  session: string;
  format: string;
  output?: string;
  since?: string;
  until?: string;
  kind: string[];
  prompt?: number;
  'include-subagents': boolean;
  live: boolean;
  'max-line-bytes'?: number;
  'format-hint'?: string;
};

/** What the model saw: live branch, after the last compaction, conversation kinds only. */
const LIVE_KINDS = new Set<EventKind>([
  'user_prompt',
  'model_text',
  'thought',
  'tool_call',
  'tool_update',
  'compaction_checkpoint',
]);

function parseTime(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const ms = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (Number.isNaN(ms))
    throw new UsageError(
      `${flag} ${JSON.stringify(v)}: expected an ISO 8601 time (2026-08-19T10:00:00Z) or epoch milliseconds`,
    );
  return ms;
}

export function timelineCommand(io: Io): CommandModule<object, Args> {
  return {
    command: 'timeline <session>',
    describe:
      "the authoritative timeline of one session (its agent's log in emission order): rewinds, compactions, " +
      'resumes, subagents',
    builder: (y: Argv) =>
      withFormatHint(y)
        .positional('session', { type: 'string', demandOption: true, describe: `one session: ${sessionNouns()}` })
        .option('format', { alias: 'f', type: 'string', default: 'table', describe: TIMELINE_FORMATS.join(' | ') })
        .option('output', { alias: 'o', type: 'string', describe: 'write to FILE' })
        .option('since', { type: 'string', describe: 'only events at or after this time (ISO 8601 or epoch ms)' })
        .option('until', { type: 'string', describe: 'only events at or before this time' })
        .option('kind', {
          type: 'string',
          array: true,
          default: [] as string[],
          describe: `only these kinds (${EVENT_KINDS.join(', ')})`,
        })
        .option('prompt', { type: 'number', describe: 'only events of this prompt turn (0-based)' })
        .option('include-subagents', {
          type: 'boolean',
          default: false,
          describe: "nest each subagent session's timeline under the event that spawned it",
        })
        .option('live', {
          type: 'boolean',
          default: false,
          describe: 'only what the model saw: no rewound or compacted events, conversation kinds only',
        })
        .option('max-line-bytes', { type: 'number', describe: 'longest JSONL line parsed' }) as unknown as Argv<Args>,
    handler: (argv) => {
      const format = parseFormat(argv.format, TIMELINE_FORMATS);
      const since = parseTime('--since', argv.since);
      const until = parseTime('--until', argv.until);
      const kinds = new Set(argv.kind.flatMap((k) => k.split(',')).filter(Boolean));
      for (const k of kinds)
        if (!(EVENT_KINDS as readonly string[]).includes(k))
          throw new UsageError(`--kind ${JSON.stringify(k)}: expected one of ${EVENT_KINDS.join(', ')}`);
      if (argv.prompt !== undefined && (!Number.isInteger(argv.prompt) || argv.prompt < 0))
        throw new UsageError(`--prompt ${String(argv.prompt)}: expected a prompt turn number (0, 1, …)`);
      const found = oneSession(argv.session, parseFormatHint(argv['format-hint']));
      const output = argv.output === undefined ? undefined : checkOutputPath(argv.output, [argv.session]);
      const limits = { maxLineBytes: parseMaxLineBytes(argv['max-line-bytes']) ?? DEFAULT_MAX_LINE_BYTES };
      const events: TimelineEvent[] = [];
      sessionTimeline(found, { limits, includeSubagents: argv['include-subagents'] }, (e) => {
        if (argv.live && (e.rewound || e.compacted || !LIVE_KINDS.has(e.kind))) return;
        if (kinds.size && !kinds.has(e.kind)) return;
        if (argv.prompt !== undefined && e.promptIndex !== argv.prompt) return;
        if (since !== undefined && (e.timeMs === null || e.timeMs < since)) return;
        if (until !== undefined && (e.timeMs === null || e.timeMs > until)) return;
        events.push(e);
      });
      const text = TIMELINE_RENDERERS[format]({ events, width: io.columns, dataType: formatOf(found).timesketchType });
      writeOutput(text, output, io.stdout);
    },
  };
}
