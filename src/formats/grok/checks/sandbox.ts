/**
 * SANDBOX_*: can any Grok session in the tree have run with more access than the session it came from? Compares
 * the sandbox profile summary.json records along every lineage edge (fork, subagent, worktree), and against an
 * earlier capture (`audit --against`). Custom profiles are resolved through the --sandbox-config files.
 */
import type { LineageFacts } from '../../../lineage/facts.js';
import type { EdgeKind } from '../../../lineage/graph.js';
import { canonicalName, compare, isBuiltin, type ProfileBook } from '../sandbox/profiles.js';
import { loadProfileBook } from '../sandbox/config.js';
import { defineRootCheck, type RootCheckContext, type TreeInputs } from '../../../checks/define-root.js';
import { SANDBOX_CODES } from '../../../checks/sandbox-codes.js';
import { UsageError } from '../../../errors.js';
import { grokIdentityOf } from '../identity.js';

/** A session of an earlier capture: its recorded sandbox profile. */
interface CapturedSession {
  id: string;
  /** Where the earlier capture holds it. */
  path: string;
  sandboxProfile?: string;
  hasSummary: boolean;
}

interface Prepared {
  profiles: ProfileBook;
  earlier?: Map<string, CapturedSession>;
}

function prepare(inputs: TreeInputs): Prepared {
  let profiles: ProfileBook;
  try {
    profiles = loadProfileBook(inputs.sandboxConfigs);
  } catch (e) {
    throw new UsageError(`--sandbox-config ${(e as Error).message}`);
  }
  if (!inputs.earlier) return { profiles };
  const earlier = new Map<string, CapturedSession>();
  for (const source of inputs.earlier) {
    const found = source.found;
    if (earlier.has(found.id)) continue;
    const identity = grokIdentityOf(source);
    const c: CapturedSession = { id: found.id, path: found.display, hasSummary: identity?.documented === true };
    if (identity?.sandboxProfile !== undefined) c.sandboxProfile = identity.sandboxProfile;
    earlier.set(found.id, c);
  }
  return { profiles, earlier };
}

const LOC = { file: 'summary.json', pointer: '/sandbox_profile' };

/** The session a child's profile is compared with, named by how the child came from it. */
const ORIGIN: Record<EdgeKind, (id: string) => string> = {
  fork: (id) => `the session it was forked from (${id})`,
  subagent: (id) => `the parent session that spawned it as a subagent (${id})`,
  subagent_fork: (id) => `the parent session it was forked from as a subagent (${id})`,
  subagent_resume: (id) => `the subagent session it resumed (${id})`,
  worktree: (id) => `the session it was started from in a worktree (${id})`,
  restored: (id) => `the remote session it was restored from (${id})`,
};

