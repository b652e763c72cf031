/**
 * SANDBOX_*: can any session in the tree have run with more access than the session it came from? Compares the
 * recorded sandbox profile along every lineage edge (fork, subagent, worktree), and against an earlier capture.
 */
import type { LineageFacts } from '../lineage/facts.js';
import { canonicalName, compare, isBuiltin, type ProfileBook } from '../sandbox/profiles.js';
import { defineRootCheck, type RootCheckContext } from './define-root.js';

const LOC = { file: 'summary.json', pointer: '/sandbox_profile' };

export const sandbox = defineRootCheck({
  id: 'sandbox',
  codes: {
    SANDBOX_WIDENED: {
      severity: 'error',
      title: 'A session runs with more access than the session it came from (or than it started with)',
      help: 'A fork, subagent, worktree session, or a later capture of the same session records a sandbox profile that grants more than its origin in some dimension (filesystem read, filesystem write, child network, deny list), or one that is incomparable with it. Grok fixes the profile at creation, copies it to forks and refuses a different one on resume; a wider profile means the session was created under another configuration, or summary.json was edited. Inside one Codex or Claude Code session the policy is recorded per turn: a later turn_context whose approval_policy / sandbox_policy / permission_profile grants more than the first one (workspace-write → danger-full-access, on-request → never, a new writable root or network access), a permissionMode that grants more than the session started with (default → acceptEdits → bypassPermissions), or a Bash call with dangerouslyDisableSandbox, is reported where it first appears, with what it gains. Legitimate causes: the user switched modes or approved an escalation; check what ran under the wider policy.',
    },
    SANDBOX_DROPPED: {
      severity: 'error',
      title: 'The origin recorded a sandbox profile, the descendant records none',
      help: 'Without a recorded profile, a resume of the descendant runs under --sandbox, GROK_SANDBOX, config.toml, or off — whichever comes first — instead of the origin\'s profile.',
    },
    SANDBOX_CHANGED: {
      severity: 'warning',
      title: 'The recorded sandbox profile changed (not wider)',
      help: 'The descendant (or a later capture) records a different profile that is not wider: narrower, or not comparable because a custom profile\'s definition was not supplied (--sandbox-config). Between two captures of the same session any change is an error: no Grok code path rewrites sandbox_profile. Inside a Codex or Claude Code session, a turn whose policy differs from the one before without granting more than the session started with (plan mode, read-only, a narrower approval policy, or a return to the starting policy) is a note.',
    },
    SANDBOX_PROFILE_MISSING: {
      severity: 'note',
      title: 'No sandbox profile recorded',
      help: 'The session has no sandbox_profile (created before the field existed, or by a foreign tool). A resume falls back to --sandbox, GROK_SANDBOX, config.toml, or off. ("off" recorded explicitly is different: it means unsandboxed by choice.)',
    },
    SANDBOX_PROFILE_UNKNOWN: {
      severity: 'note',
      title: 'A custom sandbox profile whose definition was not supplied',
      help: 'The profile is a custom name (from sandbox.toml). Without its definition (--sandbox-config ~/.grok/sandbox.toml --sandbox-config <project>/.grok/sandbox.toml) it can only be compared by name.',
    },
  },
  run(ctx) {
    const { graph, profiles } = ctx;
    const dropped = new Set<LineageFacts>();
    for (const e of graph.edges) {
      if (!e.parent) continue;
      const from = e.parent.sandboxProfile;
      const to = e.child.sandboxProfile;
      const edge = `${e.kind} of ${e.parent.id}`;
      // A child whose summary.json cannot be read has an unknown profile, not a dropped one (that is reported
      // as the unreadable summary itself; subagent init writes it in place, so a crash can leave it torn).
      if (from !== undefined && to === undefined && e.child.hasSummary) {
        dropped.add(e.child);
        ctx.emit(e.child, 'SANDBOX_DROPPED', LOC, `${edge}, which ran under ${JSON.stringify(from)}, records no sandbox profile: a resume would run under --sandbox / GROK_SANDBOX / config / off instead`, { key: e.parentId });
        continue;
      }
      if (from === undefined || to === undefined) continue;
      judge(ctx, profiles, e.child, to, from, `${edge}`, e.parentId, false);
    }
    for (const n of graph.nodes) {
      if (n.hasSummary && n.sandboxProfile === undefined && !dropped.has(n)) {
        ctx.emit(n, 'SANDBOX_PROFILE_MISSING', { file: 'summary.json' }, 'no sandbox_profile recorded: a resume runs under --sandbox, GROK_SANDBOX, config.toml or off, whichever comes first');
      }
      if (n.sandboxProfile !== undefined && !isBuiltin(n.sandboxProfile) && !profiles.resolve(n.sandboxProfile)) {
        ctx.emit(n, 'SANDBOX_PROFILE_UNKNOWN', LOC, `custom profile ${JSON.stringify(n.sandboxProfile)} has no definition among the --sandbox-config files${/[A-Z\s]/.test(n.sandboxProfile) ? ' (profile names are case-sensitive and untrimmed: this may be a mistyped built-in)' : ''}; compared by name only`);
      }
      const then = ctx.earlier?.get(n.id);
      if (!then || !n.hasSummary || !then.hasSummary) continue;
      if (then.sandboxProfile === n.sandboxProfile) continue;
      if (then.sandboxProfile !== undefined && n.sandboxProfile === undefined) {
        ctx.emit(n, 'SANDBOX_DROPPED', LOC, `the earlier capture (${then.path}) recorded ${JSON.stringify(then.sandboxProfile)}; this one records none: summary.json was rewritten`, { key: 'capture' });
      } else if (then.sandboxProfile === undefined) {
        ctx.emit(n, 'SANDBOX_CHANGED', LOC, `the earlier capture (${then.path}) recorded no profile; this one records ${JSON.stringify(n.sandboxProfile)}: summary.json was rewritten`, { key: 'capture', severity: 'error' });
      } else {
        judge(ctx, profiles, n, n.sandboxProfile!, then.sandboxProfile, `the earlier capture (${then.path})`, 'capture', true);
      }
    }
  },
});

