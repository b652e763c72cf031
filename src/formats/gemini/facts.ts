/**
 * What the Gemini checks read of one file of a session, made by the loader from the fold (fold.ts): whether the CLI
 * can load it and would keep it, and every place the file departs from what the CLI's writer produces.
 */
import { isObj, isoMs, str } from '../shared/events.js';
import type { At, FoldFacts } from './fold.js';
import { CANCELLED, callsOf, contentText, isPrompt, responses, thoughtsText } from './parts.js';
import { TERMINAL_STATUSES } from './models.js';

export interface GeminiFileFacts {
  file: string;
  /** The file the session is shown by and resumed from. */
  main: boolean;
  legacy: boolean;
  /** Every log file of the session (the CLI's startup deletes them together: they share the id's first 8 chars). */
  members: string[];
  /** Where the file's head is: its first metadata line, or where its document starts (else line 1). */
  head: At;
  /** Why the CLI's loader returns nothing for this file (it is then deleted at the next start). */
  unloadable?: string;
  /** The fold holds a prompt or a model turn: the CLI lists and keeps it. */
  resumable: boolean;
  subagent: boolean;
  sessionId?: string;
  /** The first metadata line's ids. */
  first?: { sessionId: string; projectHash: string };
  moreMeta: FoldFacts['moreMeta'];
  idChanges: FoldFacts['idChanges'];
  changed: FoldFacts['changed'];
  lostCalls: FoldFacts['lostCalls'];
  unknownRewinds: FoldFacts['rewinds'];
  droppedBySnapshot: FoldFacts['snapshots'];
  nonTerminal: Array<At & { id: string; status: string }>;
  cancelledUnmarked: Array<At & { id: string }>;
  /** The folded lastUpdated is earlier than the newest message the fold holds. */
  lastUpdatedEarly?: { lastUpdated: string; latest: string; at: At };
  /** Keys only a newer CLI's startup rewrite puts in a legacy file. */
  rewrittenKeys: string[];
}

const REWRITE_KEYS = ['userMessageCount', 'hasResumableContent'];

/** The CLI's `hasResumableContent`: a prompt, or a gemini message with text, tool calls or thoughts. */
function resumable(f: FoldFacts): boolean {
  return f.messages.some(
    (m) =>
      isPrompt(m.value) ||
      (m.value.type === 'gemini' &&
        (contentText(m.value.content) !== '' || callsOf(m.value).length > 0 || thoughtsText(m.value) !== '')),
  );
}

export function fileFacts(
  file: string,
  f: FoldFacts,
  o: { main: boolean; legacy: boolean; members: string[]; problem?: string; start?: At },
): GeminiFileFacts {
  const md = f.metadata;
  const sessionId = str(md.sessionId);
  const unloadable =
    o.problem ??
    (sessionId === undefined || str(md.projectHash) === undefined
      ? o.legacy
        ? 'the document has no sessionId and projectHash'
        : 'no line the CLI can parse is a metadata line {"sessionId":…,"projectHash":…}, and the file is not one ' +
          'JSON document either'
      : undefined);
  const nonTerminal: GeminiFileFacts['nonTerminal'] = [];
  const cancelledUnmarked: GeminiFileFacts['cancelledUnmarked'] = [];
  let latest: { ms: number; text: string; at: At } | undefined;
  for (const m of f.messages) {
    const at = { line: m.line, byteOffset: m.byteOffset };
    const ms = isoMs(m.value.timestamp);
    if (ms !== undefined && (latest === undefined || ms > latest.ms))
      latest = { ms, text: m.value.timestamp as string, at };
    for (const c of callsOf(m.value)) {
      const status = str(c.entry?.status);
      if (status === undefined) continue;
      if (!TERMINAL_STATUSES.includes(status)) nonTerminal.push({ ...at, id: c.id, status });
      if (status === 'cancelled' && !responses(c.entry?.result).some((r) => r.text.includes(CANCELLED)))
        cancelledUnmarked.push({ ...at, id: c.id });
    }
  }
  const lu = str(md.lastUpdated);
  const luMs = isoMs(lu);
  const facts: GeminiFileFacts = {
    file,
    main: o.main,
    legacy: o.legacy,
    members: o.members,
    head: f.firstMeta
      ? { line: f.firstMeta.line, byteOffset: f.firstMeta.byteOffset }
      : (o.start ?? f.firstAt ?? { line: 1, byteOffset: 0 }),
    resumable: resumable(f),
    subagent: md.kind === 'subagent',
    moreMeta: f.moreMeta,
    idChanges: f.idChanges,
    changed: f.changed,
    lostCalls: f.lostCalls,
    unknownRewinds: f.rewinds.filter((r) => r.unknown),
    droppedBySnapshot: f.snapshots.filter((s) => Object.keys(s.dropped).length > 0),
    nonTerminal,
    cancelledUnmarked,
    rewrittenKeys: o.legacy && isObj(md) ? REWRITE_KEYS.filter((k) => k in md) : [],
  };
  if (sessionId !== undefined) facts.sessionId = sessionId;
  if (f.firstMeta) facts.first = { sessionId: f.firstMeta.sessionId, projectHash: f.firstMeta.projectHash };
  if (unloadable !== undefined) facts.unloadable = unloadable;
  if (lu !== undefined && luMs !== undefined && latest !== undefined && luMs < latest.ms)
    facts.lastUpdatedEarly = { lastUpdated: lu, latest: latest.text, at: latest.at };
  return facts;
}
