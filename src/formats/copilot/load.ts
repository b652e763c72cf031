/**
 * The Copilot CLI loader. A session directory: `workspace.yaml` and `rewind-snapshots/index.json` as docs, then
 * `events.jsonl` streamed (records, events, conversation items, damage), then the identity. A flat
 * `session-state/<id>.jsonl`: the log alone. A legacy `history-session-state/*.json`: one doc whose chat messages
 * are the conversation. The home's `session-store.db`: one doc of its facts (store.ts).
 */
import type { SessionSource } from '../../model/source.js';
import type { JsonlRecord } from '../../model/records.js';
import type { SessionEvent } from '../../model/events.js';
import type { Artifact, FileEndEvent, LoadSink } from '../../model/session.js';
import { IDENTITY_KIND, type SessionIdentity } from '../../model/identity.js';
import type { LoadLimits } from '../types.js';
import { parseDoc } from '../shared/docs.js';
import { clip, isObj, str } from '../shared/events.js';
import { streamNormalizedLog, type LogHandlers } from '../shared/log-lines.js';
import { isEnvelope, STORE, UUID_RE } from './artifacts.js';
import { CopilotNormalizer } from './normalize.js';
import { compareLogs, readStore, STORE_KIND } from './store.js';
import { parseWorkspace } from './workspace.js';

/** The doc kind the parsed workspace.yaml is handed on in (value WorkspaceDoc). */
export const WORKSPACE_KIND = 'copilot-workspace';
export interface WorkspaceDoc {
  values: Record<string, string>;
  strange: number;
}
const MAX_DOC_BYTES = 16 * 1024 * 1024;

/** The doc kind of what a flat log's neighbour says (value LayoutDoc). */
export const LAYOUT_KIND = 'copilot-layout';
export interface LayoutDoc {
  /** `session-state/<id>/events.jsonl` exists beside this flat file: whether its records start with this file's. */
  directoryLog?: boolean;
}

/** The event ids of a log, in order (for comparing two layouts of one session). */
function idsOf(read: (onRecord: (r: JsonlRecord) => void) => { ok: boolean } | undefined): string[] | undefined {
  const ids: string[] = [];
  const r = read((rec) => {
    if (isObj(rec.value) && str(rec.value.id) !== undefined) ids.push(str(rec.value.id)!);
  });
  return r?.ok ? ids : undefined;
}

export const looksLikeCopilotRecord = isEnvelope;

const ofKind = (artifacts: ReadonlyMap<string, Artifact>, source: SessionSource, kind: string): Artifact[] =>
  [...artifacts.values()].filter((a) => a.kind === kind && source.entry(a.path)?.type === 'file');

const logOf = (source: SessionSource, artifacts: ReadonlyMap<string, Artifact>): Artifact | undefined =>
  ofKind(artifacts, source, 'events')[0];

function stream(
  source: SessionSource,
  a: Artifact,
  limits: LoadLimits,
  h: LogHandlers,
): { end: FileEndEvent; n: CopilotNormalizer } {
  const n = new CopilotNormalizer();
  n.begin(a.path);
  const r = streamNormalizedLog(source, a.path, looksLikeCopilotRecord, limits.maxLineBytes, n, h);
  const end: FileEndEvent = r.ok
    ? { file: a.path, kind: a.kind, stats: r.value }
    : { file: a.path, kind: a.kind, error: r.error };
  end.liveTurns = n.liveTurns;
  return { end, n };
}

function readDoc(source: SessionSource, a: Artifact, sink: LoadSink, kind = a.kind): unknown {
  const r = source.readFile(a.path, MAX_DOC_BYTES);
  const size = source.entry(a.path)?.size ?? 0;
  if (!r.ok) sink.doc({ file: a.path, kind, size, problem: { kind: 'unreadable', detail: r.error } });
  else if (r.value.truncated)
    sink.doc({
      file: a.path,
      kind,
      size,
      problem: { kind: 'too-large', detail: `larger than ${MAX_DOC_BYTES} bytes` },
    });
  else {
    if (kind === WORKSPACE_KIND) {
      const ws = parseWorkspace(r.value.bytes.toString('utf8'));
      const value: WorkspaceDoc = { values: Object.fromEntries(ws.values), strange: ws.strange };
      sink.doc({ file: a.path, kind, size, value });
      return value;
    }
    const d = parseDoc(a.path, kind, r.value.bytes, size);
    sink.doc(d);
    return d.value;
  }
  return undefined;
}

