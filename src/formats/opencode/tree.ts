/**
 * The JSON trees of the older eras (formats/opencode.md §2.6): E0's per-project `project/<dir>/storage/session/…`
 * (to 0.5.x; the `global` project is never migrated) and E1's `storage/{session,message,part}/…` (0.6 to 1.1.x,
 * copied into the database by the one-time import and left behind). One file per record, rewritten in place (not
 * atomically: a crash leaves it empty or cut short). Read session by session, so that one session's records are in
 * memory at a time; each file is handed on as a document (its schema checked), then the session's rows.
 */
import type { DocEvent } from '../../model/session.js';
import type { SessionSource } from '../../model/source.js';
import { parseDoc } from '../shared/docs.js';
import { isObj, num, str } from '../shared/events.js';
import { E0_MESSAGE, E0_PART, E0_SESSION, E1_MESSAGE, E1_PART, E1_SESSION } from './artifacts.js';
import type { OcRow, OcSession } from './rows.js';

const MAX_FILE_BYTES = 64 * 1024 * 1024;

interface Group {
  era: 'E0' | 'E1';
  id: string;
  file?: string;
  messages: Map<string, string>;
  parts: Map<string, string[]>;
}

/** The sessions of the trees, by session id and era, from the paths alone. */
export function treeGroups(paths: readonly string[]): Group[] {
  const groups = new Map<string, Group>();
  const group = (era: Group['era'], scope: string, id: string): Group => {
    const key = `${era}:${scope}:${id}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { era, id, messages: new Map(), parts: new Map() }));
    return g;
  };
  const e1Parts: Array<[string, string]> = [];
  for (const p of paths) {
    let m: RegExpExecArray | null;
    if ((m = E0_SESSION.exec(p))) group('E0', m[1]!, m[2]!).file = p;
    else if ((m = E0_MESSAGE.exec(p))) group('E0', m[1]!, m[2]!).messages.set(m[3]!, p);
    else if ((m = E0_PART.exec(p))) {
      const g = group('E0', m[1]!, m[2]!);
      g.parts.set(m[3]!, [...(g.parts.get(m[3]!) ?? []), p]);
    } else if ((m = E1_SESSION.exec(p))) group('E1', '', m[2]!).file = p;
    else if ((m = E1_MESSAGE.exec(p))) group('E1', '', m[1]!).messages.set(m[2]!, p);
    else if ((m = E1_PART.exec(p))) e1Parts.push([m[1]!, p]);
  }
  // An E1 part is filed under its message only: it belongs to the session that holds that message.
  const owner = new Map<string, Group>();
  for (const g of groups.values()) if (g.era === 'E1') for (const msg of g.messages.keys()) owner.set(msg, g);
  for (const [msg, p] of e1Parts) {
    const g = owner.get(msg) ?? group('E1', '', '(parts without their message)');
    g.parts.set(msg, [...(g.parts.get(msg) ?? []), p]);
  }
  return [...groups.values()];
}

function readDoc(source: SessionSource, path: string, kind: string): DocEvent {
  const size = source.entry(path)?.size ?? 0;
  const r = source.readFile(path, MAX_FILE_BYTES);
  if (!r.ok) return { file: path, kind, size, problem: { kind: 'unreadable', detail: r.error } };
  if (r.value.truncated)
    return { file: path, kind, size, problem: { kind: 'too-large', detail: `larger than ${MAX_FILE_BYTES} bytes` } };
  return parseDoc(path, kind, r.value.bytes, size);
}

const timeOf = (v: Record<string, unknown> | undefined, k: 'created' | 'updated'): number | undefined =>
  v && isObj(v.time) ? num(v.time[k]) : undefined;

function row(d: DocEvent, table: OcRow['table'], id: string, sessionId: string, messageId?: string): OcRow {
  const r: OcRow = { table, id, sessionId, file: d.file, line: 1, byteLength: d.size };
  if (messageId !== undefined) r.messageId = messageId;
  if (isObj(d.value)) {
    r.value = d.value;
    const tc = timeOf(d.value, 'created');
    if (tc !== undefined) r.timeCreated = tc;
  } else r.problem = d.problem?.detail ?? 'not a JSON object';
  return r;
}

const byTime = (a: OcRow, b: OcRow): number =>
  (a.timeCreated ?? 0) - (b.timeCreated ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Every session of the trees: its documents to `doc`, then the session and its rows (messages by time then id, each
 * followed by its parts by id, the order opencode reads them) to `session`.
 */
export function readTrees(
  source: SessionSource,
  paths: readonly string[],
  doc: (d: DocEvent) => void,
  session: (s: OcSession, era: 'E0' | 'E1', rows: OcRow[]) => void,
): void {
  const groups = treeGroups(paths);
  const sessions: Array<{ s: OcSession; g: Group }> = [];
  for (const g of groups) {
    const s: OcSession = { id: g.id, origin: 'tree', file: g.file ?? '' };
    if (g.file) {
      const d = readDoc(source, g.file, 'tree-session');
      doc(d);
      if (isObj(d.value)) {
        const v = d.value;
        const set = <K extends keyof OcSession>(k: K, x: OcSession[K] | undefined) => {
          if (x !== undefined) s[k] = x;
        };
        set('parentId', str(v.parentID));
        set('projectId', str(v.projectID));
        set('title', str(v.title));
        set('version', str(v.version));
        set('directory', str(v.directory));
        set('timeCreated', timeOf(v, 'created'));
        set('timeUpdated', timeOf(v, 'updated'));
      }
    }
    sessions.push({ s, g });
  }
  sessions.sort((a, b) => (a.s.timeCreated ?? 0) - (b.s.timeCreated ?? 0) || (a.s.id < b.s.id ? -1 : 1));
  for (const { s, g } of sessions) {
    const messages: OcRow[] = [];
    for (const [msg, path] of [...g.messages].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const d = readDoc(source, path, 'message');
      doc(d);
      messages.push(row(d, 'message', msg, s.id));
    }
    messages.sort(byTime);
    const rows: OcRow[] = [];
    const seen = new Set<string>();
    const partsOf = (msg: string): OcRow[] =>
      [...(g.parts.get(msg) ?? [])].sort().map((path) => {
        const d = readDoc(source, path, 'part');
        doc(d);
        const id = /(prt_[^/]+)\.json$/.exec(path)![1]!;
        return row(d, 'part', id, s.id, msg);
      });
    for (const m of messages) {
      seen.add(m.id);
      rows.push(m, ...partsOf(m.id));
    }
    for (const msg of [...g.parts.keys()].sort()) if (!seen.has(msg)) rows.push(...partsOf(msg));
    session(s, g.era, rows);
  }
}
