/**
 * Finding one's way in the store by the ids a reviewer has: a session named by its id, its store key, or a unique
 * prefix of either; its captures in order; the capture to export (the latest holding its files, or `--at N`), with
 * a hint when an earlier capture holds what a later one rewrote.
 */
import type { CaptureRecord } from './record.js';

/** The store keys of the sessions `name` picks: an exact id or key, else those whose id or key starts with it. */
export function sessionKeys(records: readonly CaptureRecord[], name: string): string[] {
  const exact = new Set<string>();
  const prefix = new Set<string>();
  for (const r of records) {
    if (r.session.id === name || r.session.key === name) exact.add(r.session.key);
    else if (name.length >= 4 && (r.session.id.startsWith(name) || r.session.key.startsWith(name)))
      prefix.add(r.session.key);
  }
  return [...(exact.size ? exact : prefix)];
}

const latestOf = (records: readonly CaptureRecord[], key: string): CaptureRecord =>
  [...records].reverse().find((x) => x.session.key === key)!;

/** The one session `name` picks, or why not (none, or several: named by key and path so one can be given). */
export function pickSession(records: readonly CaptureRecord[], name: string): string | { error: string } {
  const keys = sessionKeys(records, name);
  if (keys.length === 1) return keys[0]!;
  if (keys.length === 0)
    return {
      error:
        `no session ${JSON.stringify(name)} in the store (give its id, its store key, or at least 4 characters ` +
        'that start only one of them; `session-audit captures --store DIR` lists them)',
    };
  const places = keys.map((k) => {
    const r = latestOf(records, k);
    return `${r.session.id} (key ${k}, ${r.session.display})`;
  });
  const more = places.length > 5 ? `, and ${places.length - 5} more` : '';
  return {
    error:
      `${places.length} sessions match ${JSON.stringify(name)}: give one by its key or a longer prefix: ` +
      `${places.slice(0, 5).join('; ')}${more}`,
  };
}

export interface Picked {
  record: CaptureRecord;
  /** A sentence for the user when another capture may be the one they want (a rewrite after this one's version). */
  hint?: string;
}

/**
 * The capture of a session to export: the latest at or before `at` that holds its files (a deleted session's last
 * capture before the deletion). A string is the reason there is none.
 */
export function selectCapture(
  records: readonly CaptureRecord[],
  session: string,
  at: number | undefined,
): Picked | string {
  const key = pickSession(records, session);
  if (typeof key !== 'string') return key.error;
  const mine = records.filter((r) => r.session.key === key);
  const list = (): string => mine.map((r) => `${r.seq} (${r.status})`).join(', ');
  if (at !== undefined) {
    const exact = records.find((r) => r.seq === at);
    if (!exact) return `there is no capture ${at} in the store; this session's captures are ${list()}`;
    if (exact.session.key !== key)
      return `capture ${at} is of another session (${exact.session.display}); this session's captures are ${list()}`;
  }
  const upTo = mine.filter((r) => at === undefined || r.seq <= at);
  const pick = [...upTo].reverse().find((r) => r.status !== 'deleted');
  if (!pick)
    return (
      `session ${JSON.stringify(session)} has no capture with its files` +
      (at !== undefined ? ` at or before capture ${at}` : '') +
      `; its captures are ${list()}`
    );
  const rewrite = pick.findings.find((f) => f.code === 'BUNDLE_NOT_APPEND_ONLY');
  const before = mine.filter((r) => r.seq < pick.seq && r.status !== 'deleted').pop();
  const where = rewrite ? `${rewrite.file}${rewrite.line !== undefined ? `:${rewrite.line}` : ''}` : '';
  const hint =
    rewrite && before
      ? `capture ${pick.seq} recorded a rewrite of ${where}; capture ${before.seq} holds the version before it ` +
        `(--at ${before.seq})`
      : undefined;
  return { record: pick, ...(hint !== undefined ? { hint } : {}) };
}
