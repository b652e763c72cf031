/**
 * What a Pi session is on disk (formats/pi-hermes.md §1.1): one JSONL file, `<ISO time>_<uuid>.jsonl`, in
 * `~/.pi/agent/sessions/--<encoded cwd>--/`, in any `--session-dir` directory, or (Pi 0.30) straight in
 * `~/.pi/agent/`. Recognised by content, wherever it sits: line 1 is the header `{"type":"session",…}`.
 */
import type { Artifact } from '../../model/session.js';
import type { InventoryEntry } from '../../model/inventory.js';
import type { DirProbe, FileSessionHit } from '../../model/found.js';
import type { FileDetection } from '../types.js';

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/** The name Pi gives a session file: its creation time (`:` and `.` as `-`), `_`, the session id. */
export const PI_FILE_NAME = new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z_(${UUID})\\.jsonl$`);
/** A header too long for the sniffed head is recognised by its start (Pi writes `type` first). */
const HEADER_START = /^\{"type":"session","(version|id)":/;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A parsed line that is a Pi session header. */
export const isPiHeader = (v: unknown): boolean =>
  isObj(v) &&
  v.type === 'session' &&
  typeof v.id === 'string' &&
  (typeof v.cwd === 'string' || typeof v.timestamp === 'string');

/** Pi decides by line 1 alone (its loader rejects a file whose first line is not the header); so does this. */
export function sniffPi(lines: readonly string[], partial: string | undefined): boolean {
  const first = lines[0];
  if (first === undefined) return partial !== undefined && HEADER_START.test(partial);
  try {
    return isPiHeader(JSON.parse(first));
  } catch {
    return HEADER_START.test(first);
  }
}

/** The session id a Pi file name carries (the uuid after `_`), else the name without `.jsonl`. */
export const piIdFromName = (name: string): string => PI_FILE_NAME.exec(name)?.[1] ?? name.replace(/\.jsonl$/, '');

export function detectPiFiles(probe: DirProbe, ctx: FileDetection): FileSessionHit[] {
  const hits: FileSessionHit[] = [];
  for (const name of probe.names) {
    if (name.startsWith('.') || !name.endsWith('.jsonl')) continue;
    const type = probe.type(name);
    if (type === 'symlink') {
      if (PI_FILE_NAME.test(name))
        hits.push({ format: 'pi', id: piIdFromName(name), main: name, members: [name], symlinkTarget: '' });
      continue;
    }
    if (type !== 'file') continue;
    // A file named as Pi names its sessions that cannot be read (no head to sniff) is still one: it is then
    // reported unreadable, never left out in silence.
    const unreadable = probe.head(name) === undefined && PI_FILE_NAME.test(name);
    if (!unreadable && ctx.sniff(name) !== 'pi' && !(ctx.hinted && PI_FILE_NAME.test(name))) continue;
    hits.push({ format: 'pi', id: piIdFromName(name), main: name, members: [name] });
  }
  return hits;
}

export function classifyPi(inventory: readonly InventoryEntry[]): Map<string, Artifact> {
  const out = new Map<string, Artifact>();
  for (const e of inventory) {
    const p = e.path;
    if (e.type === 'dir') out.set(p, { path: p, kind: 'dir', role: 'unexpected' });
    else if (/^[^/]+\.jsonl$/.test(p)) out.set(p, { path: p, kind: 'session', role: 'jsonl' });
    else out.set(p, { path: p, kind: 'unknown', role: 'unexpected' });
  }
  return out;
}
