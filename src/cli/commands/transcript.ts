/**
 * `transcript <session>`: what the agent did, as a reader wants it: prompts, replies, tool calls rendered for what
 * they are with their results and statuses, rewinds, compactions and resumes as dividers, and every finding of the
 * audit at the line where it happened. Entries are written as the log is read.
 */
import { redactor } from '../../bundle/redact.js';
import { UsageError } from '../../errors.js';
import { checkOutputFile, withOutput } from '../../engine/output.js';
import { oneSession } from '../../engine/session.js';
import { redactEntry, sessionTranscript } from '../../engine/transcript.js';
import { recalledTranscript } from '../../engine/recalled.js';
import { sessionById } from '../../engine/session-by-id.js';
import type { TranscriptEntry } from '../../model/transcript.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../model/records.js';
import { TRANSCRIPT_FORMATS, transcriptWriter } from '../../report/transcript.js';
import { parseFormat, parseFormatHint, parseMaxDbBytes, parseMaxLineBytes, useColor } from '../options.js';
import { opt, type CommandModule } from '../spec.js';

export const transcriptModule: CommandModule = {
  run(args, io) {
    const format = parseFormat(opt.str(args, 'format') ?? 'terminal', TRANSCRIPT_FORMATS);
    const session = opt.pos(args, 'session');
    const patterns = opt.list(args, 'redact-pattern');
    const redact = opt.bool(args, 'redact') ?? false;
    if (patterns.length && !redact) throw new UsageError('--redact-pattern needs --redact');
    const r = redact ? redactor(patterns) : undefined;
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
    io.setExitCode(0);
    withOutput(output, io.stdout, (out) => {
      const w = transcriptWriter(format, (s) => out.write(s), {
        width: io.columns,
        color: format === 'terminal' && useColor(opt.bool(args, 'color'), io, output !== undefined),
        full: opt.bool(args, 'full') ?? false,
        thinking: opt.bool(args, 'thinking') ?? false,
        title:
          'live' in picked
            ? `Transcript of ${picked.live.display}`
            : `Transcript of ${picked.gone.id} (recalled: its log is gone)`,
      });
      const each = (e: TranscriptEntry): void => w.entry(r ? redactEntry(e, r) : e);
      if ('gone' in picked) recalledTranscript(picked.gone, each);
      else
        sessionTranscript(
          picked.live,
          { limits, includeSubagents: opt.bool(args, 'include-subagents') ?? false },
          each,
        );
      w.end();
    });
  },
};
