/**
 * The agents' homes `archive` keeps: the files an agent keeps beside its sessions (prompt histories, indexes, state
 * databases) outlive the logs, so each home met is captured as an entry of its own (`home:<agent>`, its files as
 * members, no session format: rewritable, like a group's own files; regular files only). A home is
 * met when a root is inside it (the default roots are its session folders, `~/.codex/sessions`) or when the walk
 * enters it.
 */
import { join } from 'node:path';
import { FORMATS, formatNamed, type detectorsFor } from '../formats/registry.js';
import type { FoundHome, FoundSession } from '../model/found.js';
import { byteOrder } from '../model/order.js';
import { homeFiles, matchesHomePattern } from '../read/home-files.js';
import { escapeText } from '../read/names.js';
import { lstatEntry } from '../read/walk.js';

type Detectors = ReturnType<typeof detectorsFor>;

const withheldOf = (format: string): readonly string[] | undefined => formatNamed(format)?.home?.withheld;

/** The homes a root lies in: a root that is one of an agent's session folders (`<home>/sessions`). */
export function homesAbove(arg: string, abs: string, detectors: Detectors): FoundHome[] {
  const out: FoundHome[] = [];
  for (const spec of detectors.homes) {
    const roots = FORMATS.find((f) => f.name === spec.format)?.homeRoots ?? [];
    for (const root of roots) {
      if (!root.startsWith(`${spec.dir}/`)) continue;
      const rest = root.slice(spec.dir.length);
      if (!abs.endsWith(`/${root}`) && abs !== root) continue;
      const homeAbs = abs.slice(0, abs.length - rest.length);
      const shown = arg.replace(/\/+$/, '');
      const display = shown.endsWith(rest) ? shown.slice(0, shown.length - rest.length) : escapeText(homeAbs);
      const files = homeFiles(homeAbs, spec.files);
      if (files.length) out.push({ abs: homeAbs, display, format: spec.format, files });
    }
  }
  return out;
}

/** A home file the store does not keep (only regular files are), as `archive` names it. */
export interface HomeLeftOut {
  display: string;
  why: string;
}

/**
 * Each home once (by its directory and agent), as the entry the store captures: its regular files, those in its
 * own folders too (Grok's sessions/session_search.sqlite); `left` gets each file it leaves out and why.
 */
export function homeEntries(homes: readonly FoundHome[], left: HomeLeftOut[] = []): FoundSession[] {
  const seen = new Set<string>();
  const out: FoundSession[] = [];
  for (const h of homes) {
    const key = `${h.format}\u0000${h.abs}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const members: string[] = [];
    for (const f of h.files) {
      // Beside the home, not in it (Claude's ../.claude.json): a capture's paths stay inside its directory.
      if (f.split('/').includes('..')) {
        const withheld = (withheldOf(h.format) ?? []).some((p) => matchesHomePattern(f, p));
        const why = withheld
          ? "beside the home, not in it: audited, and hashed in a bag's custody statement (never bagged)"
          : 'beside the home, not in it: audited and bagged';
        left.push({ display: `${h.display}/${f}`, why });
        continue;
      }
      const type = lstatEntry(join(h.abs, f), f).type;
      if (type === 'file') members.push(f);
      else
        left.push({
          // `f` is an escaped name already (read/names.ts), as the display is.
          display: `${h.display}/${f}`,
          why: `a ${type}: the store keeps a home's regular files`,
        });
    }
    if (!members.length) continue;
    out.push({ abs: h.abs, display: h.display, id: `home:${h.format}`, members });
  }
  return out;
}

/**
 * The captures of a root: its sessions, its groups' own files and its homes. A home that is itself a group's
 * directory (Copilot CLI's `.copilot`, whose sessions the walk finds down from it) is one capture, the home's, with
 * the group's files beside its own: the two would have one key (store/archive.ts `sessionKey`: no format, the same
 * directory), and the key stays the one the group's files were captured under before the home was.
 */
export function rootCaptures(
  sessions: readonly FoundSession[],
  groups: readonly FoundSession[],
  homes: readonly FoundSession[],
): FoundSession[] {
  const merged = homes.map((h) => {
    const g = groups.find((x) => x.abs === h.abs);
    if (!g) return h;
    return { ...h, members: [...new Set([...(h.members ?? []), ...(g.members ?? [])])].sort(byteOrder) };
  });
  return [...sessions, ...groups.filter((g) => !homes.some((h) => h.abs === g.abs)), ...merged];
}
