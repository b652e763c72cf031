/**
 * What a Codex session is on disk (formats/codex-claude.md §1.1): one rollout file, `rollout-<time>-<uuid>.jsonl`
 * under `sessions/YYYY/MM/DD/` or `archived_sessions/`, and possibly a zstd-compressed copy `….jsonl.zst` next to it
 * (rollout/src/compression.rs: the plain file wins; a resume decompresses before appending).
 */
import type { Artifact } from '../../model/session.js';
import type { InventoryEntry } from '../../model/inventory.js';
import type { DirProbe, FileSessionHit } from '../../model/found.js';
import type { FileDetection } from '../types.js';

export const ROLLOUT_NAME = /^rollout-.*\.jsonl$/;
const UUID_AT_END = /-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl(\.zst)?$/;

/** Every kind of top-level rollout line (older protocol.rs, and the newer recorder's). */
export const LINE_TYPES = [
  'session_meta',
  'response_item',
  'event_msg',
  'turn_context',
  'compacted',
  'inter_agent_communication',
  'inter_agent_communication_metadata',
  'world_state',
];
const LINE_TYPE_SET = new Set(LINE_TYPES);
/** serde writes RolloutLine's fields in order: timestamp, then the flattened tag and content. */
const PREFIX =
  /^\{"timestamp":"[^"]{10,40}","type":"(session_meta|response_item|event_msg|turn_context|compacted)","payload":/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a parsed line is a rollout line: {timestamp: string, type: <a rollout kind>, payload}. */
export const isRolloutLine = (v: unknown): boolean =>
  isObj(v) &&
  typeof v.timestamp === 'string' &&
  typeof v.type === 'string' &&
  LINE_TYPE_SET.has(v.type) &&
  'payload' in v;

export function sniffCodex(lines: readonly string[], partial: string | undefined): boolean {
  for (const l of lines) {
    try {
      if (isRolloutLine(JSON.parse(l))) return true;
    } catch {
      /* a damaged line: look at the next */
    }
  }
  return partial !== undefined && PREFIX.test(partial);
}

/** The session id a rollout's name carries; else the first session_meta's id (in its first bytes); else the stem. */
function rolloutId(name: string, probe: DirProbe): string {
  const m = UUID_AT_END.exec(name);
  if (m) return m[1]!;
  const head = probe.head(name);
  const id = head
    ? /"type":"session_meta","payload":\{"id":"([^"\\]{1,200})"/.exec(head.toString('utf8'))?.[1]
    : undefined;
  return id ?? name.replace(/\.jsonl(\.zst)?$/, '');
}

export function detectCodexFiles(probe: DirProbe, ctx: FileDetection): FileSessionHit[] {
  const hits: FileSessionHit[] = [];
  const names = new Set(probe.names);
  for (const name of probe.names) {
    if (name.startsWith('.')) continue;
    const zst = name.endsWith('.jsonl.zst');
    if (!zst && !name.endsWith('.jsonl')) continue;
    const plain = zst ? name.slice(0, -4) : name;
    // A compressed copy beside its plain rollout is a member of the plain file's session.
    if (zst && names.has(plain) && (ROLLOUT_NAME.test(plain) || ctx.sniff(plain) === 'codex')) continue;
    const type = probe.type(name);
    const named = ROLLOUT_NAME.test(plain);
    if (type === 'symlink') {
      if (named)
        hits.push({ format: 'codex', id: rolloutId(name, probe), main: name, members: [name], symlinkTarget: '' });
      continue;
    }
    if (type !== 'file') continue;
    if (!named && (zst || ctx.sniff(name) !== 'codex')) continue;
    const members = [name];
    if (!zst && names.has(`${name}.zst`)) members.push(`${name}.zst`);
    hits.push({ format: 'codex', id: rolloutId(name, probe), main: name, members });
  }
  return hits;
}

export function classifyCodex(inventory: readonly InventoryEntry[]): Map<string, Artifact> {
  const out = new Map<string, Artifact>();
  for (const e of inventory) {
    const p = e.path;
    if (e.type === 'dir') out.set(p, { path: p, kind: 'dir', role: 'unexpected' });
    else if (p.endsWith('.jsonl.zst'))
      out.set(p, {
        path: p,
        kind: 'rollout-zst',
        role: 'binary',
        note: 'zstd-compressed copy of a rollout (Codex keeps the plain file when both exist)',
      });
    else if (p.endsWith('.jsonl')) out.set(p, { path: p, kind: 'rollout', role: 'jsonl' });
    else out.set(p, { path: p, kind: 'unknown', role: 'unexpected' });
  }
  return out;
}
