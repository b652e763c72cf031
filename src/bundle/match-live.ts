/** Pairing each captured session of a bag with the live session `--against` compares it with. */
import type { FoundSession } from '../model/found.js';
import type { CapturedSessionFiles } from './captured-sessions.js';

/** Path components two paths share at their ends (how alike two places of one session id are). */
function commonSuffix(a: string, b: string): number {
  const x = a.split('/').filter(Boolean);
  const y = b.split('/').filter(Boolean);
  let n = 0;
  while (n < x.length && n < y.length && x[x.length - 1 - n] === y[y.length - 1 - n]) n++;
  return n;
}

/**
 * The live session a captured one corresponds to: same id; among several copies of one id, the one in the same
 * cwd group whose path ends most like the captured path. Each live session is matched at most once.
 */
export function matchLive(
  s: CapturedSessionFiles,
  live: readonly FoundSession[],
  taken: Set<FoundSession>,
): FoundSession | undefined {
  const group = s.group ?? s.bagDir.split('/')[1];
  let best: FoundSession | undefined;
  let bestScore = -1;
  for (const f of live) {
    if (f.id !== s.id || taken.has(f)) continue;
    const score = (f.groupName === group ? 1000 : 0) + (s.path !== undefined ? commonSuffix(s.path, f.display) : 0);
    if (score > bestScore) {
      best = f;
      bestScore = score;
    }
  }
  if (best) taken.add(best);
  return best;
}
