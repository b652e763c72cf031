/**
 * The Claude Code loader: sub-agent metadata documents first, then the session's transcript, then each sub-agent
 * transcript, streamed (records, events, conversation items, damage), then the session's identity.
 */
import { basename, dirname } from 'node:path';
import type { SessionSource } from '../../model/source.js';
import type { FoundSession } from '../../model/found.js';
import type { Damage, JsonlRecord } from '../../model/records.js';
import { byteOrder } from '../../model/order.js';
import type { ChatItem, SessionEvent } from '../../model/events.js';
import type { Artifact, FileEndEvent, LoadSink } from '../../model/session.js';
import { IDENTITY_KIND } from '../../model/identity.js';
import type { LoadLimits } from '../types.js';
import { parseDoc } from '../shared/docs.js';
import { isTranscriptRecord } from './artifacts.js';
import { ClaudeNormalizer } from './normalize.js';
import { streamNormalizedLog } from '../shared/log-lines.js';

const MAX_DOC_BYTES = 16 * 1024 * 1024;

/** What merged-line recovery may take for a record: a transcript record, never a nested object. */
export const looksLikeTranscriptRecord = (v: unknown): boolean =>
  isTranscriptRecord(v) ||
  (typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as { type?: unknown }).type === 'string' &&
    ('uuid' in v || 'sessionId' in v));

export interface TranscriptHandlers {
  record?(file: string, kind: string, r: JsonlRecord): void;
  event(e: SessionEvent, r: JsonlRecord): void;
  chat?(c: ChatItem): void;
  damage?(file: string, kind: string, d: Damage): void;
  fileEnd?(f: FileEndEvent): void;
}

/** The transcripts of a session in load order: the session's own, then its sub-agents'. */
export function transcripts(source: SessionSource, artifacts: ReadonlyMap<string, Artifact>): Artifact[] {
  const regular = [...artifacts.values()].filter(
    (a) => (a.kind === 'transcript' || a.kind === 'subagent') && source.entry(a.path)?.type === 'file',
  );
  return regular.sort((a, b) => (a.kind === b.kind ? byteOrder(a.path, b.path) : a.kind === 'transcript' ? -1 : 1));
}

/**
 * Stream every transcript; the FileEndEvent returned is the first's (the session's transcript, with its abandoned
 * branches).
 */
export function streamTranscripts(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  limits: LoadLimits,
  h: TranscriptHandlers,
): { end?: FileEndEvent; normalizer: ClaudeNormalizer } {
  const n = new ClaudeNormalizer();
  let first: FileEndEvent | undefined;
  for (const a of transcripts(source, artifacts)) {
    n.begin(a.path, a.kind === 'transcript');
    const r = streamNormalizedLog(source, a.path, looksLikeTranscriptRecord, limits.maxLineBytes, n, {
      record: (record) => h.record?.(a.path, a.kind, record),
      event: h.event,
      chat: (c) => h.chat?.(c),
      damage: (damage) => h.damage?.(a.path, a.kind, damage),
    });
    n.endFile();
    // The session's transcript comes first: its live branch is known when it ends.
    const end: FileEndEvent = r.ok
      ? { file: a.path, kind: a.kind, stats: r.value }
      : { file: a.path, kind: a.kind, error: r.error };
    end.dead = n.deadRanges();
    end.liveTurns = n.liveTurns;
    h.fileEnd?.(end);
    first ??= end;
  }
  return first ? { end: first, normalizer: n } : { normalizer: n };
}

/**
 * A sub-agent transcript audited alone (`<project>/<session>/subagents/agent-<id>.jsonl`): its records link into
 * the session's transcript `<project>/<session>.jsonl`, two folders up. The loader hands the checks that
 * transcript's uuids as a doc of this kind (value SessionContext); the transcript itself is not audited.
 */
export const SESSION_CONTEXT_KIND = 'claude-session-context';

export interface SessionContext {
  /** The session transcript, relative to the sub-agent's folder. */
  transcript: string;
  /** Its uuids; absent when it is not there or cannot be read. */
  uuids?: ReadonlySet<string>;
  error?: string;
}

/** The session transcript's name when the session is one sub-agent file audited alone. */
function loneSubagentOf(found: FoundSession): string | undefined {
  const m = found.members;
  if (basename(found.abs) !== 'subagents' || m?.length !== 1 || !/^agent-.+\.jsonl$/.test(m[0]!)) return undefined;
  return `${basename(dirname(found.abs))}.jsonl`;
}

function sessionContext(source: SessionSource, limits: LoadLimits, sink: LoadSink): void {
  const name = loneSubagentOf(source.found);
  if (name === undefined) return;
  const member = source.found.members![0]!;
  const uuids = new Set<string>();
  const r = source.streamContext(2, name, { maxLineBytes: limits.maxLineBytes }, (rec) => {
    const v = rec.value as { uuid?: unknown };
    if (typeof v === 'object' && v !== null && typeof v.uuid === 'string') uuids.add(v.uuid);
  });
  const value: SessionContext = { transcript: `../../${name}` };
  if (r?.ok) value.uuids = uuids;
  else if (r) value.error = r.error;
  sink.doc({ file: member, kind: SESSION_CONTEXT_KIND, size: 0, value });
}

export function loadClaude(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  sink: LoadSink,
  limits: LoadLimits,
): void {
  for (const a of artifacts.values()) {
    if (a.role !== 'json' || source.entry(a.path)?.type !== 'file') continue;
    const r = source.readFile(a.path, MAX_DOC_BYTES);
    const size = source.entry(a.path)?.size ?? 0;
    if (!r.ok) sink.doc({ file: a.path, kind: a.kind, size, problem: { kind: 'unreadable', detail: r.error } });
    else if (r.value.truncated)
      sink.doc({
        file: a.path,
        kind: a.kind,
        size,
        problem: {
          kind: 'too-large',
          detail: `${size} bytes, over the ${MAX_DOC_BYTES}-byte limit for a JSON document; not parsed`,
        },
      });
    else sink.doc(parseDoc(a.path, a.kind, r.value.bytes, size));
  }
  sessionContext(source, limits, sink);
  const { normalizer } = streamTranscripts(source, artifacts, limits, {
    record: (file, kind, record) => sink.record({ file, kind, record }),
    event: (e) => sink.event(e),
    chat: (c) => sink.chat(c),
    damage: (file, kind, damage) => sink.damage({ file, kind, damage }),
    fileEnd: (f) => sink.fileEnd(f),
  });
  const identity = normalizer.finish();
  for (const a of transcripts(source, artifacts)) {
    if (a.kind !== 'subagent') continue;
    const agent = basename(a.path)
      .replace(/^agent-/, '')
      .replace(/\.jsonl$/, '');
    const known = identity.subagents.find((s) => s.id === agent);
    if (!known) identity.subagents.push({ id: agent, file: a.path });
  }
  identity.subagents.sort((x, y) => byteOrder(x.id, y.id));
  const main = transcripts(source, artifacts)[0];
  if (main)
    sink.doc({ file: main.path, kind: IDENTITY_KIND, size: source.entry(main.path)?.size ?? 0, value: identity });
  source.hashUnread();
}

export function streamClaudeLog(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  limits: LoadLimits,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
): FileEndEvent | undefined {
  return streamTranscripts(source, artifacts, limits, { event: onEvent }).end;
}
