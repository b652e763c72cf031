/**
 * What the home holds of a Codex session, by its id (the uuid at the end of its rollout's name): where its rollouts
 * are (`sessions/` or `archived_sessions/`), and its first user message (the `user_message` event of its first
 * turn, as the state DB's `first_user_message` records it).
 */
import { excerpt as redactedExcerpt } from '../../../checks/excerpt.js';
import type { HomeCheckContext } from '../../../checks/define-home.js';
import type { FoundSession } from '../../../model/found.js';

export type Place = 'sessions' | 'archived_sessions';

/** Where a session's rollout sits in the home (undefined: elsewhere, e.g. a rollout at the home's top). */
export function placeOf(home: string, s: FoundSession): Place | undefined {
  const rel = s.abs === home ? '' : s.abs.startsWith(`${home}/`) ? s.abs.slice(home.length + 1) : undefined;
  if (rel === undefined) return undefined;
  const top = rel.split('/')[0];
  return top === 'sessions' || top === 'archived_sessions' ? top : undefined;
}

/** The places the home's rollouts of `id` are in (empty: the home has no rollout of it). */
export function placesOf(ctx: HomeCheckContext, id: string): Set<Place | 'elsewhere'> {
  const out = new Set<Place | 'elsewhere'>();
  for (const s of ctx.sessions.get(id) ?? []) out.add(placeOf(ctx.home.abs, s) ?? 'elsewhere');
  return out;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The prompts (user_message events) of a session's first readable rollout, in order; undefined: none readable. */
export function promptsOf(ctx: HomeCheckContext, id: string): Array<{ text: string; atMs?: number }> | undefined {
  for (const s of ctx.sessions.get(id) ?? []) {
    const out: Array<{ text: string; atMs?: number }> = [];
    const ok = ctx.events(s, (_e, r) => {
      const v = r.value;
      if (!isObj(v) || v.type !== 'event_msg' || !isObj(v.payload) || v.payload.type !== 'user_message') return;
      const text = v.payload.message;
      if (typeof text !== 'string') return;
      const at = typeof v.timestamp === 'string' ? Date.parse(v.timestamp) : Number.NaN;
      out.push(Number.isFinite(at) ? { text, atMs: at } : { text });
    });
    if (ok) return out;
  }
  return undefined;
}

/** Text compared as Codex may store it: whitespace runs as one space, ends trimmed. */
export const normalized = (t: string): string => t.replace(/\s+/g, ' ').trim();

/** A short excerpt of user text, on one line, every secret the detectors find redacted (checks/excerpt.ts). */
export const excerpt = (t: string): string => redactedExcerpt(t, 80);

/** A time a Codex file records (unix seconds; milliseconds when it is that large) as ISO 8601. */
export function isoOf(v: unknown): string | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : Number.NaN;
  if (!Number.isFinite(n) || n <= 0) return undefined;
  const ms = n > 1e12 ? n : n * 1000;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
