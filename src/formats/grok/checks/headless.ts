/**
 * XREF_HEADLESS_*: what CI captured around an interrupted `grok -p` run (its streaming-json / json output and
 * its exit code, given to `inspect`) against the session directory. Runs only when that evidence is given.
 */
import { parseHeadless, type HeadlessRun } from '../headless.js';
import { defineCheck } from '../../../checks/define.js';

const SIGNALS: Record<number, string> = { 130: 'SIGINT', 143: 'SIGTERM', 129: 'SIGHUP' };

export const headless = defineCheck({
  id: 'headless',
  validate: false,
  codes: {
    XREF_HEADLESS_SESSION_ID: {
      severity: 'error',
      title: 'The headless output names another session',
      help:
        'In `grok -p --output-format streaming-json` the session id is on the final `end` event; in `json` ' +
        'output it is on the top-level object. An id that is not the inspected session means the captured output ' +
        'belongs to another run. A stream cut off before `end` names no session: it is then matched by its tool ' +
        'call ids (a note).',
    },
    XREF_HEADLESS_TAIL: {
      severity: 'warning',
      title: "The headless output and the session's tail disagree",
      help:
        'The last tool events of the captured stream should be tool calls the session recorded, with the same ' +
        "status, and the final stopReason should be the stop_reason of the session's last turn_completed. Stdout " +
        'is buffered, so a killed process can lose its last lines (the session then shows more than the stream); ' +
        'the reverse (the stream shows what the session never recorded) means lost session lines or another ' +
        'session.',
    },
    XREF_HEADLESS_EXIT: {
      severity: 'warning',
      title: 'The exit code disagrees with how the last turn ended',
      help:
        'grok exits 0 on success, 1 on an error (including max turns), 2 on a managed-requirements failure, ' +
        'and 130/143/129 on SIGINT/SIGTERM/SIGHUP. A signal exit with a last turn that completed normally means ' +
        'the signal came after the turn (or the code belongs to another run); exit 0 with a last turn that never ' +
        'completed means the session lost its tail.',
    },
  },
  create(ctx) {
    const { extras, session } = ctx;
    const log = extras.headlessLog;
    const run: HeadlessRun | undefined = log && 'bytes' in log ? parseHeadless(log.bytes) : undefined;
    const wanted = new Set(run?.tools.map((t) => t.id) ?? []);
    const status = new Map<string, { status?: string; line: number }>();
    let lastTurn: { seq: number; line: number } | undefined;
    let lastEnd: { seq: number; line: number; stop?: string } | undefined;
    let lastCallLine = 0;
    const callsAfter: string[] = [];
    return {
      event(e) {
        if (e.file !== 'updates.jsonl' || (!log && extras.exitCode === undefined)) return;
        if (e.opensTurn) lastTurn = { seq: e.seq, line: e.line };
        if (e.kind === 'turn_completed') lastEnd = { seq: e.seq, line: e.line, stop: e.stopReason };
        if (e.toolCallId !== undefined && (e.kind === 'tool_call' || e.kind === 'tool_update')) {
          if (wanted.has(e.toolCallId)) {
            const prev = status.get(e.toolCallId);
            const terminal = prev?.status === 'completed' || prev?.status === 'failed';
            status.set(e.toolCallId, {
              status: terminal ? prev!.status : (e.toolStatus ?? prev?.status),
              line: e.line,
            });
          }
          if (e.kind === 'tool_call') {
            lastCallLine = e.line;
            callsAfter.push(e.toolCallId);
            if (callsAfter.length > 50) callsAfter.shift();
          }
        }
      },
      end() {
        if (log) {
          const at = { file: log.path };
          if (!run) {
            ctx.emit('XREF_HEADLESS_TAIL', at, `the headless log cannot be read (${'error' in log ? log.error : '?'})`);
          } else if (run.format === 'unknown') {
            ctx.emit(
              'XREF_HEADLESS_TAIL',
              at,
              `${run.lines} line(s), none of them a grok -p json or streaming-json event`,
            );
          } else {
            const known = run.tools.filter((t) => status.has(t.id)).length;
            if (run.sessionId !== undefined && run.sessionId !== session.id) {
              ctx.emit(
                'XREF_HEADLESS_SESSION_ID',
                { ...at, line: run.format === 'json' ? 1 : run.lines },
                `the ${run.format === 'json' ? 'output' : '`end` event'} names session ` +
                  `${JSON.stringify(run.sessionId)}, not ${JSON.stringify(session.id)}: this output belongs to ` +
                  `another run`,
              );
            } else if (run.sessionId === undefined) {
              const tie = run.tools.length
                ? `${known} of its ${run.tools.length} tool call id(s) are in this session`
                : 'it has no tool events either, so nothing ties it to this session';
              ctx.emit(
                'XREF_HEADLESS_SESSION_ID',
                at,
                `the stream ended without an \`end\` event (the run was cut off before printing ` +
                  `it${run.error ? `; last error: ${JSON.stringify(run.error)}` : ''}), so it names no session; ` +
                  `${tie}`,
                { severity: run.tools.length && known === run.tools.length ? 'note' : 'warning' },
              );
            }
            for (const t of run.tools.slice(-20)) {
              const st = status.get(t.id);
              if (!st) {
                ctx.emit(
                  'XREF_HEADLESS_TAIL',
                  { ...at, line: t.line },
                  `the stream reports tool call ${t.id}${t.title ? ` (${JSON.stringify(t.title)})` : ''}, which ` +
                    `this session's updates.jsonl never recorded`,
                  { key: t.id },
                );
              } else if (t.status !== undefined && st.status !== undefined && t.status !== st.status) {
                const sessionAhead =
                  (st.status === 'completed' || st.status === 'failed') &&
                  t.status !== 'completed' &&
                  t.status !== 'failed';
                ctx.emit(
                  'XREF_HEADLESS_TAIL',
                  { ...at, line: t.line },
                  `the stream's last status for ${t.id} is ${t.status}, the session's (updates.jsonl:${st.line}) ` +
                    `is ${st.status}` +
                    (sessionAhead
                      ? ': the session recorded the completion after stdout stopped (buffered output lost when the ' +
                        'process died)'
                      : ''),
                  { key: t.id, ...(sessionAhead ? { severity: 'note' as const } : {}) },
                );
              }
            }
            const lastStreamTool = run.tools.at(-1)?.id;
            const idx = lastStreamTool === undefined ? -1 : callsAfter.lastIndexOf(lastStreamTool);
            const later = idx >= 0 ? callsAfter.length - 1 - idx : 0;
            if (later > 0)
              ctx.emit(
                'XREF_HEADLESS_TAIL',
                at,
                `the session recorded ${later} tool call(s) after the last one the stream shows (up to ` +
                  `updates.jsonl:${lastCallLine}): stdout lost its tail`,
                { key: 'later', severity: 'note' },
              );
            const sessionStop = lastEnd && lastTurn && lastEnd.seq > lastTurn.seq ? lastEnd.stop : undefined;
            if (run.stopReason !== undefined && sessionStop !== undefined && run.stopReason !== sessionStop) {
              ctx.emit(
                'XREF_HEADLESS_TAIL',
                { ...at, line: run.lines },
                `the output's stopReason is ${run.stopReason}, the session's last turn ended ${sessionStop} ` +
                  `(updates.jsonl:${lastEnd!.line})`,
                { key: 'stop' },
              );
            }
          }
        }
        const code = extras.exitCode;
        if (code === undefined) return;
        const completed = lastEnd !== undefined && lastTurn !== undefined && lastEnd.seq > lastTurn.seq;
        const stop = completed ? lastEnd!.stop : undefined;
        const where = completed
          ? `its last turn ended ${stop ?? '?'} (updates.jsonl:${lastEnd!.line})`
          : lastTurn
            ? `its last turn (from updates.jsonl:${lastTurn.line}) never completed`
            : 'it has no prompt turn at all';
        const at = { file: log?.path ?? 'updates.jsonl' };
        if (SIGNALS[code]) {
          if (completed && stop !== 'cancelled')
            ctx.emit(
              'XREF_HEADLESS_EXIT',
              at,
              `exit ${code} (${SIGNALS[code]}) says the run was interrupted, but ${where}: the signal came after ` +
                `the turn finished, or the code belongs to another run`,
            );
        } else if (code === 0) {
          if (!completed || stop === 'cancelled' || stop === 'error')
            ctx.emit('XREF_HEADLESS_EXIT', at, `exit 0 says the run succeeded, but ${where}`);
        } else if (code === 1) {
          if (completed && stop === 'end_turn')
            ctx.emit(
              'XREF_HEADLESS_EXIT',
              at,
              `exit 1 says the run failed, but ${where}: the failure came after the turn (saving, reporting) or ` +
                `the code belongs to another run`,
              { severity: 'note' },
            );
        } else if (code === 2) {
          if (lastTurn)
            ctx.emit(
              'XREF_HEADLESS_EXIT',
              at,
              `exit 2 is a managed-requirements failure before any work, but the session has prompt turns (${where})`,
            );
        } else {
          ctx.emit('XREF_HEADLESS_EXIT', at, `exit ${code} is not one grok uses (0, 1, 2, 129, 130, 143); ${where}`, {
            severity: 'note',
          });
        }
      },
    };
  },
});
