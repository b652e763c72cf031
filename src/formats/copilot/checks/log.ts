/**
 * COPILOT_* checks of `events.jsonl` itself (formats/copilot-cli.md §2.1, §2.4, §8): the CLI writes every line with
 * JSON.stringify, keys `type,data,id,timestamp,parentId` in that order (5,416 of 5,416 real lines), so a line that
 * does not re-serialise to itself was written by something else; line 1 is `session.start` and no other is (the
 * CLI refuses to resume otherwise); event ids are unique; `session.resume.eventCount` counts the lines before it (n,
 * or n+1 in CLI 1.0.10): any other count is the trace a `/rewind`, an `/undo` or an edit leaves.
 */
import { defineCheck } from '../../../checks/define.js';
import type { Location } from '../../../model/finding.js';
import { isObj, str } from '../../shared/events.js';
import { damagedLines } from '../../shared/log-lines.js';
import { keep } from '../../../model/events.js';

const ORDER = ['type', 'data', 'id', 'timestamp', 'parentId'];

/** Whether the record's keys are the CLI's (in its order, `agentId` allowed last) and its bytes re-serialise. */
function canonical(v: Record<string, unknown>, byteLength: number): string | undefined {
  const keys = Object.keys(v);
  const extra = keys.length === 6 && keys[5] === 'agentId';
  if (keys.length !== (extra ? 6 : 5) || ORDER.some((k, i) => keys[i] !== k))
    return `its keys are ${keys.slice(0, 8).join(',')} (the CLI writes ${ORDER.join(',')})`;
  const again = Buffer.byteLength(JSON.stringify(v), 'utf8');
  if (again !== byteLength)
    return (
      `it is ${byteLength} bytes where JSON.stringify of the same value gives ${again} (spaces, escapes or ` +
      'number forms the CLI never writes)'
    );
  return undefined;
}

