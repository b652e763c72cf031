/**
 * `sandbox-events.jsonl` (home-artifacts.md §1.3): Grok's sandbox log, one `SandboxEvent` line appended per event
 * (`{timestamp, event_type, profile, workspace?, enforced?, operation?, target?, error?, …}`), without a lock and
 * never trimmed. It names no session: a line is tied to a session by its time within the session's span and its
 * workspace, the session's cwd. The startup line (ProfileApplied or ApplyFailed) is written when a process installs
 * a profile other than off; an FsViolation whenever a file tool meets a permission error, also after an ApplyFailed.
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import type { Location } from '../../../model/finding.js';
import { SANDBOX_EVENT_CODES } from './sandbox-codes.js';
import {
  inSpan,
  isObj,
  type Place,
  readSandboxLog,
  SANDBOX_EVENTS,
  SLACK_MS,
  type SandboxEvent as Ev,
} from './sandbox-log.js';
import { inGroup, sessionSpans, type SessionSpan } from './session-spans.js';

export { SANDBOX_EVENTS } from './sandbox-log.js';

type Codes = keyof typeof SANDBOX_EVENT_CODES;
type Ctx = HomeCheckContext<Codes>;

/** The event kinds of `SandboxEventType` (types.rs:150-158), and the three the known writer produces. */
const WRITTEN = new Set(['ProfileApplied', 'ApplyFailed', 'FsViolation']);
const DECLARED = new Set([...WRITTEN, 'NetViolation', 'BypassGranted', 'BypassDenied']);
/** Damage the reader reports beside a record it still delivers. */
const KEPT = new Set(['JSONL_DUPLICATE_LINE', 'JSONL_UNTERMINATED_TAIL', 'JSONL_CRLF']);
/** Findings of one code on lines of their own, before the rest are counted in one more. */
const CAP = 50;
const NOT_JUDGED = 'a cut or damaged line, or one another program wrote; it is not judged.';

const at = (p: Place): Location => ({
  file: SANDBOX_EVENTS,
  line: p.line,
  byteOffset: p.byteOffset,
  byteLength: p.byteLength,
});
const iso = (ms: number): string => new Date(ms).toISOString();
const short = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** Emit on lines, at most CAP of one code, then one finding that counts the rest. */
function capped(ctx: Ctx, code: Codes, noun: string) {
  let n = 0;
  let first: Place | undefined;
  return {
    emit(p: Place, message: string, key: string) {
      n++;
      if (n <= CAP) ctx.emit(code, at(p), message, { key });
      else first ??= p;
    },
    end() {
      if (first)
        ctx.emit(
          code,
          at(first),
          `${n - CAP} more ${noun} of ${SANDBOX_EVENTS} (from line ${first.line}) are not listed.`,
          {
            key: 'more',
          },
        );
    },
  };
}

/** The startup line in force at `ms` for a workspace: the nearest ProfileApplied or ApplyFailed before it. */
function startupBefore(startups: readonly Ev[], ms: number, workspace: string | undefined, group?: string) {
  let best: Ev | undefined;
  for (const s of startups) {
    if (s.timeMs > ms + SLACK_MS) continue;
    if (group !== undefined && s.workspace !== undefined && !inGroup(s.workspace, group)) continue;
    if (group === undefined && workspace !== undefined && s.workspace !== undefined && s.workspace !== workspace)
      continue;
    if (!best || s.timeMs >= best.timeMs) best = s;
  }
  return best;
}

const notApplied = (s: Ev | undefined): boolean =>
  s !== undefined && (s.type === 'ApplyFailed' || s.enforced === false);

function violations(ctx: Ctx, found: readonly Ev[], startups: readonly Ev[], spans: readonly SessionSpan[]): void {
  const out = capped(ctx, 'GROK_SANDBOX_VIOLATION_OUTSIDE_SESSIONS', 'violations outside every session');
  for (const v of found) {
    const ws = v.workspace;
    if (spans.some((s) => inSpan(v, s))) continue;
    const startup = startupBefore(startups, v.timeMs, ws);
    const what = `${v.operation ?? 'an operation'} of ${short(v.target ?? 'a path it does not name')}`;
    const where = ws !== undefined ? ` in workspace ${short(ws)}` : ' (the line names no workspace)';
    const off = startup?.enforced === false ? ', enforced false' : '';
    const eperm = notApplied(startup)
      ? ` The startup line before it (line ${startup!.line}, ${startup!.type}${off}) says the sandbox was not ` +
        'applied: this can be an ordinary EPERM, not a sandbox denial.'
      : '';
    out.emit(
      v,
      `An FsViolation at ${v.timestamp} (${what})${where} falls in no session of the home: the session was ` +
        'deleted since (the 30-day cleanup) or the process was no TUI session (the workspace server); a process ' +
        `ran then.${eperm}`,
      `violation:${v.timestamp}`,
    );
  }
  out.end();
}

