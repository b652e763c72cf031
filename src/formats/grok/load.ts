/**
 * The Grok Build loader: reads a session directory through a SessionSource and reports to the sink, JSON
 * documents first (summary and the other sidecars), then each JSONL log in a fixed order, streamed.
 */
import type { SessionSource } from '../../model/source.js';
import type { Damage, JsonlRecord } from '../../model/records.js';
import { normalizeChat } from './normalize.js';
import { streamUpdatesLog } from './log-stream.js';
import type { Artifact, LoadSink } from '../../model/session.js';
import { parseDoc } from '../shared/docs.js';
import { encodeCwdDirname, looksLikeGroup } from './paths.js';
import { summaryView } from './summary-view.js';
import { GrokIdentity } from './identity.js';
import { IDENTITY_KIND } from '../../model/identity.js';
import type { LoadLimits } from '../types.js';

export const MAX_DOC_BYTES = 64 * 1024 * 1024;

/** JSONL logs in the order they are streamed (quarantine copies after the live chat history). */
const LOG_ORDER = ['updates', 'chat', 'chat-quarantine', 'chat-prestrip', 'rewind', 'feedback', 'btw', 'events'];

/** Text artifacts whose content checks compare with other evidence. */
const TEXT_DOCS = new Set(['system-prompt', 'compaction-index', 'compaction-segment']);
const MAX_TEXT_BYTES = 4 * 1024 * 1024;

type Obj = Record<string, unknown>;
const has = (v: unknown, ...keys: string[]): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && keys.some((k) => k in (v as Obj));

/** What a record of each log looks like, so merged-line recovery never mistakes a nested object for one. */
export const LOOKS_LIKE: Record<string, (v: unknown) => boolean> = {
  chat: (v) => has(v, 'type', 'role'),
  'chat-quarantine': (v) => has(v, 'type', 'role'),
  'chat-prestrip': (v) => has(v, 'type', 'role'),
  rewind: (v) => has(v, 'prompt_index'),
  feedback: (v) => has(v, 'type'),
  btw: (v) => has(v, 'btwSessionId', 'question'),
  events: (v) => has(v, 'ts', 'type'),
};

