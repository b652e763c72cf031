/**
 * The lineage corpus: a grok home whose sessions root holds a parent, its forks (widened, dropped, alias-equal,
 * narrowed by a custom profile, unknown custom), its subagents (fresh, fork, resume), a worktree session, a
 * duplicate id, a missing parent, a parent cycle and a relocated session with its journal.
 */
import { encodeCwd } from './clean-root.js';
import type { Case, Content, Files } from './case-kit.js';
import { GrokSession, iso, type Json } from './grok-builder.js';

const CWD = '/home/dev/app';
const GROUP = encodeCwd(CWD);
const T0 = Date.UTC(2026, 8, 1, 8, 0, 0);

/** Session ids (UUIDv7-shaped), by role. */
export const L = {
  parent: '019b1000-0000-7000-8000-00000000c001',
  forkWidened: '019b1000-0000-7000-8000-00000000c002',
  forkDropped: '019b1000-0000-7000-8000-00000000c003',
  forkAlias: '019b1000-0000-7000-8000-00000000c004',
  forkNarrow: '019b1000-0000-7000-8000-00000000c005',
  forkUnknown: '019b1000-0000-7000-8000-00000000c006',
  subFresh: '019b1000-0000-7000-8000-00000000c007',
  subFork: '019b1000-0000-7000-8000-00000000c008',
  subResume: '019b1000-0000-7000-8000-00000000c009',
  worktree: '019b1000-0000-7000-8000-00000000c00a',
  duplicate: '019b1000-0000-7000-8000-00000000c00b',
  orphan: '019b1000-0000-7000-8000-00000000c00c',
  cycleA: '019b1000-0000-7000-8000-00000000c00d',
  cycleB: '019b1000-0000-7000-8000-00000000c00e',
  relocated: '019b1000-0000-7000-8000-00000000c00f',
  remoteParent: '019b0fff-0000-7000-8000-0000000000ff',
};

interface Spec {
  id: string;
  cwd?: string;
  minutes: number;
  profile?: string;
  summary?: Record<string, Json>;
  prompt: string;
}

function session(spec: Spec): GrokSession {
  const s = new GrokSession({
    id: spec.id,
    cwd: spec.cwd ?? CWD,
    startMs: T0 + spec.minutes * 60_000,
    ...(spec.profile !== undefined ? { sandboxProfile: spec.profile } : {}),
  });
  s.summary = { ...spec.summary };
  s.prompt(spec.prompt).say('Done.').endTurn('end_turn');
  return s;
}

const meta = (
  parent: string,
  child: string,
  type: string,
  startedMs: number,
  extra: Record<string, Json> = {},
): string =>
  `${JSON.stringify(
    {
      subagent_id: child,
      parent_session_id: parent,
      child_session_id: child,
      subagent_type: type,
      description: `${type} helper`,
      prompt: 'help',
      status: 'completed',
      started_at: iso(startedMs),
      completed_at: iso(startedMs + 9000),
      duration_ms: 9000,
      tool_calls: 0,
      turns: 1,
      child_cwd: CWD,
      ...extra,
    },
    null,
    2,
  )}\n`;