export const copilotLog = defineCheck({
  id: 'copilot-log',
  validate: true,
  codes: {
    COPILOT_NOT_CANONICAL: {
      severity: 'warning',
      title: 'A Copilot CLI log line is not serialised the way the CLI writes it',
      help:
        'Copilot CLI writes every line of events.jsonl with JSON.stringify: compact, keys type, data, id, timestamp, ' +
        'parentId in that order, non-ASCII as raw UTF-8. Every real line seen re-serialises to its own bytes. A line ' +
        'that does not was re-written by another program: an editor, jq, a Python "repair" script (the issues ' +
        'advise stripping NULs or escaping U+2028 by hand), or a forger. One finding per log, at its first such ' +
        'line, with the count.',
    },
    COPILOT_FIRST_NOT_START: {
      severity: 'error',
      title: 'Line 1 of a Copilot CLI log is not session.start',
      help:
        "The CLI's replay requires the first event to be session.start and refuses the session otherwise. A log " +
        'that starts with another type is a slice of one (a copy cut at the front, a hook-time snapshot) or was ' +
        'edited.',
    },
    COPILOT_START_REPEATED: {
      severity: 'error',
      title: 'A second session.start inside a Copilot CLI log',
      help:
        'A session is started once; every later lifetime appends session.resume. A second session.start is two ' +
        'logs concatenated, or a fork made by hand.',
    },
    COPILOT_DUPLICATE_EVENT_ID: {
      severity: 'error',
      title: 'Two lines of a Copilot CLI log carry the same event id',
      help:
        'Every event gets a fresh UUID when it is emitted. A repeated id is a line copied, or the suffix of a merged ' +
        'line (a torn tail followed by a resume that appended without a newline, issue #4098) repeating the ids of ' +
        'its prefix.',
    },
    COPILOT_SHUTDOWN_START: {
      severity: 'error',
      title: "session.shutdown names another start time than the log's session.start",
      help:
        "Every session.shutdown carries the session's start time in epoch milliseconds, which equals " +
        'session.start.data.startTime in every real file (30 of 30 shutdowns). Another time is two sessions ' +
        'concatenated, or a fork or a log made by hand.',
    },
    COPILOT_RESUME_COUNT: {
      severity: 'error',
      title: 'session.resume counts other lines than the log holds before it',
      help:
        'session.resume.eventCount is the number of events persisted when the session was resumed: the lines ' +
        'before it (CLI 0.0.365 to 1.0.18 in every real file), or one more (1.0.10). Any other count means lines ' +
        'were removed or inserted before the resume: /rewind and /undo truncate the log and leave no line of their ' +
        'own, and so does an edit.',
    },
  },
  create(ctx) {
    let first = true;
    /** A session.start was seen (a second one is two logs). */
    let started = false;
    let startMs: number | undefined;
    let bad = 0;
    let lines = 0;
    let unparsed = 0;
    const counted = damagedLines(() => unparsed++);
    let firstBad: { at: Location; why: string } | undefined;
    const ids = new Map<string, number>();
    return {
      damage({ kind, damage }) {
        if (kind === 'events') counted(damage);
      },
      record({ kind, file, record }) {
        if (kind !== 'events') return;
        const v = record.value;
        const at = { file, line: record.line, byteOffset: record.byteOffset };
        lines++;
        const type = isObj(v) ? str(v.type) : undefined;
        if (first) {
          first = false;
          if (type !== 'session.start')
            ctx.emit(
              'COPILOT_FIRST_NOT_START',
              { ...at, pointer: '/type' },
              `the log's first ${type === undefined ? 'line is no event' : `event is ${JSON.stringify(type)}`}, ` +
                'not session.start: Copilot CLI refuses to resume it; a slice of a log, or an edit',
            );
        } else if (type === 'session.start' && started)
          ctx.emit(
            'COPILOT_START_REPEATED',
            { ...at, pointer: '/type' },
            'a second session.start: two logs concatenated, or a fork made by hand',
          );
        if (type === 'session.start' && !started && isObj(v) && isObj(v.data)) {
          const t = typeof v.data.startTime === 'string' ? Date.parse(v.data.startTime) : Number.NaN;
          if (!Number.isNaN(t)) startMs = t;
        }
        if (type === 'session.start') started = true;
        if (type === 'session.shutdown' && startMs !== undefined && isObj(v) && isObj(v.data)) {
          const t = v.data.sessionStartTime;
          if (typeof t === 'number' && t !== startMs)
            ctx.emit(
              'COPILOT_SHUTDOWN_START',
              { ...at, pointer: '/data/sessionStartTime' },
              `sessionStartTime ${t} is not the start time session.start records (${startMs}, ` +
                `${new Date(startMs).toISOString()}): two sessions concatenated, or a log made by hand`,
            );
        }
        if (!isObj(v)) return;
        if (record.recovered === undefined) {
          const why = canonical(v, record.byteLength);
          if (why !== undefined && bad++ === 0) firstBad = { at, why };
        }
        const id = str(v.id);
        if (id !== undefined) {
          const seen = ids.get(id);
          if (seen !== undefined)
            ctx.emit(
              'COPILOT_DUPLICATE_EVENT_ID',
              { ...at, pointer: '/id' },
              `event id ${id} was already used on line ${seen}: a copied line, or a merged line's suffix`,
              { key: id },
            );
          else ids.set(keep(id), record.line);
        }
        if (type === 'session.resume' && isObj(v.data) && typeof v.data.eventCount === 'number') {
          // The events before it: the records, and the lines that held one but do not parse.
          const n = lines - 1 + unparsed;
          const count = v.data.eventCount;
          if (count !== n && count !== n + 1)
            ctx.emit(
              'COPILOT_RESUME_COUNT',
              { ...at, pointer: '/data/eventCount' },
              `eventCount ${count} at resume, but ${n} line(s) precede it: ` +
                (count > n
                  ? `${count - n} line(s) were removed (a /rewind or /undo before this resume, or an edit)`
                  : `${n - count} line(s) were inserted`),
            );
        }
      },
      end() {
        if (firstBad)
          ctx.emit(
            'COPILOT_NOT_CANONICAL',
            firstBad.at,
            `${bad} of ${lines} line(s) are not as Copilot CLI serialises them; the first: ${firstBad.why}. ` +
              'Another program re-wrote them',
          );
      },
    };
  },
});
