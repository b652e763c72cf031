/**
 * The fold `loadConversationRecord` makes of a session file (formats/gemini-cli.md §2.3), reproduced exactly, with
 * what each record did to the conversation: records are classified in the CLI's order (`$rewindTo`, then `id`, then
 * `$set`, then a metadata line); a message id keeps the place of its first appearance and the content of its last
 * copy; `$set.messages` clears the conversation and rebuilds it; `$rewindTo` drops the id and everything after it
 * (an id that is not there drops everything); metadata is a shallow merge in file order. Pure: records in, facts out.
 */
import { isObj, str, type Obj } from '../shared/events.js';

export type RecordKind = 'rewind' | 'message' | 'set' | 'meta' | 'other';

/** The class the CLI's loader gives a parsed line (first match wins). */
export function recordKind(v: unknown): RecordKind {
  if (!isObj(v)) return 'other';
  if (typeof v.$rewindTo === 'string') return 'rewind';
  if (typeof v.id === 'string') return 'message';
  if (typeof v.$set === 'object' && v.$set !== null) return 'set';
  if (typeof v.sessionId === 'string' && typeof v.projectHash === 'string') return 'meta';
  return 'other';
}

export interface FoldInput {
  seq: number;
  line: number;
  byteOffset: number;
  value: unknown;
  /** The CLI's JSON.parse cannot read the line (a record this audit recovered from a damaged one). */
  unseen?: boolean;
}

/** A message of the folded conversation, with the line its winning copy is on. */
export interface FoldedMessage {
  id: string;
  value: Obj;
  seq: number;
  line: number;
  byteOffset: number;
  /** The copy came inside a `$set.messages` snapshot (or a metadata line's messages). */
  inSnapshot: boolean;
}

/** What became of a message line by the end of the file. */
export type Fate =
  | { k: 'final' }
  /** `snapshot`: the later copy is inside a `$set.messages` snapshot (a line that shows no message itself). */
  | { k: 'superseded'; by: number; snapshot: boolean }
  | { k: 'rewound'; by: number }
  | { k: 'dropped'; by: number };

export interface At {
  line: number;
  byteOffset: number;
}

export interface FoldFacts {
  /** The folded conversation, in the CLI's order. */
  messages: FoldedMessage[];
  /** The merged metadata (sessionId, projectHash, startTime, lastUpdated, kind, summary, …). */
  metadata: Obj;
  /** The first record the CLI's loader reads (where a metadata line should be). */
  firstAt?: At;
  /** The first metadata line, and each later one. */
  firstMeta?: At & { sessionId: string; projectHash: string; startTime?: string };
  moreMeta: Array<At & { sessionId: string; projectHash: string; startTime?: string }>;
  /** `$set.sessionId` values that differ from the first metadata line's. */
  idChanges: Array<At & { from: string; to: string }>;
  /** Bare re-appends that change what the writer keeps (type, timestamp, content) or remove fields. */
  changed: Array<At & { id: string; fields: string[]; prevLine: number }>;
  /** A later copy of a message without some tool calls an earlier copy had. */
  lostCalls: Array<At & { id: string; lost: string[]; prevLine: number; afterResume: boolean }>;
  rewinds: Array<At & { target: string; removed: number; unknown: boolean }>;
  /** `$set.messages` snapshots, with the messages they removed that never came back (by type). */
  snapshots: Array<At & { size: number; dropped: Record<string, number> }>;
  /** What each message line came to, by seq. */
  fates: Map<number, Fate>;
  /** What each line did, in words, by seq. */
  did: Map<number, string>;
}

const messageIds = (v: Obj): string[] =>
  Array.isArray(v.toolCalls) ? v.toolCalls.filter(isObj).flatMap((c) => (str(c.id) ? [str(c.id)!] : [])) : [];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The fold as records arrive: `add` each record in file order, then `finish`. */
