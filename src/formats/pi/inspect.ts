/**
 * What `inspect` says about resuming a Pi session: `pi --session <id>` from its cwd, and, always, that Pi rewrites
 * evidence when it opens it (a file without a valid header is truncated, a v1/v2 file migrated in place), so the
 * file is bundled first.
 */
import { logSessionInspect } from '../shared/inspect.js';
import type { PairingDialect } from '../../pairing/dialect.js';
import type { InspectTraits } from '../types.js';

export const PI_REWRITES =
  'Pi rewrites a session file when it opens it: one whose header does not parse is truncated to a fresh header ' +
  '(every entry lost), a v1 or v2 file is migrated to v3 in place (v1 entries get new random ids), and lines it ' +
  'cannot parse are dropped by the rewrite';

export function piInspect(pairing: PairingDialect): InspectTraits {
  const base = logSessionInspect(pairing, 'pi --session', PI_REWRITES);
  return {
    ...base,
    replay: (r) => [
      ...base.replay(r),
      `Opening the file in Pi can destroy evidence: ${PI_REWRITES}. Bundle first (session-audit bundle), and open ` +
        'only a copy in Pi.',
    ],
  };
}
