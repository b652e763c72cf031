/**
 * What an agent's home keeps beside the logs that names no session, shown to a reviewer through the format's home
 * `views` (an agent that offers none shows nothing): for `inspect`, what the home above a session ties to it; for
 * `lineage`, what each home met holds outside every session found in it. The views read the home's files through
 * the checks' own context, read-only as any evidence.
 */
import { dirname } from 'node:path';
import { detectorsFor, formatNamed } from '../formats/registry.js';
import type { FoundHome, FoundSession } from '../model/found.js';
import type { HomeView, HomeViewSection } from '../model/home-view.js';
import { homeFiles } from '../read/home-files.js';
import { homeViewContext } from './home-audit.js';

/** Levels above a session searched for its home (Grok's `<home>/sessions/<group>/<id>` is three). */
const MAX_UP = 6;

/**
 * The agent's home a session lies in, by its path: the nearest directory above it named as its format's home
 * (`.grok`) that holds the session below one of the format's session roots and has files of its own.
 */
export function homeAbove(found: FoundSession): FoundHome | undefined {
  const format = found.format === undefined ? undefined : formatNamed(found.format);
  if (!format?.home?.views) return undefined;
  const specs = detectorsFor().homes.filter((h) => h.format === format.name);
  let dir = dirname(found.abs);
  for (let up = 0; up < MAX_UP && dir !== dirname(dir); up++, dir = dirname(dir))
    for (const spec of specs) {
      if (!dir.endsWith(`/${spec.dir}`)) continue;
      const rel = found.abs.slice(dir.length + 1);
      const below = (format.homeRoots ?? [])
        .filter((r) => r === spec.dir || r.startsWith(`${spec.dir}/`))
        .map((r) => r.slice(spec.dir.length + 1));
      if (!below.some((b) => b === '' || rel.startsWith(`${b}/`))) continue;
      const files = homeFiles(dir, spec.files);
      if (!files.length) return undefined;
      const shown = found.display.replace(/\/+$/, '');
      const display = shown.endsWith(`/${rel}`) ? shown.slice(0, -rel.length - 1) : dir;
      return { abs: dir, display, format: format.name, files };
    }
  return undefined;
}

const asView = (home: FoundHome, sections: HomeViewSection[]): HomeView | undefined =>
  sections.length ? { home: home.display, format: home.format, sections } : undefined;

/** What the home above the session ties to it (undefined: no home, no views, or nothing to show). */
export function sessionHomeView(found: FoundSession): HomeView | undefined {
  const home = homeAbove(found);
  const views = home && formatNamed(home.format)?.home?.views;
  if (!home || !views?.session) return undefined;
  return asView(home, views.session(homeViewContext(home, [found], { command: 'audit' }), found));
}

/**
 * What each home holds outside every session found in it; a view that fails is said in `errors` (a bug of ours),
 * and the other homes are still shown.
 */
export function outsideSessions(
  homes: readonly FoundHome[],
  sessions: readonly FoundSession[],
): { views: HomeView[]; errors: string[] } {
  const views: HomeView[] = [];
  const errors: string[] = [];
  for (const home of homes) {
    const outside = formatNamed(home.format)?.home?.views?.outsideSessions;
    if (!outside) continue;
    try {
      const v = asView(home, outside(homeViewContext(home, sessions, { command: 'audit' })));
      if (v) views.push(v);
    } catch (e) {
      errors.push(`${home.display}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { views, errors };
}
