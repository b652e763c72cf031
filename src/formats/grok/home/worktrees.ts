/**
 * GROK_WORKTREE_*: Grok's worktree pool judged against the home's sessions (home-artifacts.md §1.5, GWT-1). A row
 * with a `session_id` means that session had a worktree; a row whose session has no dir in the home shows a session
 * deleted while its worktree row was kept. Only the database is judged: whether a row's `path` still exists is a
 * question about the user's machine (GWT-2), never asked of the machine running the audit.
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import { relocationOf } from './search-files.js';
import { readWorktreesDb, type WorktreeRow, worktreeDbs } from './worktrees-db.js';

type Codes = 'GROK_WORKTREE_SESSION_GONE' | 'GROK_WORKTREE_DB_UNREADABLE';
type Ctx = HomeCheckContext<Codes>;

const TTL_MS = 30 * 86_400_000;
/** `created_at` in ms: the writer's unit is not pinned, so a value below 1e11 is read as seconds. */
const msOf = (v: number | undefined): number | undefined =>
  v === undefined || v <= 0 ? undefined : v < 1e11 ? v * 1000 : v;
const pointer = (id: string): string => `/worktrees/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`;
const short = (s: string): string => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

function gone(ctx: Ctx, rel: string, r: WorktreeRow, newest: number | undefined): void {
  const id = r.sessionId!;
  const created = msOf(r.createdAt);
  const moved = ctx.source.entry(relocationOf(id)) !== undefined;
  const old = created !== undefined && newest !== undefined && created + TTL_MS < newest;
  const alive = r.status === 'alive';
  const msg =
    `session ${id} has a worktree row in ${rel} (worktree ${short(r.id)} at ${short(r.path)}` +
    `${r.repoName !== undefined ? ` of repo ${short(r.repoName)}` : ''}, status ${JSON.stringify(short(r.status))}` +
    `${created !== undefined ? `, created ${new Date(created).toISOString()}` : ''}` +
    `${r.creatorPid !== undefined ? ` by pid ${r.creatorPid}` : ''}), but no session dir in the home: ` +
    (moved
      ? `a relocation journal ${relocationOf(id)} says it was moved to another cwd group.`
      : old
        ? 'it is older than the 30-day cleanup before the newest row of the pool, which deletes session dirs and ' +
          'keeps their worktree rows.'
        : 'it was deleted while its worktree was kept (/delete, by hand, the 30-day cleanup), relocated, or the copy ' +
          'of the home is partial.') +
    (alive
      ? ' The pool still lists the worktree as alive: a leftover worktree, by what the database says (whether its ' +
        'path still exists on the machine it was made on is not checked).'
      : '');
  ctx.emit('GROK_WORKTREE_SESSION_GONE', { file: rel, pointer: pointer(r.id) }, msg, {
    key: id,
    ...(moved || old ? { severity: 'note' as const } : {}),
  });
  ctx.gone({
    id,
    source: rel,
    prompts: 0,
    ...(created !== undefined ? { firstAt: new Date(created).toISOString() } : {}),
    excerpt: short(`worktree ${r.path}`),
  });
}

export const grokWorktrees = defineHomeCheck({
  id: 'grok-worktrees',
  codes: {
    GROK_WORKTREE_SESSION_GONE: {
      severity: 'warning',
      title: 'A worktree of the worktree pool belongs to a session whose dir is gone.',
      help:
        'worktrees.db (or a per-host worktrees.h-<host>.db) records the worktree each session was given, with its ' +
        'session_id. A row whose session has no dir in the home shows a session that existed and was deleted while ' +
        'its worktree row was kept: by the 30-day cleanup (a note, when the row is older than 30 days before the ' +
        'newest row of the pool), by /delete or by hand, or it was relocated to another cwd group (a relocation ' +
        'journal says so), or the copy of the home is partial. The `sessions` list shows it as gone. Whether the ' +
        "worktree's path still exists is not checked: it is a path of the user's machine.",
    },
    GROK_WORKTREE_DB_UNREADABLE: {
      severity: 'warning',
      title: 'The worktree pool cannot be read, or only in part.',
      help:
        'worktrees.db is read from a private copy, read-only. It is not a SQLite database, SQLite cannot open it, ' +
        'it has no worktrees table of the known shape (a newer or older Grok, or another program), its integrity ' +
        'check fails, a -wal or -journal beside it is not its own, or it is larger than the cap. The sessions it ' +
        'knows are then not (or not all) judged.',
    },
  },
  run(ctx) {
    const paths = ctx.source.inventory.filter((e) => e.type === 'file').map((e) => e.path);
    for (const rel of worktreeDbs(paths)) {
      const db = readWorktreesDb(ctx.source, rel, ctx.maxDbBytes);
      if (db.error !== undefined) {
        ctx.emit(
          'GROK_WORKTREE_DB_UNREADABLE',
          { file: rel },
          `${rel}: ${db.error}; the sessions it knows are not judged.`,
          {
            key: 'file',
          },
        );
        continue;
      }
      for (const why of db.partial)
        ctx.emit('GROK_WORKTREE_DB_UNREADABLE', { file: rel }, `${rel}: ${why}; what it could read is judged.`, {
          key: why.slice(0, 20),
        });
      let newest: number | undefined;
      for (const r of db.rows) {
        const t = msOf(r.createdAt);
        if (t !== undefined && t <= ctx.now && (newest === undefined || t > newest)) newest = t;
      }
      const seen = new Set<string>();
      for (const r of db.rows) {
        const id = r.sessionId;
        if (id === undefined || seen.has(id) || ctx.sessions.has(id)) continue;
        seen.add(id);
        gone(ctx, rel, r, newest);
      }
    }
  },
});
