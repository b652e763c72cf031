/** TIME_*: the authoritative log in emission order — clocks, event-id counters and resumes. */
import type { SessionEvent } from '../model/events.js';
import { isoTime } from '../model/safe-values.js';
import { TimeAnalyzer } from '../timeline/analyze.js';
import { EmissionOrderer } from '../timeline/order.js';
import { defineCheck } from './define.js';

const at = (e: SessionEvent) => ({ file: e.file, line: e.line, byteOffset: e.byteOffset });
const when = (e: SessionEvent): string => isoTime(e.timeMs) ?? '?';

export const time = defineCheck({
  id: 'time',
  validate: false,
  codes: {
    TIME_BACKWARDS: {
      severity: 'warning',
      title: 'The authoritative clock goes backwards',
      help:
        "In emission order, event times (the agent's own clock where it records one, else the line's write time) " +
        'never go back by more than two seconds. A larger step back means the system clock was set back, lines from ' +
        'another time were spliced in, or a fork or import rewrote times.',
    },
    TIME_EVENT_ID_DUPLICATE: {
      severity: 'error',
      title: 'Two lines carry the same eventId',
      help:
        'An agent that numbers its events mints each id once, from a counter that only rises within a process; two ' +
        'lines with one id (that are not byte-identical copies, which JSONL_DUPLICATE_LINE reports) were replayed or ' +
        'spliced from elsewhere.',
    },
    TIME_EVENT_ID_REGRESSION: {
      severity: 'warning',
      title: 'The eventId counter goes down',
      help:
        "Counters stay monotonic across a session's history because a resuming process re-seeds them above the last " +
        "one. A drop that the agent's buffering cannot explain means a binary that did not re-seed picked the " +
        'session up, or lines were reordered.',
    },
    TIME_RESUME_BOUNDARY: {
      severity: 'note',
      title: 'A new process picked the session up here',
      help:
        'Evidence that the session was resumed (or reloaded) by a new process: an event the agent sends when it ' +
        'loads a session, after turns had run; an event-id counter re-seeded after a long silence; a counter that ' +
        'drops; or a prompt long after a turn that never completed. The message states which evidence applies. ' +
        'Everything before it ran in an earlier process.',
    },
    TIME_FILE_ORDER: {
      severity: 'note',
      title: 'Lines were written after lines emitted later',
      help:
        'Some agents buffer lines and write them after lines emitted later: on disk such a line follows lines that ' +
        'came after it, and its event id gives its real place. A healthy writer does this on every log (Grok holds ' +
        'each ACP line until the next one arrives), so it is no longer reported: the timeline shows events in ' +
        'emission order and flags each line written late (L), and a drop the writer cannot explain is a ' +
        'TIME_EVENT_ID_REGRESSION. The code stays for the reports and baselines that name it.',
    },
  },
  create(ctx) {
    const rules = ctx.agent.timeline;
    const newAnalyzer = (): TimeAnalyzer =>
      new TimeAnalyzer(rules, (f) => {
        switch (f.code) {
          case 'TIME_BACKWARDS':
            ctx.emit(
              f.code,
              at(f.event),
              `time goes back ${(f.deltaMs / 1000).toFixed(1)} s, from ${when(f.previous)} (line ` +
                `${f.previous.line}) to ${when(f.event)} (${f.event.timeSource})`,
            );
            break;
          case 'TIME_EVENT_ID_DUPLICATE':
            ctx.emit(
              f.code,
              at(f.event),
              `eventId ${JSON.stringify(f.event.eventId)} was already used at line ${f.firstLine}`,
              { key: f.event.eventId },
            );
            break;
          case 'TIME_EVENT_ID_REGRESSION':
            ctx.emit(
              f.code,
              at(f.event),
              `eventId counter ${f.event.counter} comes after ${f.previous.counter} (line ${f.previous.line}) and ` +
                `this is not ${rules.lateLine}: a process that did not re-seed the counter, or reordered lines`,
            );
            break;
          case 'TIME_RESUME_BOUNDARY':
            ctx.emit(f.code, at(f.event), `a new process picked the session up: ${f.reasons.join('; ')}`);
            break;
        }
      });
    let analyzer = newAnalyzer();
    const orderer = new EmissionOrderer(rules, (e) => analyzer.push(e));
    const endOfLog = (): void => {
      orderer.flush();
      analyzer.end();
    };
    // Each log file is its own clock (a session may send its sub-agents' logs after its own).
    let file: string | undefined;
    return {
      event(e) {
        if (file !== undefined && e.file !== file) {
          endOfLog();
          analyzer = newAnalyzer();
        }
        file = e.file;
        orderer.push(e);
      },
      end: endOfLog,
    };
  },
});