/** A legacy session's chat messages as the conversation (they have no lines: each is placed at the file's start). */
function legacyConversation(file: string, v: unknown, sink: LoadSink, id: SessionIdentity): void {
  if (!isObj(v)) return;
  if (str(v.sessionId) !== undefined) id.id = str(v.sessionId)!;
  if (str(v.startTime) !== undefined) id.createdAt = str(v.startTime)!;
  if (str(v.selectedModel) !== undefined) id.model = str(v.selectedModel)!;
  const at = { file, line: 1, byteOffset: 0 };
  let prompt = 0;
  for (const m of Array.isArray(v.chatMessages) ? v.chatMessages.filter(isObj) : []) {
    const text = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'user') sink.chat({ ...at, type: 'user', text: clip(text, 300), promptIndex: prompt++ });
    else if (m.role === 'assistant') {
      const calls = (Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObj) : []).map((c) => {
        const f = isObj(c.function) ? c.function : {};
        return {
          id: str(c.id) ?? '',
          name: str(f.name) ?? '',
          args: clip(str(f.arguments) ?? '', 200),
          input: f.arguments,
        };
      });
      sink.chat({ ...at, type: 'assistant', text: clip(text, 300), ...(calls.length ? { toolCalls: calls } : {}) });
    } else if (m.role === 'tool')
      sink.chat({ ...at, type: 'tool_result', toolCallId: str(m.tool_call_id) ?? '', text: clip(text, 300) });
  }
}

export function loadCopilot(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  sink: LoadSink,
  limits: LoadLimits,
): void {
  const identity: SessionIdentity = { subagents: [] };
  if (source.entry(STORE)?.type === 'file') {
    const facts = readStore(source, limits);
    compareLogs(source, facts, limits);
    sink.doc({ file: STORE, kind: STORE_KIND, size: source.entry(STORE)?.size ?? 0, value: facts });
    source.hashUnread();
    return;
  }
  const ws = ofKind(artifacts, source, 'workspace')[0];
  const wsDoc = ws ? (readDoc(source, ws, sink, WORKSPACE_KIND) as WorkspaceDoc | undefined) : undefined;
  for (const a of ofKind(artifacts, source, 'rewind-index')) readDoc(source, a, sink);
  let file = ws?.path ?? '';
  let size = 0;
  for (const a of ofKind(artifacts, source, 'legacy')) {
    legacyConversation(a.path, readDoc(source, a, sink), sink, identity);
    file = a.path;
    size = source.entry(a.path)?.size ?? 0;
  }
  const log = logOf(source, artifacts);
  if (log) {
    const { end, n } = stream(source, log, limits, {
      record: (record) => sink.record({ file: log.path, kind: log.kind, record }),
      event: (e) => sink.event(e),
      chat: (c) => sink.chat(c),
      damage: (damage) => sink.damage({ file: log.path, kind: log.kind, damage }),
    });
    sink.fileEnd(end);
    Object.assign(identity, n.identity);
    if (log.path !== 'events.jsonl') {
      const opts = { maxLineBytes: limits.maxLineBytes, looksLikeRecord: looksLikeCopilotRecord };
      const other = idsOf((f) => source.streamContext(0, `${source.found.id}/events.jsonl`, opts, f));
      if (other !== undefined && UUID_RE.test(source.found.id)) {
        const mine = idsOf((f) => source.streamJsonl(log.path, opts, f, () => {}));
        const value: LayoutDoc = { directoryLog: mine?.every((id, i) => other[i] === id) === true };
        sink.doc({ file: log.path, kind: LAYOUT_KIND, size: 0, value });
      }
    }
    size = source.entry(log.path)?.size ?? 0;
    file = log.path;
  }
  if (wsDoc) {
    const w = wsDoc.values;
    identity.documented = true;
    identity.id ??= w.id;
    if (w.cwd !== undefined) identity.cwd ??= w.cwd;
    identity.createdAt ??= w.created_at;
    if (w.updated_at !== undefined) identity.updatedAt = w.updated_at;
    for (const k of Object.keys(identity) as Array<keyof SessionIdentity>)
      if (identity[k] === undefined) delete identity[k];
  }
  if (file !== '') sink.doc({ file, kind: IDENTITY_KIND, size, value: identity });
  source.hashUnread();
}

export function streamCopilotLog(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  limits: LoadLimits,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
): FileEndEvent | undefined {
  const a = logOf(source, artifacts);
  return a ? stream(source, a, limits, { event: onEvent }).end : undefined;
}
