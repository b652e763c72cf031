/** A lenient, typed view of summary.json for the cross-artifact checks (fields of the wrong type read as absent). */

export interface SummaryView {
  id?: string;
  cwd?: string;
  createdAt?: string;
  updatedAt?: string;
  lastActiveAt?: string;
  forkedAt?: string;
  numMessages?: number;
  numChatMessages?: number;
  chatFormatVersion?: number;
  sessionKind?: string;
  parentSessionId?: string;
  sandboxProfile?: string;
  inheritedPrefixLen?: number;
  cwdGeneration?: number;
  previousCwd?: string;
  hidden?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const n = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

export function summaryView(value: unknown): SummaryView | undefined {
  if (!isObj(value)) return undefined;
  const info = isObj(value.info) ? value.info : {};
  const out: SummaryView = {
    id: s(info.id),
    cwd: s(info.cwd),
    createdAt: s(value.created_at),
    updatedAt: s(value.updated_at),
    lastActiveAt: s(value.last_active_at),
    forkedAt: s(value.forked_at),
    numMessages: n(value.num_messages),
    numChatMessages: n(value.num_chat_messages),
    chatFormatVersion: n(value.chat_format_version),
    sessionKind: s(value.session_kind),
    parentSessionId: s(value.parent_session_id),
    sandboxProfile: s(value.sandbox_profile),
    inheritedPrefixLen: n(value.inherited_prefix_len),
    cwdGeneration: n(value.cwd_generation),
    previousCwd: s(value.previous_cwd),
    hidden: typeof value.hidden === 'boolean' ? value.hidden : undefined,
  };
  return out;
}

/** Milliseconds of an RFC 3339 string, or undefined. */
export function parseTime(t: string | undefined): number | undefined {
  if (t === undefined) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

export const isFork = (v: SummaryView | undefined): boolean =>
  v?.sessionKind === 'fork' || v?.sessionKind === 'subagent_fork';