export const sandbox = defineRootCheck({
  id: 'sandbox',
  prepare,
  codes: SANDBOX_CODES,
  run(ctx, { profiles, earlier }: Prepared) {
    const { graph } = ctx;
    const dropped = new Set<LineageFacts>();
    for (const e of graph.edges) {
      if (!e.parent || e.child.format !== 'grok') continue;
      const from = e.parent.sandboxProfile;
      const to = e.child.sandboxProfile;
      const origin = ORIGIN[e.kind](e.parent.id);
      // A child whose summary.json cannot be read has an unknown profile, not a dropped one (that is reported
      // as the unreadable summary itself; subagent init writes it in place, so a crash can leave it torn).
      if (from !== undefined && to === undefined && e.child.hasSummary) {
        dropped.add(e.child);
        ctx.emit(
          e.child,
          'SANDBOX_DROPPED',
          LOC,
          `records no sandbox profile, while ${origin} ran under ${JSON.stringify(from)}: a resume would run under ` +
            `--sandbox / GROK_SANDBOX / config / off instead`,
          { key: e.parentId },
        );
        continue;
      }
      if (from === undefined || to === undefined) continue;
      judge(ctx, profiles, e.child, to, from, origin, e.parentId, false);
    }
    for (const n of graph.nodes) {
      if (n.format !== 'grok') continue;
      if (n.hasSummary && n.sandboxProfile === undefined && !dropped.has(n)) {
        ctx.emit(
          n,
          'SANDBOX_PROFILE_MISSING',
          { file: 'summary.json' },
          'no sandbox_profile recorded: a resume runs under --sandbox, GROK_SANDBOX, config.toml or off, whichever ' +
            'comes first',
        );
      }
      if (n.sandboxProfile !== undefined && !isBuiltin(n.sandboxProfile) && !profiles.resolve(n.sandboxProfile)) {
        ctx.emit(
          n,
          'SANDBOX_PROFILE_UNKNOWN',
          LOC,
          `custom profile ${JSON.stringify(n.sandboxProfile)} has no definition among the --sandbox-config files` +
            (/[A-Z\s]/.test(n.sandboxProfile)
              ? ' (profile names are case-sensitive and untrimmed: this may be a mistyped built-in)'
              : '') +
            '; compared by name only',
        );
      }
      const then = earlier?.get(n.id);
      if (!then || !n.hasSummary || !then.hasSummary) continue;
      if (then.sandboxProfile === n.sandboxProfile) continue;
      if (then.sandboxProfile !== undefined && n.sandboxProfile === undefined) {
        ctx.emit(
          n,
          'SANDBOX_DROPPED',
          LOC,
          `the earlier capture (${then.path}) recorded ${JSON.stringify(then.sandboxProfile)}; this one records ` +
            `none: summary.json was rewritten`,
          { key: 'capture' },
        );
      } else if (then.sandboxProfile === undefined) {
        ctx.emit(
          n,
          'SANDBOX_CHANGED',
          LOC,
          `the earlier capture (${then.path}) recorded no profile; this one records ` +
            `${JSON.stringify(n.sandboxProfile)}: summary.json was rewritten`,
          { key: 'capture', severity: 'error' },
        );
      } else {
        judge(
          ctx,
          profiles,
          n,
          n.sandboxProfile!,
          then.sandboxProfile,
          `the earlier capture (${then.path})`,
          'capture',
          true,
        );
      }
    }
  },
});

/** Compare a descendant's profile with its origin's and report what changed. */
function judge(
  ctx: RootCheckContext<keyof typeof SANDBOX_CODES>,
  profiles: ProfileBook,
  on: LineageFacts,
  to: string,
  from: string,
  origin: string,
  key: string,
  overTime: boolean,
): void {
  if (canonicalName(to) === canonicalName(from)) return; // aliases are the same profile (Grok compares parsed names)
  const a = profiles.resolve(to);
  const b = profiles.resolve(from);
  const changedSeverity = overTime ? { severity: 'error' as const } : {};
  if (!a || !b) {
    ctx.emit(
      on,
      'SANDBOX_CHANGED',
      LOC,
      `runs under ${JSON.stringify(to)}, while ${origin} ran under ${JSON.stringify(from)}; ` +
        `${!a ? JSON.stringify(to) : JSON.stringify(from)} is a custom profile without a definition, so whether it ` +
        `is wider cannot be told (supply --sandbox-config)`,
      { key, ...changedSeverity },
    );
    return;
  }
  const c = compare(a, b);
  if (c.wider) {
    ctx.emit(
      on,
      'SANDBOX_WIDENED',
      LOC,
      `runs under ${JSON.stringify(to)}, wider than ${origin}, which ran under ${JSON.stringify(from)}: ` +
        c.gains.join('; ') +
        (c.narrower ? ` (and narrower elsewhere: ${c.losses.join('; ')}; incomparable counts as wider)` : ''),
      { key },
    );
  } else if (c.narrower || overTime) {
    ctx.emit(
      on,
      'SANDBOX_CHANGED',
      LOC,
      `runs under ${JSON.stringify(to)}, ${c.narrower ? 'narrower than' : 'different from'} ${origin}, which ran ` +
        `under ${JSON.stringify(from)}${c.losses.length ? `: ${c.losses.join('; ')}` : ''}` +
        (overTime ? '; a recorded profile never changes in a live session: summary.json was rewritten' : ''),
      { key, ...changedSeverity },
    );
  }
}