/** Compare a descendant's profile with its origin's and report what changed. */
function judge(ctx: RootCheckContext, profiles: ProfileBook, on: LineageFacts, to: string, from: string, origin: string, key: string, overTime: boolean): void {
  if (canonicalName(to) === canonicalName(from)) return; // aliases are the same profile (Grok compares parsed names)
  const a = profiles.resolve(to);
  const b = profiles.resolve(from);
  const changedSeverity = overTime ? { severity: 'error' as const } : {};
  if (!a || !b) {
    ctx.emit(on, 'SANDBOX_CHANGED', LOC, `runs under ${JSON.stringify(to)}, ${origin} under ${JSON.stringify(from)}; ${!a ? JSON.stringify(to) : JSON.stringify(from)} is a custom profile without a definition, so whether it is wider cannot be told (supply --sandbox-config)`, { key, ...changedSeverity });
    return;
  }
  const c = compare(a, b);
  if (c.wider) {
    ctx.emit(on, 'SANDBOX_WIDENED', LOC, `runs under ${JSON.stringify(to)}, wider than ${JSON.stringify(from)} of ${origin}: ${c.gains.join('; ')}${c.narrower ? ` (and narrower elsewhere: ${c.losses.join('; ')}; incomparable counts as wider)` : ''}`, { key });
  } else if (c.narrower || overTime) {
    ctx.emit(on, 'SANDBOX_CHANGED', LOC, `runs under ${JSON.stringify(to)}, ${c.narrower ? 'narrower than' : 'different from'} ${JSON.stringify(from)} of ${origin}${c.losses.length ? `: ${c.losses.join('; ')}` : ''}${overTime ? '; a recorded profile never changes in a live session: summary.json was rewritten' : ''}`, { key, ...changedSeverity });
  }
}
