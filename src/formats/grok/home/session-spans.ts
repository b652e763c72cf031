/**
 * The home's sessions as spans of time in a cwd group, for the home's files that name no session (the sandbox
 * event log): a session's start and end are the earliest and latest times its summary.json and its updates.jsonl
 * record; its cwd group is the dir it was found in, compared with a path through Grok's own encoding of a cwd.
 */
import type { HomeCheckContext } from '../../../checks/define-home.js';
import { encodeCwdDirname } from '../paths.js';

export interface SessionSpan {
  id: string;
  group?: string;
  startMs?: number;
  endMs?: number;
  /** summary.json's sandbox_profile. */
  profile?: string;
}

const ms = (t: string | undefined): number | undefined => {
  const v = t === undefined ? Number.NaN : Date.parse(t);
  return Number.isFinite(v) ? v : undefined;
};

/** Every session of the home found (each copy of an id), or those given, with its span; read once per check. */
export function sessionSpans(
  ctx: HomeCheckContext<string>,
  sessions: HomeCheckContext['sessions'] = ctx.sessions,
): SessionSpan[] {
  const out: SessionSpan[] = [];
  for (const [id, copies] of sessions)
    for (const s of copies) {
      const span: SessionSpan = { id, ...(s.groupName !== undefined ? { group: s.groupName } : {}) };
      const see = (t: number | undefined) => {
        if (t === undefined) return;
        if (span.startMs === undefined || t < span.startMs) span.startMs = t;
        if (span.endMs === undefined || t > span.endMs) span.endMs = t;
      };
      const identity = ctx.identity?.(s);
      see(ms(identity?.createdAt));
      see(ms(identity?.updatedAt));
      if (identity?.sandboxProfile !== undefined) span.profile = identity.sandboxProfile;
      ctx.events(s, (e) => see(e.timeMs));
      out.push(span);
    }
  return out;
}

/** Is a path (a workspace, a cwd) the cwd of this cwd group, as Grok names the group of a cwd? */
export const inGroup = (cwd: string, group: string | undefined): boolean =>
  group !== undefined && encodeCwdDirname(cwd) === group;
