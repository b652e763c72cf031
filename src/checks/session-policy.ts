/**
 * SANDBOX_WIDENED / SANDBOX_CHANGED inside one session: the access policy each turn runs under (as the log records
 * it), compared with the one the session started with, and single calls that run beyond it. Works on the normalized
 * events' `policy`, whatever the agent; the codes have one catalog entry each (checks/sandbox-codes.ts).
 */
import type { PolicyState, SessionEvent } from '../model/events.js';
import { defineCheck } from './define.js';
import { SANDBOX_CODES } from './sandbox-codes.js';

const at = (e: SessionEvent, p: PolicyState) => ({
  file: e.file,
  line: e.line,
  byteOffset: e.byteOffset,
  pointer: p.pointer,
});
const same = (a: PolicyState, b: PolicyState): boolean =>
  a.label === b.label && a.grants.join('\u0000') === b.grants.join('\u0000');

export const sessionPolicy = defineCheck({
  id: 'session-policy',
  validate: false,
  codes: { SANDBOX_WIDENED: SANDBOX_CODES.SANDBOX_WIDENED, SANDBOX_CHANGED: SANDBOX_CODES.SANDBOX_CHANGED },
  create(ctx) {
    /**
     * Per log file (a sub-agent's transcript has its own): the starting policy, the current one, the gains reported.
     */
    const files = new Map<
      string,
      { start: PolicyState; startLine: number; current: PolicyState; currentLine: number; reported: Set<string> }
    >();
    return {
      event(e) {
        const p = e.policy;
        if (!p) return;
        if (p.oneCall) {
          ctx.emit(
            'SANDBOX_WIDENED',
            at(e, p),
            `${p.label}: this call runs with more access than any policy of the session (${p.grants.join('; ')})`,
            // No line number in a key: the fingerprint tells findings apart by the bytes of their line.
            { key: e.toolCallId ?? '' },
          );
          return;
        }
        const f = files.get(e.file);
        if (!f) {
          files.set(e.file, { start: p, startLine: e.line, current: p, currentLine: e.line, reported: new Set() });
          return;
        }
        if (same(p, f.current)) return;
        const gains = p.grants.filter((g) => !f.start.grants.includes(g));
        const fresh = gains.filter((g) => !f.reported.has(g));
        if (fresh.length) {
          for (const g of fresh) f.reported.add(g);
          // Graded by who widened and how far: a switch the agent recorded as the user's own choice is a warning,
          // one to the unrestricted level is an error whoever made it, and anything else is an error.
          const wider = `${p.label}, wider than ${f.start.label} the session started with (line ${f.startLine})`;
          const why = p.unrestricted
            ? `switched to ${wider}: the unrestricted level${p.userChoice ? ', by the user' : ''}`
            : p.userChoice
              ? `the user switched to ${wider} (the agent recorded it as the user's own choice)`
              : `runs under ${wider}`;
          const severity = p.userChoice && !p.unrestricted ? 'warning' : 'error';
          ctx.emit('SANDBOX_WIDENED', at(e, p), `${why}: ${fresh.join('; ')}`, { key: p.label, severity });
        } else if (!gains.length) {
          const losses = f.current.grants.filter((g) => !p.grants.includes(g));
          ctx.emit(
            'SANDBOX_CHANGED',
            at(e, p),
            `runs under ${p.label}, changed from ${f.current.label} (line ` +
              `${f.currentLine})${losses.length ? `; no longer: ${losses.join('; ')}` : ''}; not wider than the ` +
              `session started with`,
            { key: p.label, severity: 'note' },
          );
        }
        f.current = p;
        f.currentLine = e.line;
      },
    };
  },
});
