/**
 * `timeline <session>`: the authoritative timeline, in emission order, with rewinds, compactions and resumes marked.
 * Events are written as the log is read: no format holds the whole timeline in memory.
 */
import { formatNamed, formatOf } from '../../formats/registry.js';
import { recalledTimeline } from '../../engine/recalled.js';
import { sessionById } from '../../engine/session-by-id.js';
import type { TimelineEvent } from '../../timeline/model.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../model/records.js';
import { EVENT_KINDS, type EventKind } from '../../model/events.js';
import { sessionTimeline } from '../../engine/timeline.js';
import { TIMELINE_FORMATS, timelineWriter } from '../../report/timeline.js';
import { UsageError } from '../../errors.js';
import { checkOutputFile, withOutput } from '../../engine/output.js';
import {
  parseFormat,
  parseFormatHint,
  parseLimit,
  parseMaxDbBytes,
  parseMaxLineBytes,
  parseTime,
  useColor,
} from '../options.js';
import { oneSession } from '../../engine/session.js';
import { opt, type CommandModule } from '../spec.js';

/** What the model saw: live branch, after the last compaction, conversation kinds only. */
const LIVE_KINDS = new Set<EventKind>([
  'user_prompt',
  'model_text',
  'thought',
  'tool_call',
  'tool_update',
  'compaction_checkpoint',
]);

export const timelineModule: CommandModule = {
  run(args, io) {
    const format = parseFormat(opt.str(args, 'format') ?? 'table', TIMELINE_FORMATS);
    const since = parseTime('--since', opt.str(args, 'since'));
    const until = parseTime('--until', opt.str(args, 'until'));
    const kinds = new Set(
      opt
        .list(args, 'kind')
        .flatMap((k) => k.split(','))
        .filter(Boolean),
    );
    for (const k of kinds)
      if (!(EVENT_KINDS as readonly string[]).includes(k))
        throw new UsageError(`--kind ${JSON.stringify(k)}: expected one of ${EVENT_KINDS.join(', ')}`);
    const prompt = opt.num(args, 'prompt');
    if (prompt !== undefined && (!Number.isInteger(prompt) || prompt < 0))
      throw new UsageError(`--prompt ${String(prompt)}: expected a prompt turn number (0, 1, …)`);
    const limit = parseLimit(opt.num(args, 'limit'));
    const session = opt.pos(args, 'session');
    const hint = parseFormatHint(opt.str(args, 'format-hint'));
    const id = opt.str(args, 'id');
    const maxDbBytes = parseMaxDbBytes(opt.num(args, 'max-db-bytes'));
    const picked = id === undefined ? { live: oneSession(session, hint) } : sessionById(session, id, hint, maxDbBytes);
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, [session]);
    const limits = {
      maxLineBytes: parseMaxLineBytes(opt.num(args, 'max-line-bytes')) ?? DEFAULT_MAX_LINE_BYTES,
      ...(maxDbBytes !== undefined ? { maxDbBytes } : {}),
    };
    const live = opt.bool(args, 'live') ?? false;
    io.setExitCode(0);
    withOutput(output, io.stdout, (out) => {
      const agent = 'live' in picked ? formatOf(picked.live) : formatNamed(picked.gone.format)!;
      const w = timelineWriter(format, (s) => out.write(s), {
        width: io.columns,
        dataType: agent.timesketchType,
        ...(agent.timeline.writtenLate ? { lateFlag: agent.timeline.lateLine } : {}),
        color: useColor(opt.bool(args, 'color'), io, output !== undefined),
        ...(format === 'table' ? { limit } : {}),
        onOmitted: (n, why) =>
          io.stderr(
            `session-audit: ${n} event(s) without a time left out of the Timesketch export (${why}); every event ` +
              'is in --format jsonl\n',
          ),
      });
      const each = (e: TimelineEvent): void => {
        // A message that ends a turn (Claude's "[Request interrupted by user]") is one the model sees.
        if (live && (e.rewound || e.compacted || !(LIVE_KINDS.has(e.kind) || e.endsTurn))) return;
        if (kinds.size && !kinds.has(e.kind)) return;
        if (prompt !== undefined && e.promptIndex !== prompt) return;
        if (since !== undefined && (e.timeMs === null || e.timeMs < since)) return;
        if (until !== undefined && (e.timeMs === null || e.timeMs > until)) return;
        w.event(e);
      };
      if ('gone' in picked) recalledTimeline(picked.gone, each);
      else
        sessionTimeline(picked.live, { limits, includeSubagents: opt.bool(args, 'include-subagents') ?? false }, each);
      w.end();
    });
  },
};
