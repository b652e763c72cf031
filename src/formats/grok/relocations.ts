/**
 * Relocation journals (`<grok home>/relocations/<session-id>.json`, §2.9): when a session moves between cwd
 * groups, both copies can exist for a while, and "the journal phase is the only authority" on which one counts.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { readDirectoryFiles } from '../../read/files.js';
import { tooDeep, tooDeepDetail } from '../../read/json-depth.js';
import { isRealDirectory } from '../../read/walk.js';
import type { Relocation } from '../../lineage/graph.js';
import { validateGrok } from './validate.js';

/** The grok home above a sessions root, when the root is `<home>/sessions` and the home has relocations/. */
export function grokHomeOf(sessionsRoot: string): string | undefined {
  if (basename(sessionsRoot) !== 'sessions') return undefined;
  const home = dirname(sessionsRoot);
  return isRealDirectory(join(home, 'relocations')) ? home : undefined;
}

/** Journals under `home` (absolute); `shown` is how the home is named in messages (the user's own path). */
export function readRelocations(home: string, shown = home): { journals: Map<string, Relocation>; problems: string[] } {
  const journals = new Map<string, Relocation>();
  const problems: string[] = [];
  for (const f of readDirectoryFiles(join(home, 'relocations'), 1 << 20)) {
    if (!f.name.endsWith('.json')) continue;
    const file = join(shown, 'relocations', f.name);
    if (!f.bytes) {
      problems.push(`${file}: ${f.error}`);
      continue;
    }
    const deep = tooDeep(f.bytes);
    if (deep) {
      problems.push(`${file}: ${tooDeepDetail(deep, 'file')}; not parsed`);
      continue;
    }
    let v: unknown;
    try {
      v = JSON.parse(f.bytes.toString('utf8'));
    } catch {
      problems.push(`${file}: not valid JSON`);
      continue;
    }
    if (validateGrok('relocation', v).length) {
      problems.push(`${file}: not a relocation journal`);
      continue;
    }
    const j = v as { session_id: string; phase: string; source_cwd: string; target_cwd: string };
    journals.set(j.session_id, {
      sessionId: j.session_id,
      phase: j.phase,
      sourceCwd: j.source_cwd,
      targetCwd: j.target_cwd,
      file,
    });
  }
  return { journals, problems };
}

/**
 * Journals of the grok homes above the sessions' roots (`root` = the sessions root, `path` = a session's display
 * path) and of an explicit home (`--grok-home`), by session id.
 */
export function grokRelocations(
  sessions: ReadonlyArray<{ root: string; path: string }>,
  explicitHome?: string,
): Map<string, Relocation> {
  /** Absolute home → the home as the user's paths name it (deterministic in messages). */
  const homes = new Map<string, string>();
  if (explicitHome) homes.set(resolve(explicitHome), explicitHome);
  for (const f of sessions) {
    const home = grokHomeOf(f.root);
    if (home && !homes.has(home)) homes.set(home, dirname(dirname(dirname(f.path))));
  }
  const all = new Map<string, Relocation>();
  for (const [abs, shown] of [...homes].sort())
    for (const [id, r] of readRelocations(abs, shown).journals) all.set(id, r);
  return all;
}
