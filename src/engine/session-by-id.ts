/**
 * One session picked by its id in a tree or an agent's home (`timeline --id`, `transcript --id`): an exact id, or at
 * least 4 characters that start only one. A session whose log is in the tree is that session; one known only to a
 * home's own files (a prompt history) gives what those files still hold of it, recalled and marked as such.
 */
import type { RecalledEntry } from '../checks/define-home.js';
import { UsageError } from '../errors.js';
import type { FoundHome, FoundSession } from '../model/found.js';
import type { AuditOptions } from './audit-session.js';
import { recallHome } from './home-audit.js';
import { findSessions } from './tree.js';

/** What a home still knows of a session whose log is gone. */
export interface RecalledSession {
  id: string;
  format: string;
  home: FoundHome;
  /** The home's files that hold it (relative to the home). */
  files: string[];
  entries: RecalledEntry[];
}

export type PickedSession = { live: FoundSession } | { gone: RecalledSession };

const inside = (s: FoundSession, h: FoundHome): boolean =>
  s.format === h.format && (s.abs === h.abs || s.abs.startsWith(`${h.abs}/`));

export function sessionById(path: string, name: string, hint?: string, maxDbBytes?: number): PickedSession {
  if (name.length < 4)
    throw new UsageError(`--id ${JSON.stringify(name)}: give a session id or at least 4 characters of one`);
  const homes: FoundHome[] = [];
  const found = findSessions([path], hint, undefined, homes);
  const exact = found.filter((s) => s.id === name);
  const live = exact.length ? exact : found.filter((s) => s.id.startsWith(name));
  const options: AuditOptions = { command: 'audit', ...(maxDbBytes !== undefined ? { maxDbBytes } : {}) };
  const gone = new Map<string, RecalledSession>();
  for (const h of homes) {
    const present = new Set(found.filter((s) => inside(s, h)).map((s) => s.id));
    const wanted = (id: string): boolean => id !== '' && !present.has(id) && (id === name || id.startsWith(name));
    recallHome(h, found, options, wanted, (e) => {
      const key = `${h.format}\u0000${h.abs}\u0000${e.session}`;
      let g = gone.get(key);
      if (!g) gone.set(key, (g = { id: e.session, format: h.format, home: h, files: [], entries: [] }));
      if (!g.files.includes(e.file)) g.files.push(e.file);
      g.entries.push(e);
    });
  }
  const goneExact = [...gone.values()].filter((g) => g.id === name);
  const recalled = exact.length ? [] : goneExact.length ? goneExact : [...gone.values()];
  const places = [
    ...live.map((s) => `${s.id} (${s.display})`),
    ...recalled.map((g) => `${g.id} (gone: known to ${g.files.map((f) => `${g.home.display}/${f}`).join(', ')})`),
  ];
  if (places.length === 1) return live.length ? { live: live[0]! } : { gone: recalled[0]! };
  if (places.length === 0)
    throw new UsageError(
      `${path}: no session ${JSON.stringify(name)} (neither a log nor an agent's own file in it names one; ` +
        '`session-audit sessions` lists them)',
    );
  const more = places.length > 5 ? `, and ${places.length - 5} more` : '';
  throw new UsageError(
    `${path}: ${places.length} sessions match --id ${JSON.stringify(name)}: give a longer prefix, or one path: ` +
      `${places.slice(0, 5).join('; ')}${more}`,
  );
}