export function loadGrok(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  sink: LoadSink,
  limits: LoadLimits,
): void {
  const regular = (a: Artifact): boolean => source.entry(a.path)?.type === 'file';
  /** Subagent ids (child session ids) seen in metas and spawn events, with the child cwd when a meta gives one. */
  const subagentIds = new Map<string, string | undefined>();
  let summaryCwd: string | undefined;
  const identity = new GrokIdentity();
  for (const a of artifacts.values()) {
    if (a.role !== 'json' || !regular(a)) continue;
    const r = source.readFile(a.path, MAX_DOC_BYTES);
    const size = source.entry(a.path)?.size ?? 0;
    if (!r.ok) {
      sink.doc({ file: a.path, kind: a.kind, size, problem: { kind: 'unreadable', detail: r.error } });
    } else if (r.value.truncated) {
      sink.doc({
        file: a.path,
        kind: a.kind,
        size,
        problem: {
          kind: 'too-large',
          detail: `${size} bytes, over the ${MAX_DOC_BYTES}-byte limit for a JSON document; not parsed`,
        },
      });
    } else {
      const d = parseDoc(a.path, a.kind, r.value.bytes, size);
      if (a.kind === 'summary') {
        summaryCwd = summaryView(d.value)?.cwd;
        identity.summary(d.value);
      }
      if (a.kind === 'subagent-meta') identity.meta(a.path, d.value);
      if (a.kind === 'subagent-meta' && typeof d.value === 'object' && d.value !== null) {
        const m = d.value as Record<string, unknown>;
        const childCwd = typeof m.child_cwd === 'string' ? m.child_cwd : undefined;
        if (typeof m.child_session_id === 'string') subagentIds.set(m.child_session_id, childCwd);
        // The folder's name is the child's id too: probe it even when the meta's ids disagree with it.
        const dir = a.path.split('/')[1]!;
        if (!subagentIds.has(dir)) subagentIds.set(dir, childCwd);
      }
      sink.doc(d);
    }
  }
  for (const a of artifacts.values()) {
    if (!TEXT_DOCS.has(a.kind) || !regular(a)) continue;
    const r = source.readFile(a.path, MAX_TEXT_BYTES);
    const size = source.entry(a.path)?.size ?? 0;
    if (!r.ok) sink.doc({ file: a.path, kind: a.kind, size, problem: { kind: 'unreadable', detail: r.error } });
    else if (r.value.truncated)
      sink.doc({ file: a.path, kind: a.kind, size, problem: { kind: 'too-large', detail: `${size} bytes; not read` } });
    else sink.doc({ file: a.path, kind: a.kind, size, value: r.value.bytes.toString('utf8') });
  }
  const cwdFile = source.readGroupFile('.cwd', 64 * 1024);
  if (cwdFile) {
    sink.doc(
      cwdFile.ok
        ? { file: '../.cwd', kind: 'group-cwd', size: cwdFile.value.length, value: cwdFile.value.toString('utf8') }
        : { file: '../.cwd', kind: 'group-cwd', size: 0, problem: { kind: 'unreadable', detail: cwdFile.error } },
    );
  }
  for (const kind of LOG_ORDER) {
    for (const a of artifacts.values()) {
      if (a.kind !== kind || (a.role !== 'jsonl' && a.role !== 'quarantine') || !regular(a)) continue;
      const onDamage = (damage: Damage): void => sink.damage({ file: a.path, kind, damage });
      if (kind === 'updates') {
        const end = streamUpdatesLog(
          source,
          a.path,
          limits,
          (record) => sink.record({ file: a.path, kind, record }),
          (e) => {
            if (e.kind === 'subagent_spawned' && e.childSessionId !== undefined && !subagentIds.has(e.childSessionId)) {
              subagentIds.set(e.childSessionId, undefined);
            }
            identity.event(e);
            sink.event(e);
          },
          onDamage,
        );
        sink.fileEnd(end);
        continue;
      }
      const onRecord =
        kind === 'chat'
          ? (record: JsonlRecord) => {
              sink.record({ file: a.path, kind, record });
              sink.chat(normalizeChat(a.path, record));
            }
          : (record: JsonlRecord) => sink.record({ file: a.path, kind, record });
      const r = source.streamJsonl(
        a.path,
        { looksLikeRecord: LOOKS_LIKE[kind], maxLineBytes: limits.maxLineBytes },
        onRecord,
        onDamage,
      );
      sink.fileEnd(r.ok ? { file: a.path, kind, stats: r.value } : { file: a.path, kind, error: r.error });
    }
  }
  probeSubagentChildren(source, sink, subagentIds, summaryCwd, cwdFile?.ok === true);
  const size = source.entry('summary.json')?.size ?? 0;
  sink.doc({ file: 'summary.json', kind: IDENTITY_KIND, size, value: identity.result() });
  source.hashUnread();
}

/**
 * Each subagent's own session lives at `<root>/<encode(child cwd)>/<child id>/` (a top-level session, not
 * nested): look its summary.json up so the checks can tell whether the child exists and what it says.
 */
function probeSubagentChildren(
  source: SessionSource,
  sink: LoadSink,
  children: Map<string, string | undefined>,
  cwd: string | undefined,
  hasCwdFile: boolean,
): void {
  const group = source.found.groupName;
  if (group === undefined || !looksLikeGroup(group, hasCwdFile)) return;
  for (const [child, childCwd] of [...children].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // Where the meta's child_cwd says, else (or when it is not there) under the parent's own cwd.
    const groups = [...new Set([childCwd, cwd].filter((c): c is string => c !== undefined).map(encodeCwdDirname))];
    if (!groups.length) continue;
    const fileIn = (g: string): string => `../../${g}/${child}/summary.json`;
    let found = false;
    for (const g of groups) {
      const r = source.readSibling(g, child, 'summary.json', MAX_DOC_BYTES);
      if (r === undefined) continue;
      const file = fileIn(g);
      if (!r.ok) sink.doc({ file, kind: 'subagent-child', size: 0, problem: { kind: 'unreadable', detail: r.error } });
      else sink.doc(parseDoc(file, 'subagent-child', r.value, r.value.length));
      found = true;
      break;
    }
    if (!found)
      sink.doc({
        file: fileIn(groups[0]!),
        kind: 'subagent-child',
        size: 0,
        problem: { kind: 'unreadable', detail: 'does not exist' },
      });
  }
}
