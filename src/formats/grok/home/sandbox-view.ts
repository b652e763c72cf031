/**
 * The sandbox event log of a Grok home as a reviewer sees it (`inspect`, `lineage`), read once through
 * `sandbox-log.ts` as the check reads it: `inspect` shows the events tied to the session (in its span, widened by
 * the check's slack, and of its workspace or naming none); `lineage` those tied to no session of the home. Lines
 * that are not events are skipped (the check reports them); at most CAP events are listed, the rest counted.
 */
import type { HomeCheckContext } from '../../../checks/define-home.js';
import { excerpt } from '../../../checks/excerpt.js';
import type { FoundSession } from '../../../model/found.js';
import type { HomeViewItem, HomeViewSection } from '../../../model/home-view.js';
import { inSpan, readSandboxLog, SANDBOX_EVENTS, type SandboxEvent } from './sandbox-log.js';
import { sessionSpans, type SessionSpan } from './session-spans.js';

const CAP = 50;
const WORD = 40;
const PATH = 120;

/** An event as an item: its fields cut short and redacted, and in words (with its workspace, when asked). */
function itemOf(e: SandboxEvent, withWorkspace: boolean): HomeViewItem {
  const fields: HomeViewItem['fields'] = { type: excerpt(e.type, WORD), time: excerpt(e.timestamp, WORD) };
  if (e.profile !== undefined) fields.profile = excerpt(e.profile, WORD);
  if (e.workspace !== undefined) fields.workspace = excerpt(e.workspace, PATH);
  if (e.enforced !== undefined) fields.enforced = e.enforced;
  if (e.operation !== undefined) fields.operation = excerpt(e.operation, WORD);
  if (e.target !== undefined) fields.target = excerpt(e.target, PATH);
  if (e.error !== undefined) fields.error = excerpt(e.error, PATH);
  const f = fields as Record<string, string | boolean | undefined>;
  const parts = [`${f.time} ${f.type}`];
  if (f.profile !== undefined) parts.push(`profile ${f.profile}${e.enforced === false ? ' (not enforced)' : ''}`);
  if (f.operation !== undefined || f.target !== undefined)
    parts.push(`${f.operation ?? 'an operation'} of ${f.target ?? 'a path it does not name'}`);
  if (f.error !== undefined) parts.push(`error ${f.error}`);
  if (f.workspace === undefined) parts.push('names no workspace');
  else if (withWorkspace) parts.push(`workspace ${f.workspace}`);
  return { file: SANDBOX_EVENTS, line: e.line, text: parts.join(', '), fields };
}

function section(
  ctx: HomeCheckContext,
  keep: (e: SandboxEvent) => boolean,
  title: string,
  withWorkspace: boolean,
): HomeViewSection[] {
  if (!ctx.source.entry(SANDBOX_EVENTS)) return [];
  const items: HomeViewItem[] = [];
  let more = 0;
  const read = readSandboxLog(ctx.source, (_r, e) => {
    if (!e || !keep(e)) return;
    if (items.length < CAP) items.push(itemOf(e, withWorkspace));
    else more++;
  });
  if (!read.ok || !items.length) return [];
  return [{ kind: 'sandbox-events', title, items, ...(more ? { more } : {}) }];
}

/** The events tied to the session by its span of time and its workspace. */
export function sandboxOfSession(ctx: HomeCheckContext, session: FoundSession): HomeViewSection[] {
  if (!ctx.source.entry(SANDBOX_EVENTS)) return [];
  const spans = sessionSpans(ctx, new Map([[session.id, [session]]]));
  return section(ctx, (e) => spans.some((s) => inSpan(e, s)), 'sandbox events in its span and workspace', false);
}

/** The events tied to no session of the home: a session deleted since, or a process that was no session. */
export function sandboxOutsideSessions(ctx: HomeCheckContext): HomeViewSection[] {
  if (!ctx.source.entry(SANDBOX_EVENTS)) return [];
  const spans: SessionSpan[] = sessionSpans(ctx);
  return section(ctx, (e) => !spans.some((s) => inSpan(e, s)), "sandbox events in no session's span", true);
}