function profiles(ctx: Ctx, startups: readonly Ev[], spans: readonly SessionSpan[]): void {
  const seen = new Set<string>();
  for (const s of spans) {
    if (s.profile === undefined || s.profile === 'off' || s.startMs === undefined || seen.has(s.id)) continue;
    seen.add(s.id);
    const startup = startupBefore(startups, s.startMs, undefined, s.group);
    const profile = JSON.stringify(short(s.profile));
    const claim = `session ${s.id} records sandbox profile ${profile} and started at ${iso(s.startMs)}`;
    let why: string;
    if (!startup)
      why =
        `no ProfileApplied line of ${SANDBOX_EVENTS} for its workspace precedes it: the binary was built without ` +
        'the enforce feature (it logs nothing), the log was removed or started after the session, or the sandbox ' +
        'was never installed and the session ran unsandboxed';
    else if (startup.type === 'ApplyFailed')
      why =
        `the nearest startup line before it (line ${startup.line}, ${startup.timestamp}) is an ApplyFailed` +
        `${startup.error !== undefined ? ` (${short(startup.error)})` : ''}: the profile was not applied, and the ` +
        'FsViolation lines that follow can be ordinary EPERM errors, not sandbox denials';
    else if (startup.enforced === false)
      why =
        `the nearest startup line before it (line ${startup.line}, ${startup.timestamp}) says enforced false: ` +
        'the profile was recorded but not enforced on this platform';
    else continue;
    ctx.emit(
      'GROK_SANDBOX_PROFILE_NOT_APPLIED',
      startup ? at(startup) : { file: SANDBOX_EVENTS },
      `${claim}, but ${why}.`,
      {
        key: s.id,
      },
    );
  }
}

export const grokSandboxEvents = defineHomeCheck({
  id: 'grok-sandbox-events',
  codes: SANDBOX_EVENT_CODES,
  run(ctx) {
    if (!ctx.source.entry(SANDBOX_EVENTS)) return;
    const unreadable = capped(ctx, 'GROK_SANDBOX_UNREADABLE', 'lines that are not events');
    const unknown = capped(ctx, 'GROK_SANDBOX_UNKNOWN_EVENT', 'lines of an unknown kind');
    const order = capped(ctx, 'GROK_SANDBOX_TIME_ORDER', 'lines back in time');
    const startups: Ev[] = [];
    const found: Ev[] = [];
    const delivered = new Set<number>();
    const damaged: Array<Place & { detail: string }> = [];
    let prev: Ev | undefined;
    const read = readSandboxLog(
      ctx.source,
      (r, e) => {
        const p = { line: r.line, byteOffset: r.byteOffset, byteLength: r.byteLength };
        delivered.add(r.line);
        if (!e) {
          unreadable.emit(
            p,
            `Line ${p.line} of ${SANDBOX_EVENTS} is not an object with a timestamp and an event_type: ${NOT_JUDGED}`,
            'unreadable',
          );
          return;
        }
        const extra = ['command', 'tool_call_id'].filter((k) => isObj(r.value) && r.value[k] !== undefined);
        if (!WRITTEN.has(e.type) || extra.length)
          unknown.emit(
            e,
            `Line ${e.line} of ${SANDBOX_EVENTS} is ${DECLARED.has(e.type) ? 'a' : 'an undeclared'} ` +
              `${JSON.stringify(short(e.type))} event${extra.length ? ` with ${extra.join(' and ')}` : ''}, which ` +
              'Grok Build 0.2.134 never writes: a newer binary, or another program writing the file.',
            `kind:${e.type}`,
          );
        if (prev && e.timeMs < prev.timeMs)
          order.emit(
            e,
            `Line ${e.line} of ${SANDBOX_EVENTS} (${e.timestamp}) is earlier than line ${prev.line} ` +
              `(${prev.timestamp}): several processes appended at once, or the clock changed.`,
            'order',
          );
        prev = e;
        if (e.type === 'ProfileApplied' || e.type === 'ApplyFailed') startups.push(e);
        else if (e.type === 'FsViolation') found.push(e);
      },
      (d) => {
        if (!KEPT.has(d.code))
          damaged.push({ line: d.line, byteOffset: d.byteOffset, byteLength: d.byteLength, detail: d.detail });
      },
    );
    if (!read.ok) {
      ctx.emit(
        'GROK_SANDBOX_UNREADABLE',
        { file: SANDBOX_EVENTS },
        `${SANDBOX_EVENTS} cannot be read (${read.error}).`,
        {
          key: 'file',
        },
      );
      return;
    }
    for (const d of damaged)
      if (!delivered.has(d.line))
        unreadable.emit(
          d,
          `Line ${d.line} of ${SANDBOX_EVENTS} is not an event (${short(d.detail)}): ${NOT_JUDGED}`,
          'unreadable',
        );
    unreadable.end();
    unknown.end();
    order.end();
    const spans = sessionSpans(ctx);
    violations(ctx, found, startups, spans);
    profiles(ctx, startups, spans);
  },
});