export function lineageCase(): Case {
  const files: Files = new Map<string, Content>();
  const put = (s: GrokSession, group = GROUP): void => {
    for (const [p, c] of s.render()) files.set(`home/sessions/${group}/${s.id}/${p}`, c);
  };
  const fork = (id: string, minutes: number, profile: string | undefined, parent = L.parent): GrokSession =>
    session({
      id,
      minutes,
      profile,
      prompt: 'Try another approach.',
      summary: { session_kind: 'fork', parent_session_id: parent, forked_at: iso(T0 + minutes * 60_000) },
    });

  // The parent runs read-only and spawns three subagents (fresh, fork, resume of the fresh one).
  const parent = new GrokSession({ id: L.parent, cwd: CWD, startMs: T0, sandboxProfile: 'read-only' });
  parent.prompt('Audit the dependencies for known vulnerabilities.');
  for (const [child, type, extra] of [
    [L.subFresh, 'explore', { effective_context_source: 'new' }],
    [L.subFork, 'general-purpose', { effective_context_source: 'forked' }],
    [L.subResume, 'explore', { effective_context_source: 'resumed', resumed_from: L.subFresh }],
  ] as const) {
    parent.tick(2000).xai({
      sessionUpdate: 'subagent_spawned',
      subagent_id: child,
      parent_session_id: L.parent,
      child_session_id: child,
      subagent_type: type,
      description: `${type} helper`,
      ...extra,
    });
    const started = parent.t;
    parent.tick(9000).xai({
      sessionUpdate: 'subagent_finished',
      subagent_id: child,
      child_session_id: child,
      status: 'completed',
      tool_calls: 0,
      turns: 1,
      duration_ms: 9000,
      tokens_used: 100,
      will_wake: false,
    });
    parent.files.set(`subagents/${child}/meta.json`, meta(L.parent, child, type, started, { ...extra }));
  }
  parent.say('Two advisories apply; details in the subagent reports.').endTurn('end_turn');
  put(parent);

  put(
    session({
      id: L.subFresh,
      minutes: 1,
      profile: 'read-only',
      prompt: 'List the dependencies.',
      summary: { session_kind: 'subagent', hidden: true },
    }),
  );
  put(
    session({
      id: L.subFork,
      minutes: 1,
      profile: 'read-only',
      prompt: 'Check advisory feeds.',
      summary: { session_kind: 'subagent_fork', parent_session_id: L.parent, hidden: true },
    }),
  );
  put(
    session({
      id: L.subResume,
      minutes: 1,
      profile: 'read-only',
      prompt: 'Continue the listing.',
      summary: { session_kind: 'subagent_resume', parent_session_id: L.subFresh, hidden: true },
    }),
  );

  put(fork(L.forkWidened, 20, 'workspace'));
  put(fork(L.forkDropped, 21, undefined));
  put(fork(L.forkAlias, 22, 'readonly'));
  put(fork(L.forkNarrow, 23, 'locked'));
  put(fork(L.forkUnknown, 24, 'team-profile'));
  put(
    session({
      id: L.worktree,
      cwd: '/home/dev/app-wt-fix',
      minutes: 30,
      profile: 'read-only',
      prompt: 'Fix it on a branch.',
      summary: {
        session_kind: 'worktree',
        parent_session_id: L.parent,
        source_workspace_dir: CWD,
        worktree_label: 'fix',
      },
    }),
    encodeCwd('/home/dev/app-wt-fix'),
  );

  // A fork whose parent was deleted by TTL cleanup; a session restored from a remote one.
  put(fork(L.orphan, 40, 'read-only', '019b0000-0000-7000-8000-0000000dead0'));
  put(
    session({
      id: '019b1000-0000-7000-8000-00000000c010',
      minutes: 41,
      profile: 'read-only',
      prompt: 'Continue the remote session.',
      summary: { parent_session_id: L.remoteParent },
    }),
  );

  // A parent cycle (edited summaries).
  put(fork(L.cycleA, 50, 'read-only', L.cycleB));
  put(fork(L.cycleB, 51, 'read-only', L.cycleA));

  // One id in two groups, no journal: a hand-made copy.
  const dup = session({ id: L.duplicate, minutes: 60, profile: 'read-only', prompt: 'Summarize the audit.' });
  put(dup);
  const dupElsewhere = session({
    id: L.duplicate,
    cwd: '/home/dev/app-copy',
    minutes: 60,
    profile: 'read-only',
    prompt: 'Summarize the audit.',
  });
  put(dupElsewhere, encodeCwd('/home/dev/app-copy'));

  // A relocated session: both copies, and the journal that makes the target authoritative.
  const target = '/home/dev/app2';
  put(session({ id: L.relocated, cwd: CWD, minutes: 70, profile: 'read-only', prompt: 'Move the project.' }));
  put(
    session({
      id: L.relocated,
      cwd: target,
      minutes: 70,
      profile: 'read-only',
      prompt: 'Move the project.',
      summary: { cwd_generation: 1, previous_cwd: CWD },
    }),
    encodeCwd(target),
  );
  files.set(
    `home/relocations/${L.relocated}.json`,
    JSON.stringify(
      {
        version: 1,
        session_id: L.relocated,
        nonce: 'n-7f3a',
        source_cwd: CWD,
        target_cwd: target,
        cwd_generation: 1,
        phase: 'committed',
      },
      null,
      2,
    ) + '\n',
  );

  files.set(
    'sandbox.toml',
    '# The user\'s ~/.grok/sandbox.toml when these sessions ran.\n[profiles.locked]\nextends = "read-only"\ndeny = ' +
      '["**/.env", "**/*.pem"]\n',
  );

  const at = (code: string, id: string, severity?: 'error' | 'warning' | 'note') => ({
    code,
    file: 'summary.json',
    session: id,
    ...(severity ? { severity } : {}),
  });
  return {
    name: 'lineage',
    description:
      'A grok home: a read-only parent with forks (to workspace: widened; without a profile: dropped; to ' +
      '"readonly": alias-equal; to a custom narrower profile; to an undefined custom profile), subagents (fresh, ' +
      'fork, resume), a worktree session, a fork whose parent is gone, a restored remote session, a parent ' +
      'cycle, a duplicate id, and a relocation with its journal. Audited with the sandbox.toml of the time.',
    args: ['--sandbox-config', 'sandbox.toml'],
    must: [
      'SANDBOX_WIDENED',
      'SANDBOX_DROPPED',
      'SANDBOX_CHANGED',
      'SANDBOX_PROFILE_UNKNOWN',
      'LINEAGE_DUPLICATE_ID',
      'LINEAGE_PARENT_MISSING',
      'LINEAGE_CYCLE',
    ],
    allow: ['SANDBOX_PROFILE_MISSING'],
    onlyAt: ['SANDBOX_WIDENED', 'SANDBOX_DROPPED', 'SANDBOX_CHANGED', 'LINEAGE_CYCLE', 'LINEAGE_PARENT_MISSING'],
    at: [
      at('SANDBOX_WIDENED', L.forkWidened),
      at('SANDBOX_DROPPED', L.forkDropped),
      at('SANDBOX_CHANGED', L.forkNarrow, 'warning'),
      at('SANDBOX_CHANGED', L.forkUnknown, 'warning'),
      at('SANDBOX_PROFILE_UNKNOWN', L.forkUnknown),
      at('LINEAGE_PARENT_MISSING', L.orphan, 'warning'),
      at('LINEAGE_PARENT_MISSING', '019b1000-0000-7000-8000-00000000c010', 'note'),
      at('LINEAGE_CYCLE', L.cycleA),
      { code: 'LINEAGE_DUPLICATE_ID', file: '', session: `${GROUP}/${L.duplicate}`, severity: 'error' },
      { code: 'LINEAGE_DUPLICATE_ID', file: '', session: `${GROUP}/${L.relocated}`, severity: 'note' },
    ],
    files,
  };
}
