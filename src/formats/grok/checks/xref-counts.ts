/** XREF_MESSAGE_COUNT and XREF_TIME_ORDER: summary.json's counters and clocks against the authoritative log. */
import { isFork, parseTime, summaryView, type SummaryView } from '../summary-view.js';
import { isoTime } from '../../../model/safe-values.js';
import { defineCheck } from '../../../checks/define.js';

/** Damage after which a line the agent may have counted no longer parses. */
const LOST = new Set([
  'JSONL_TORN_TAIL',
  'JSONL_BAD_LINE',
  'JSONL_INVALID_UTF8',
  'JSONL_NUL_BYTES',
  'JSONL_OVERSIZED_LINE',
  'JSONL_TOO_DEEP',
]);

export const xrefCounts = defineCheck({
  id: 'xref-counts',
  validate: false,
  codes: {
    XREF_MESSAGE_COUNT: {
      severity: 'error',
      title: 'num_messages disagrees with the lines of updates.jsonl',
      help:
        'summary.json num_messages counts committed appends to updates.jsonl. Fewer parseable lines than ' +
        'counted means committed lines were lost (truncation, deletion, or damage: then a warning pointing at the ' +
        'JSONL findings). More lines than counted has legitimate causes (the summary patch failed or the process ' +
        'died after a committed append; a fork or import set its own count) and is a warning, or a note when the ' +
        'extra lines all come after the last summary update.',
    },
    XREF_TIME_ORDER: {
      severity: 'warning',
      title: 'Timestamps in summary.json contradict each other or the log',
      help:
        'updated_at is set on every summary patch and must not precede created_at; last_active_at only ' +
        'advances with content appends and should not pass updated_at; in a fork, last_active_at is inherited from ' +
        'the source and may precede created_at (not reported). Log lines stamped before the session was created ' +
        'point to clock changes, an import, or spliced lines.',
    },
  },
  create(ctx) {
    let summary: SummaryView | undefined;
    let lines = 0;
    let damaged = 0;
    let firstDamagedLine: number | undefined;
    let present = false;
    let duplicates = 0;
    /** Times of the lines beyond num_messages (bounded), to tell when the excess lines were appended. */
    const extraTimes: number[] = [];
    let extraOverflow = false;
    let early: { line: number; byteOffset: number; t: number } | undefined;
    let created: number | undefined;
    return {
      doc({ kind, value }) {
        if (kind !== 'summary') return;
        summary = summaryView(value);
        created = parseTime(summary?.createdAt);
      },
      record({ file, record }) {
        if (file === 'updates.jsonl' && record.duplicateOf !== undefined) duplicates++;
      },
      event(e) {
        if (e.file !== 'updates.jsonl') return;
        present = true;
        lines++;
        const time = e.timeMs;
        const n = summary?.numMessages;
        if (n !== undefined && lines > n) {
          if (extraTimes.length < 100_000) extraTimes.push(time ?? Number.NaN);
          else extraOverflow = true;
        }
        if (created !== undefined && time !== undefined && time < created - 5000 && !early && !isFork(summary))
          early = { line: e.line, byteOffset: e.byteOffset, t: time };
      },
      damage({ file, damage }) {
        if (file !== 'updates.jsonl' || !LOST.has(damage.code)) return;
        damaged += damage.count ?? 1;
        firstDamagedLine ??= damage.line;
      },
      fileEnd({ file }) {
        if (file === 'updates.jsonl') present = true;
      },
      end() {
        if (!summary) return;
        const log = ctx.session.inventory.find((x) => x.path === 'updates.jsonl');
        // unreadable: SESSION_UNREADABLE says so
        if (log && (log.type !== 'file' || log.readError !== undefined)) return;
        const n = summary.numMessages;
        const at = { file: 'summary.json', pointer: '/num_messages' };
        if (n !== undefined && (present || n > 0) && n !== lines) {
          if (!present) {
            ctx.emit(
              'XREF_MESSAGE_COUNT',
              at,
              `num_messages is ${n} but there is no updates.jsonl: the authoritative log is gone (deleted by hand, ` +
                `or by TTL cleanup if the session is older than cleanup_ttl_days)`,
            );
          } else if (lines < n) {
            const missing = n - lines;
            if (damaged >= missing) {
              ctx.emit(
                'XREF_MESSAGE_COUNT',
                at,
                `num_messages is ${n} but ${lines} line(s) of updates.jsonl parse: ${missing} counted line(s) are ` +
                  `now damaged (first at line ${firstDamagedLine}, see the JSONL findings)`,
                { severity: 'warning' },
              );
            } else {
              ctx.emit(
                'XREF_MESSAGE_COUNT',
                at,
                `num_messages is ${n} but only ${lines} line(s) of updates.jsonl ` +
                  `parse${damaged ? ` and ${damaged} are damaged` : ''}: ${missing - damaged} committed line(s) ` +
                  `are missing (the log was truncated or lines were removed)`,
              );
            }
          } else {
            const excess = lines - n;
            const updated = parseTime(summary.updatedAt);
            const afterPatch =
              updated !== undefined &&
              !extraOverflow &&
              extraTimes.length === excess &&
              extraTimes.every((t) => Number.isFinite(t) && t > updated);
            if (duplicates === excess) {
              ctx.emit(
                'XREF_MESSAGE_COUNT',
                at,
                `updates.jsonl has ${excess} more line(s) than num_messages (${n}), as many as the duplicated ` +
                  `lines reported: the same append was written twice but counted once`,
                { severity: 'note' },
              );
            } else if (afterPatch) {
              ctx.emit(
                'XREF_MESSAGE_COUNT',
                at,
                `updates.jsonl has ${excess} more line(s) than num_messages (${n}), all appended after the ` +
                  `summary's updated_at: the summary patch after a committed append did not land (a crash between ` +
                  `the append and the patch)`,
                { severity: 'note' },
              );
            } else {
              const forkish = isFork(summary)
                ? '; this is a fork, whose copy sets num_messages to the copied count'
                : '';
              ctx.emit(
                'XREF_MESSAGE_COUNT',
                at,
                `updates.jsonl has ${excess} more line(s) than num_messages (${n}): legitimate when a summary ` +
                  `patch failed after a committed append or an import supplied its own count${forkish}; otherwise ` +
                  `another writer appended to the log`,
                { severity: 'warning' },
              );
            }
          }
        }
        const updated = parseTime(summary.updatedAt);
        const active = parseTime(summary.lastActiveAt);
        if (created !== undefined && updated !== undefined && updated < created) {
          ctx.emit(
            'XREF_TIME_ORDER',
            { file: 'summary.json', pointer: '/updated_at' },
            `updated_at ${summary.updatedAt} is before created_at ${summary.createdAt}`,
          );
        }
        if (updated !== undefined && active !== undefined && active > updated + 1000) {
          ctx.emit(
            'XREF_TIME_ORDER',
            { file: 'summary.json', pointer: '/last_active_at' },
            `last_active_at ${summary.lastActiveAt} is after updated_at ${summary.updatedAt}, yet every content ` +
              `append also patches updated_at`,
          );
        }
        if (created !== undefined && active !== undefined && active < created && !isFork(summary)) {
          ctx.emit(
            'XREF_TIME_ORDER',
            { file: 'summary.json', pointer: '/last_active_at' },
            `last_active_at ${summary.lastActiveAt} is before created_at ${summary.createdAt} in a session that is ` +
              `not a fork (only forks inherit an earlier last_active_at)`,
          );
        }
        if (early) {
          ctx.emit(
            'XREF_TIME_ORDER',
            { file: 'updates.jsonl', line: early.line, byteOffset: early.byteOffset },
            `the line is stamped ${isoTime(early.t) ?? String(early.t)}, before the session's created_at ` +
              `${summary.createdAt}: a clock change, an import, or a line from another session`,
          );
        }
      },
    };
  },
});
