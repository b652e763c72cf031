/**
 * GEMINI_* of the fold (formats/gemini-cli.md §2.3, §8 cases 6, 7, 11-14, 17, 18): what the records of a file do to
 * the conversation the CLI loads, where that departs from what its writer does, or takes away what the user saw.
 */
import { defineCheck } from '../../../checks/define.js';
import { GEMINI_FILE_KIND } from '../load.js';
import type { GeminiFileFacts } from '../facts.js';

export const geminiFold = defineCheck({
  id: 'gemini-fold',
  validate: true,
  codes: {
    GEMINI_METADATA_REPEATED: {
      severity: 'note',
      title: 'A second metadata line in a session file (a resume in the same minute)',
      help:
        "A resume first opens a new chat for the resumed id, whose file name is the current minute's: when that is " +
        'the minute the file was created, the new metadata line lands in the same file and overwrites startTime and ' +
        "lastUpdated in the CLI's fold, and the snapshot the resume then writes is rebuilt without the tool calls, " +
        'thoughts and token counts. An error when the line names another sessionId or projectHash: files spliced.',
    },
    GEMINI_SESSION_ID_CHANGED: {
      severity: 'error',
      title: 'A $set changes the sessionId of a session file',
      help:
        'A resume writes {"$set":{"sessionId":…}} with the id the file already has. Another id makes the fold ' +
        'claim a different session than line 1: a foreign writer, an edit, or files spliced.',
    },
    GEMINI_REAPPEND_CHANGED: {
      severity: 'error',
      title: 'A message appended again under its id with different type, time or content, or fields removed',
      help:
        'The writer appends a message again whole under the same id when tokens or tool calls arrive: type, ' +
        'timestamp and content stay as they were, fields are only added. Content changes (masking, a resume) come ' +
        'only inside $set.messages snapshots. A bare copy that changes them rewrote what the conversation says ' +
        '(the last copy wins in the fold).',
    },
    GEMINI_REAPPEND_LOST_CALLS: {
      severity: 'warning',
      title: 'A later copy of a message has fewer tool calls than an earlier one',
      help:
        'Tool calls are merged into a message by id and never removed by the writer. A later copy without some of ' +
        'them drops the calls from the conversation the CLI loads: a note after a resume in the same minute (its ' +
        'snapshot is rebuilt from a fold that lost them), else a warning.',
    },
    GEMINI_REWIND_UNKNOWN: {
      severity: 'error',
      title: 'A $rewindTo names a message that is not in the conversation: the CLI empties it',
      help:
        'The CLI writes $rewindTo only for an id it holds; its loader removes that message and every later one, and ' +
        'removes everything when the id is not there. The conversation it loads from this file is empty up to ' +
        'this line; the startup cleanup then deletes a file left with nothing resumable.',
    },
    GEMINI_SNAPSHOT_DROPPED: {
      severity: 'note',
      title: 'A history snapshot left messages the user saw out of the conversation the CLI loads',
      help:
        '$set.messages replaces the whole conversation with the model history: info, error and warning messages, ' +
        'and at a resume or /rewind slash commands and prompts that begin with / or ?, are not in it. The lines ' +
        'stay in the file (the timeline shows them); the conversation a resume continues does not hold them.',
    },
    GEMINI_STATUS_NOT_TERMINAL: {
      severity: 'warning',
      title: 'A tool call recorded with a status that is not terminal',
      help:
        'The CLI records completed calls only: success, error or cancelled. validating, scheduled, executing or ' +
        'awaiting_approval on disk is a foreign writer or a future change; the call may not have run.',
    },
    GEMINI_CANCELLED_UNMARKED: {
      severity: 'note',
      title: 'A cancelled tool call without the CLI\'s "[Operation Cancelled]" result',
      help:
        'A call the CLI cancels gets a functionResponse error "[Operation Cancelled] …". A tool that returned ' +
        'its own response object can leave the marker out; otherwise the result was edited.',
    },
  },
  create(ctx) {
    return {
      doc({ file, kind, value }) {
        if (kind !== GEMINI_FILE_KIND) return;
        const f = value as GeminiFileFacts;
        const at = (x: { line: number; byteOffset: number }, pointer?: string) => ({
          file,
          line: x.line,
          byteOffset: x.byteOffset,
          ...(pointer !== undefined ? { pointer } : {}),
        });
        for (const m of f.moreMeta) {
          const spliced =
            f.first !== undefined && (m.sessionId !== f.first.sessionId || m.projectHash !== f.first.projectHash);
          ctx.emit(
            'GEMINI_METADATA_REPEATED',
            at(m),
            spliced
              ? `another metadata line names session ${m.sessionId} of project ${m.projectHash}, not line 1's: ` +
                  "two sessions' files spliced into one"
              : `another metadata line (startTime ${m.startTime ?? '?'}): a resume in the minute the file was ` +
                  "created; the CLI's fold now says the session started then",
            spliced ? { severity: 'error' } : undefined,
          );
        }
        for (const c of f.idChanges)
          ctx.emit(
            'GEMINI_SESSION_ID_CHANGED',
            at(c, '/$set/sessionId'),
            `$set.sessionId ${c.to}, but line 1 names ${c.from}: the fold claims another session`,
            { key: c.to },
          );
        for (const c of f.changed)
          ctx.emit(
            'GEMINI_REAPPEND_CHANGED',
            at(c),
            `message ${c.id} appended again with ` +
              `${c.fields.map((x) => (x.startsWith('-') ? `${x.slice(1)} removed` : `${x} changed`)).join(', ')} ` +
              `(first at line ${c.prevLine}); the writer keeps them, and this copy wins in the fold`,
            { key: c.id },
          );
        for (const c of f.lostCalls)
          ctx.emit(
            'GEMINI_REAPPEND_LOST_CALLS',
            at(c),
            `this copy of message ${c.id} no longer has the tool call(s) ${c.lost.join(', ')} of the copy at line ` +
              `${c.prevLine}` +
              `${c.afterResume ? ': the snapshot of a resume, rebuilt from a fold that had lost them' : ''}; ` +
              'the conversation the CLI loads does not hold them',
            { key: c.id, ...(c.afterResume ? { severity: 'note' as const } : {}) },
          );
        for (const r of f.unknownRewinds)
          ctx.emit(
            'GEMINI_REWIND_UNKNOWN',
            at(r, '/$rewindTo'),
            `$rewindTo ${r.target} names no message of the conversation: the CLI's loader empties it ` +
              `(${r.removed} message(s) gone from what a resume continues)`,
            { key: r.target },
          );
        for (const s of f.droppedBySnapshot) {
          const what = Object.entries(s.dropped)
            .map(([t, n]) => `${n} ${t}`)
            .join(', ');
          ctx.emit(
            'GEMINI_SNAPSHOT_DROPPED',
            at(s, '/$set/messages'),
            `the history snapshot leaves out ${what} message(s) recorded before it: the lines stay in the file, the ` +
              'conversation the CLI loads does not hold them',
          );
        }
        for (const c of f.nonTerminal)
          ctx.emit(
            'GEMINI_STATUS_NOT_TERMINAL',
            at(c),
            `tool call ${c.id} is recorded as "${c.status}": the CLI records only completed calls`,
            { key: c.id },
          );
        for (const c of f.cancelledUnmarked)
          ctx.emit(
            'GEMINI_CANCELLED_UNMARKED',
            at(c),
            `tool call ${c.id} is cancelled, but its result does not carry "[Operation Cancelled]"`,
            { key: c.id },
          );
      },
    };
  },
});
