/** What the reviewer's commands (`sessions`, `activity`) take alike: the paths or the agents' homes, a time window. */
import { defaultRoots } from '../engine/archive.js';
import { UsageError } from '../errors.js';
import { FORMATS } from '../formats/registry.js';
import { parseTime } from './options.js';
import { opt, type ParsedArgs } from './spec.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `--since` / `--until`: an ISO date (a whole day: `--until` takes its end) or an ISO date and time. */
function bound(flag: '--since' | '--until', v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const ms = parseTime(flag, v);
  if (ms === undefined) return undefined;
  return flag === '--until' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? ms + DAY_MS - 1 : ms;
}

/** The paths given, else the agents' homes that exist; none of either is a usage error naming where it looked. */
export function pathsOrHomes(args: ParsedArgs, command: string, verb: string): string[] {
  const given = opt.posList(args, 'paths');
  const paths = given.length ? given : defaultRoots();
  if (!paths.length)
    throw new UsageError(
      `${command}: no agent session home exists here (${FORMATS.flatMap((f) => f.homeRoots ?? [])
        .map((r) => `~/${r}`)
        .join(', ')}); give the paths to ${verb}`,
    );
  return paths;
}

/** `--since` and `--until` in ms since the epoch; a window that is empty is a usage error (`noun`: what it holds). */
export function timeWindow(
  sinceFlag: string | undefined,
  untilFlag: string | undefined,
  noun: string,
): { since?: number; until?: number } {
  const since = bound('--since', sinceFlag);
  const until = bound('--until', untilFlag);
  if (since !== undefined && until !== undefined && since > until)
    throw new UsageError(`--since is later than --until: no ${noun} could match`);
  return { ...(since !== undefined ? { since } : {}), ...(until !== undefined ? { until } : {}) };
}
