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
    const found = oneSession(session, parseFormatHint(opt.str(args, 'format-hint')));
    const outputFlag = opt.str(args, 'output');
    const output = outputFlag === undefined ? undefined : checkOutputFile(outputFlag, [session]);
    const maxDbBytes = parseMaxDbBytes(opt.num(args, 'max-db-bytes'));
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
        title: `Transcript of ${found.display}`,
      });
      sessionTranscript(found, { limits, includeSubagents: opt.bool(args, 'include-subagents') ?? false }, (e) =>
        w.entry(r ? redactEntry(e, r) : e),
      );
      w.end();
    });
  },
};