export function folder(): { add(r: FoldInput): void; finish(): FoldFacts } {
  const map = new Map<string, FoldedMessage>();
  const facts: FoldFacts = {
    messages: [],
    metadata: {},
    moreMeta: [],
    idChanges: [],
    changed: [],
    lostCalls: [],
    rewinds: [],
    snapshots: [],
    fates: new Map(),
    did: new Map(),
  };
  /** The tool-call ids of the last copy seen of each message, even one since dropped. */
  const lastCalls = new Map<string, { ids: string[]; line: number }>();
  /** Which snapshot removed a message, for the snapshot's count of messages that never came back. */
  const removedBy = new Map<string, { seq: number; type: string }>();
  const snapshotAt = new Map<number, number>();
  let resumed = false;

  /** Lines of messages a snapshot left out, by id: superseded instead when a later record brings the id back. */
  const droppedLines = new Map<string, number[]>();
  const leave = (m: FoldedMessage, fate: Fate): void => {
    if (m.inSnapshot) return;
    facts.fates.set(m.seq, fate);
    if (fate.k === 'dropped') droppedLines.set(m.id, [...(droppedLines.get(m.id) ?? []), m.seq]);
  };
  const put = (id: string, value: Obj, r: FoldInput, inSnapshot: boolean): void => {
    const prev = map.get(id);
    if (prev) leave(prev, { k: 'superseded', by: r.line, snapshot: inSnapshot });
    const calls = messageIds(value);
    const before = lastCalls.get(id);
    if (before) {
      const lost = before.ids.filter((c) => !calls.includes(c));
      if (lost.length)
        facts.lostCalls.push({
          line: r.line,
          byteOffset: r.byteOffset,
          id,
          lost,
          prevLine: before.line,
          afterResume: resumed,
        });
    }
    lastCalls.set(id, { ids: calls, line: r.line });
    removedBy.delete(id);
    for (const seq of droppedLines.get(id) ?? [])
      facts.fates.set(seq, { k: 'superseded', by: r.line, snapshot: inSnapshot });
    droppedLines.delete(id);
    map.set(id, { id, value, seq: r.seq, line: r.line, byteOffset: r.byteOffset, inSnapshot });
  };
  const snapshot = (list: unknown[], r: FoldInput, clear: boolean): number => {
    const incoming = new Set(list.filter(isObj).flatMap((m) => (str(m.id) ? [m.id as string] : [])));
    if (clear) {
      for (const m of map.values()) {
        if (incoming.has(m.id)) continue;
        leave(m, { k: 'dropped', by: r.line });
        removedBy.set(m.id, { seq: r.seq, type: str(m.value.type) ?? '?' });
      }
      for (const m of map.values()) if (incoming.has(m.id)) leave(m, { k: 'superseded', by: r.line, snapshot: true });
      map.clear();
      snapshotAt.set(r.seq, facts.snapshots.length);
      facts.snapshots.push({ line: r.line, byteOffset: r.byteOffset, size: incoming.size, dropped: {} });
    }
    let n = 0;
    for (const m of list) {
      if (!isObj(m) || typeof m.id !== 'string') continue;
      put(m.id, m, r, true);
      n++;
    }
    return n;
  };

  const add = (r: FoldInput): void => {
    facts.firstAt ??= { line: r.line, byteOffset: r.byteOffset };
    if (r.unseen) {
      facts.did.set(r.seq, 'recovered from a damaged line: the CLI cannot parse the line and skips it');
      return;
    }
    const v = r.value;
    const kind = recordKind(v);
    const o = v as Obj;
    switch (kind) {
      case 'rewind': {
        const target = o.$rewindTo as string;
        const ids = [...map.keys()];
        const at = ids.indexOf(target);
        const from = Math.max(at, 0);
        for (const id of ids.slice(from)) {
          const m = map.get(id)!;
          leave(m, { k: 'rewound', by: r.line });
          removedBy.delete(id);
          map.delete(id);
        }
        facts.rewinds.push({
          line: r.line,
          byteOffset: r.byteOffset,
          target,
          removed: ids.length - from,
          unknown: at < 0,
        });
        facts.did.set(
          r.seq,
          at < 0
            ? `rewind to ${target}, an id not in the conversation: the CLI empties the whole conversation ` +
                `(${ids.length} message(s))`
            : `rewind: ${target} and the ${ids.length - from - 1} message(s) after it leave the conversation`,
        );
        break;
      }
      case 'message': {
        const id = o.id as string;
        const prev = map.get(id);
        if (prev) {
          if (!prev.inSnapshot) {
            const fields = ['type', 'timestamp', 'content'].filter((k) => !same(prev.value[k], o[k]));
            for (const k of Object.keys(prev.value)) if (!(k in o)) fields.push(`-${k}`);
            if (fields.length)
              facts.changed.push({ line: r.line, byteOffset: r.byteOffset, id, fields, prevLine: prev.line });
          }
          facts.did.set(r.seq, `a new copy of message ${id} (first at line ${prev.line}): its place stays, this wins`);
        }
        put(id, o, r, false);
        break;
      }
      case 'set': {
        const set = o.$set as Obj;
        const parts: string[] = [];
        if (Array.isArray(set.messages)) {
          const n = snapshot(set.messages, r, true);
          parts.push(`history snapshot: the conversation is replaced by ${n} message(s)`);
        }
        const sid = str(set.sessionId);
        if (sid !== undefined) {
          resumed = true;
          parts.push(`sessionId ${sid} (written by a resume)`);
          const first = facts.firstMeta?.sessionId;
          if (first !== undefined && sid !== first)
            facts.idChanges.push({ line: r.line, byteOffset: r.byteOffset, from: first, to: sid });
        }
        for (const k of Object.keys(set))
          if (k !== 'messages' && k !== 'sessionId') parts.push(k === 'lastUpdated' ? `lastUpdated ${str(set[k])}` : k);
        facts.metadata = { ...facts.metadata, ...set };
        delete facts.metadata.messages;
        facts.did.set(r.seq, `metadata: ${parts.join('; ') || 'nothing'}`);
        break;
      }
      case 'meta': {
        const startTime = str(o.startTime);
        const meta = {
          line: r.line,
          byteOffset: r.byteOffset,
          sessionId: o.sessionId as string,
          projectHash: o.projectHash as string,
          ...(startTime !== undefined ? { startTime } : {}),
        };
        if (!facts.firstMeta) facts.firstMeta = meta;
        else {
          resumed = true;
          facts.moreMeta.push(meta);
        }
        facts.metadata = { ...facts.metadata, ...o };
        delete facts.metadata.messages;
        let n = 0;
        if (Array.isArray(o.messages)) n = snapshot(o.messages, r, false);
        facts.did.set(
          r.seq,
          `${facts.firstMeta === meta ? 'session' : 'another metadata line: startTime and lastUpdated overwritten;'} ` +
            `${o.sessionId as string}${str(o.kind) ? ` (${str(o.kind)})` : ''}${n ? `, ${n} message(s)` : ''}`,
        );
        break;
      }
      default:
        facts.did.set(r.seq, 'not a record the CLI knows: its loader ignores it');
    }
  };
  const finish = (): FoldFacts => {
    for (const m of map.values()) leave(m, { k: 'final' });
    for (const { seq, type } of removedBy.values()) {
      const s = facts.snapshots[snapshotAt.get(seq) ?? -1];
      if (s) s.dropped[type] = (s.dropped[type] ?? 0) + 1;
    }
    facts.messages = [...map.values()];
    return facts;
  };
  return { add, finish };
}

/** The fold of a whole file's records. */
export function fold(records: Iterable<FoldInput>): FoldFacts {
  const f = folder();
  for (const r of records) f.add(r);
  return f.finish();
}
