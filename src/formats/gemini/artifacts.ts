/**
 * What a Gemini CLI session is on disk (formats/gemini-cli.md §1): `~/.gemini/tmp/<project>/chats/session-<YYYY-MM-
 * DDTHH-MM>-<id8>.jsonl` (v0.39+) or `.json` (v0.4-v0.38), a subagent's `chats/<parent id>/<agent id>.jsonl`, and the
 * writer's leftovers `<file>.unreadable-<ms>` and `<file>.tmp-<pid>`. Recognised by content, whatever the file is
 * called (Entire CLI stores them as `full.jsonl`). The files of one session id the CLI names alike (the original and
 * the stray file a resume writes, a legacy `.json` and the `.jsonl` it was migrated to) are one session.
 */
import type { Artifact } from '../../model/session.js';
import type { InventoryEntry } from '../../model/inventory.js';
import type { DirProbe, FileSessionHit } from '../../model/found.js';
import type { FileDetection } from '../types.js';
import { isObj } from '../shared/events.js';

/** The name the CLI gives a main session file (the epoch-milliseconds form is an imported session). */
export const GEMINI_FILE_NAME = /^session-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}|\d{13})-([A-Za-z0-9_-]{1,8})\.jsonl?$/;
/** What the writer leaves beside a file: the original bytes of an unreadable file, an interrupted rewrite. */
export const BACKUP = /^(.+\.jsonl?)\.unreadable-\d+$/;
export const TEMP = /^(.+\.jsonl?)\.tmp-\d+$/;

const META_START = /^\{"sessionId":"/;

/** A parsed line that is a metadata line (or a whole legacy conversation on one line). */
export const isGeminiMeta = (v: unknown): boolean =>
  isObj(v) && typeof v.sessionId === 'string' && typeof v.projectHash === 'string';

/** The first lines of a file are a JSONL session's metadata line, or the start of a pretty-printed legacy session. */
export function sniffGemini(lines: readonly string[], partial: string | undefined): boolean {
  const first = lines[0];
  if (first === undefined) return partial !== undefined && META_START.test(partial);
  if (first.trim() === '{') {
    const keys = lines.slice(1, 4).map((l) => /^\s*"(\w+)":/.exec(l)?.[1]);
    return keys[0] === 'sessionId' && keys[1] === 'projectHash';
  }
  try {
    return isGeminiMeta(JSON.parse(first));
  } catch {
    return META_START.test(first) && first.includes('"projectHash":"');
  }
}

/** The session id the head of a file records (line 1 of a JSONL session, line 2 of a legacy one). */
function headId(head: Buffer | undefined): string | undefined {
  if (!head) return undefined;
  const m = /^\s*\{\s*"sessionId"\s*:\s*"([^"\\]{1,200})"/.exec(head.toString('utf8', 0, Math.min(head.length, 512)));
  return m?.[1];
}

/** The file a session's files are shown by and the CLI writes to: the oldest name, a `.jsonl` before its `.json`. */
export function mainOf(names: readonly string[]): string | undefined {
  const logs = names.filter((n) => /\.jsonl?$/.test(n) && !n.includes('/'));
  const rank = (n: string): string => `${n.replace(/\.jsonl?$/, '')}\u0000${n.endsWith('.jsonl') ? 0 : 1}`;
  return [...logs].sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0))[0];
}

export function detectGeminiFiles(probe: DirProbe, ctx: FileDetection): FileSessionHit[] {
  const groups = new Map<string, string[]>();
  const alone: FileSessionHit[] = [];
  for (const name of probe.names) {
    if (name.startsWith('.') || !/\.jsonl?$/.test(name)) continue;
    const named = GEMINI_FILE_NAME.exec(name);
    const type = probe.type(name);
    if (type === 'symlink') {
      if (named) alone.push({ format: 'gemini', id: name, main: name, members: [name], symlinkTarget: '' });
      continue;
    }
    if (type !== 'file') continue;
    const head = probe.head(name);
    const unreadable = head === undefined && named !== null;
    // A file the CLI named that no agent's first lines claim is still one (its metadata line lost: GEMINI_UNLOADABLE).
    const sniffed = unreadable ? undefined : ctx.sniff(name);
    if (!unreadable && sniffed !== 'gemini' && !(named && (sniffed === undefined || ctx.hinted))) continue;
    const id = headId(head);
    if (!named) {
      alone.push({ format: 'gemini', id: id ?? name.replace(/\.jsonl?$/, ''), main: name, members: [name] });
      continue;
    }
    const key = id ?? `\u0000${named[2]}`;
    const g = groups.get(key);
    if (g) g.push(name);
    else groups.set(key, [name]);
  }
  const hits = [...alone];
  for (const [key, names] of groups) {
    const leftovers = probe.names.filter((n) => {
      const base = BACKUP.exec(n)?.[1] ?? TEMP.exec(n)?.[1];
      return base !== undefined && names.includes(base);
    });
    const main = mainOf(names)!;
    const id = key.startsWith('\u0000') ? (GEMINI_FILE_NAME.exec(main)?.[2] ?? main) : key;
    hits.push({ format: 'gemini', id, main, members: [...names, ...leftovers].sort() });
  }
  return hits;
}

export function classifyGemini(inventory: readonly InventoryEntry[]): Map<string, Artifact> {
  const out = new Map<string, Artifact>();
  for (const e of inventory) {
    const p = e.path;
    if (e.type === 'dir') out.set(p, { path: p, kind: 'dir', role: 'unexpected' });
    else if (BACKUP.test(p))
      out.set(p, {
        path: p,
        kind: 'unreadable-backup',
        role: 'text',
        note: 'the original bytes of a file the CLI could not read when it resumed the session',
      });
    else if (TEMP.test(p))
      out.set(p, { path: p, kind: 'temp', role: 'temp', note: 'a rewrite the CLI did not finish (a crash)' });
    else if (/^[^/]+\.jsonl$/.test(p)) out.set(p, { path: p, kind: 'session', role: 'jsonl' });
    else if (/^[^/]+\.json$/.test(p)) out.set(p, { path: p, kind: 'legacy', role: 'json' });
    else out.set(p, { path: p, kind: 'unknown', role: 'unexpected' });
  }
  return out;
}
