/**
 * What a Copilot CLI session is on disk (formats/copilot-cli.md §0.2, §1): under `~/.copilot` (`$COPILOT_HOME`),
 * a directory `session-state/<id>/` with `events.jsonl` and its sidecars (G2, CLI 1.0.x), a flat
 * `session-state/<id>.jsonl` (G1, 0.0.342 to about 0.0.37x), or a legacy `history-session-state/session_<id>_<ms>.json`
 * (G0); beside them the cross-session index `session-store.db` (SQLite, WAL). Each is a session of this audit, made
 * of the files named here: the files of a session directory (`rewind-snapshots/backups/`, copies of the user's
 * files, inventoried and hashed but withheld from bags), and of the home only the store with its `-wal` and `-shm`
 * (never `config.json`, `command-history-state*`, `mcp-oauth-config/`, `mcp-secrets/`: secrets).
 */
import { basename, dirname } from 'node:path';
import type { Artifact } from '../../model/session.js';
import type { InventoryEntry } from '../../model/inventory.js';
import type { DirProbe, FileSessionHit } from '../../model/found.js';
import type { FileDetection } from '../types.js';

export const EVENTS = 'events.jsonl';
export const WORKSPACE = 'workspace.yaml';
export const STORE = 'session-store.db';
export const REWIND_INDEX = 'rewind-snapshots/index.json';
/** The session the store is audited as (one per home). */
export const STORE_ID = 'session-store';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
export const UUID_RE = new RegExp(`^${UUID}$`);
const FLAT = new RegExp(`^(${UUID})\\.jsonl$`);
export const LEGACY_NAME = new RegExp(`^session_(${UUID})_(\\d+)\\.json$`);
/** The start of every line the CLI writes: its envelope's first key, a dotted type, then `data` (§2.1). */
const ENVELOPE_START = /^\{"type":"[a-z_]+(?:\.[a-z_.]+)?","data":\{/;
const SQLITE_MAGIC = 'SQLite format 3\u0000';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A parsed line that is a Copilot CLI event envelope (its five keys, in the CLI's order). */
export const isEnvelope = (v: unknown): boolean =>
  isObj(v) &&
  typeof v.type === 'string' &&
  isObj(v.data) &&
  typeof v.id === 'string' &&
  typeof v.timestamp === 'string' &&
  'parentId' in v;

/** A file whose first line is a Copilot CLI envelope (a `session.start` first, or any type: a sliced log). */
export function sniffCopilot(lines: readonly string[], partial: string | undefined): boolean {
  const first = lines[0];
  if (first === undefined) return partial !== undefined && ENVELOPE_START.test(partial);
  if (!ENVELOPE_START.test(first)) return false;
  try {
    return isEnvelope(JSON.parse(first));
  } catch {
    return true;
  }
}

/** The session id the first line of a log names (`session.start.data.sessionId`), from a head of the file. */
function headSessionId(head: Buffer | undefined): string | undefined {
  if (!head) return undefined;
  const m = /^\{"type":"session\.start","data":\{"sessionId":"([^"\\]{1,200})"/.exec(head.toString('utf8'));
  return m?.[1];
}

const workspaceId = (head: Buffer | undefined): string | undefined =>
  head === undefined ? undefined : new RegExp(`^id: (${UUID})\\s*$`, 'm').exec(head.toString('utf8'))?.[1];

/** The members of a session directory: every name in it (rewind-snapshots/backups/ is withheld from bags). */
const dirMembers = (probe: DirProbe): string[] => [...probe.names].sort();

export function detectCopilotFiles(probe: DirProbe, ctx: FileDetection): FileSessionHit[] {
  const hits: FileSessionHit[] = [];
  const names = probe.names;
  const dirName = basename(probe.abs);
  // A session directory: its log, or (nothing is written before the first prompt) its workspace.yaml alone.
  const events = names.includes(EVENTS) ? probe.type(EVENTS) : undefined;
  const hasWs = names.includes(WORKSPACE) && probe.type(WORKSPACE) === 'file';
  const wsId = hasWs ? workspaceId(probe.head(WORKSPACE)) : undefined;
  // `session-state/<uuid>/` is Copilot CLI's own place: its log is taken whatever its first line holds.
  const inStateDir = UUID_RE.test(dirName) && basename(dirname(probe.abs)) === 'session-state';
  const logHere =
    (events === 'symlink' && (hasWs || inStateDir)) ||
    (events === 'file' &&
      (hasWs || inStateDir || probe.head(EVENTS) === undefined || ctx.sniff(EVENTS) === 'copilot' || ctx.hinted));
  if (logHere || wsId !== undefined) {
    const headId = events === 'file' ? headSessionId(probe.head(EVENTS)) : undefined;
    const id = UUID_RE.test(dirName) ? dirName : (wsId ?? headId ?? dirName);
    const hit: FileSessionHit = {
      format: 'copilot',
      id,
      main: logHere ? EVENTS : WORKSPACE,
      members: dirMembers(probe),
    };
    if (events === 'symlink') hit.symlinkTarget = '';
    return [hit];
  }
  for (const name of names) {
    const flat = FLAT.exec(name);
    if (name.endsWith('.jsonl') && !name.startsWith('.')) {
      const type = probe.type(name);
      if (type === 'symlink' && flat) {
        hits.push({ format: 'copilot', id: flat[1]!, main: name, members: [name], symlinkTarget: '' });
        continue;
      }
      if (type !== 'file') continue;
      const unreadable = probe.head(name) === undefined && flat !== null;
      if (!unreadable && ctx.sniff(name) !== 'copilot' && !(ctx.hinted && flat)) continue;
      hits.push({
        format: 'copilot',
        id: flat?.[1] ?? headSessionId(probe.head(name)) ?? name.replace(/\.jsonl$/, ''),
        main: name,
        members: [name],
      });
      continue;
    }
    const legacy = LEGACY_NAME.exec(name);
    if (legacy && probe.type(name) === 'file') {
      const head = probe.head(name)?.toString('utf8').trimStart();
      if (head === undefined || (head.startsWith('{') && head.includes('"sessionId"')))
        hits.push({ format: 'copilot', id: legacy[1]!, main: name, members: [name] });
    }
  }
  if (names.includes(STORE) && probe.type(STORE) === 'file') {
    const head = probe.head(STORE);
    if (head !== undefined && head.toString('latin1', 0, 16) === SQLITE_MAGIC) {
      const members = [STORE, `${STORE}-wal`, `${STORE}-shm`, `${STORE}-journal`].filter((n) => names.includes(n));
      hits.push({ format: 'copilot', id: STORE_ID, main: STORE, members });
    }
  }
  return hits;
}

export function classifyCopilot(inventory: readonly InventoryEntry[]): Map<string, Artifact> {
  const out = new Map<string, Artifact>();
  const set = (path: string, kind: string, role: Artifact['role'], note?: string) =>
    out.set(path, note === undefined ? { path, kind, role } : { path, kind, role, note });
  for (const e of inventory) {
    const p = e.path;
    if (e.type === 'dir') set(p, 'dir', 'dir');
    else if (p === EVENTS || FLAT.test(p) || (!p.includes('/') && p.endsWith('.jsonl'))) set(p, 'events', 'jsonl');
    else if (p === WORKSPACE) set(p, 'workspace', 'text');
    else if (LEGACY_NAME.test(p)) set(p, 'legacy', 'json');
    else if (p === REWIND_INDEX) set(p, 'rewind-index', 'json');
    else if (p === 'checkpoints/index.md') set(p, 'checkpoint-index', 'text');
    else if (/^checkpoints\/[^/]+\.md$/.test(p)) set(p, 'checkpoint', 'text');
    else if (p === 'plan.md') set(p, 'plan', 'text');
    else if (/^inuse\.\d+\.lock$/.test(p)) set(p, 'lock', 'lock', 'held while a Copilot CLI process has the session');
    else if (p === 'session.db' || p === 'session.db-journal' || p === 'session.db-wal')
      set(p, 'session-db', 'binary', "the session's todo and inbox database");
    else if (p === 'session.db-shm') set(p, 'session-db-shm', 'transient');
    else if (p === STORE) set(p, 'store', 'binary');
    else if (p === `${STORE}-wal` || p === `${STORE}-journal`)
      set(p, 'store-log', 'binary', `${p.slice(STORE.length + 1)} of ${STORE}`);
    else if (p === `${STORE}-shm`) set(p, 'store-shm', 'transient', `shared-memory index of ${STORE}-wal`);
    else if (/^(files|research|temp)\//.test(p) || p === 'vscode.metadata.json')
      set(p, 'session-file', /\.(md|txt|json)$/.test(p) ? 'text' : 'binary', 'a file the session keeps');
    else if (p.startsWith('rewind-snapshots/backups/'))
      set(p, 'rewind-backup', 'withheld', "a copy of a user's file taken for /rewind: withheld from bags");
    else if (p.startsWith('rewind-snapshots/')) set(p, 'rewind-file', 'binary');
    else set(p, 'unknown', 'unexpected');
  }
  return out;
}
