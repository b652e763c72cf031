/** LINEAGE_*: the tree of sessions — parents that are not there, cycles, one id in two places. */
import { findCycles } from '../lineage/graph.js';
import { defineRootCheck } from './define-root.js';

export const lineage = defineRootCheck({
  id: 'lineage',
  codes: {
    LINEAGE_PARENT_MISSING: {
      severity: 'warning',
      title: 'A session\'s parent is not in the audited tree',
      help: 'A fork, subagent or restored session names a parent (parent_session_id, or the subagents/ entry that should list it) that is not under the audited root. The parent may be a remote session (a restored child points at its remote id: a note), may have been deleted by TTL cleanup, or may live under another root: audit the whole ~/.grok/sessions to see it. Sandbox inheritance along that edge cannot be checked.',
    },
    LINEAGE_CYCLE: {
      severity: 'error',
      title: 'Parent links form a cycle',
      help: 'Following parent links (parent_session_id, subagent links) comes back to where it started. Grok creates children after their parents, so a cycle means edited summaries.',
    },
    LINEAGE_DUPLICATE_ID: {
      severity: 'error',
      title: 'One session id in two places',
      help: 'The same session id exists under two cwd groups (or twice). Grok refuses to pick one unless a relocation journal (~/.grok/relocations/<id>.json) says which copy is authoritative: then the other is a relocation leftover (a note). Without a journal it is a copy made by hand, or a session relocated by a crashed process whose journal is gone.',
    },
  },
  run(ctx) {
    const { graph } = ctx;
    for (const e of graph.edges) {
      if (e.parent || e.parentId === '') {
        if (e.parentId === '') ctx.emit(e.child, 'LINEAGE_PARENT_MISSING', { file: 'summary.json', pointer: '/session_kind' }, `a subagent session, but no session under the audited root lists it in subagents/ (${e.evidence})`, { key: 'unclaimed' });
        continue;
      }
      const restored = e.kind === 'restored';
      ctx.emit(
        e.child,
        'LINEAGE_PARENT_MISSING',
        e.child.linkAt ?? { file: 'summary.json', pointer: '/parent_session_id' },
        restored
          ? `restored from session ${e.parentId}, which is not under the audited root: a remote session, or deleted`
          : `${e.kind} of ${e.parentId}, which is not under the audited root: a remote session, one deleted by TTL cleanup, or one under another root`,
        { key: e.parentId, ...(restored ? { severity: 'note' as const } : {}) },
      );
    }
    for (const cycle of findCycles(graph)) {
      const first = graph.byId.get(cycle[0]!)?.[0];
      if (first) ctx.emit(first, 'LINEAGE_CYCLE', first.linkAt ?? { file: 'summary.json', pointer: '/parent_session_id' }, `parent links form a cycle: ${[...cycle, cycle[0]].join(' → ')}`, { key: cycle.join(',') });
    }
    for (const [id, copies] of graph.byId) {
      if (copies.length < 2) continue;
      const journal = graph.relocations.get(id);
      const where = copies.map((c) => c.path).join(' and ');
      if (journal) {
        const authoritative = journal.phase === 'ready' || journal.phase === 'committed' ? journal.targetCwd : journal.sourceCwd;
        for (const c of copies) {
          if (c.cwd === authoritative) continue;
          ctx.emit(c, 'LINEAGE_DUPLICATE_ID', { file: '' }, `a copy of session ${id} left by a relocation; the journal ${journal.file} (phase ${journal.phase}) makes the copy for ${JSON.stringify(authoritative)} authoritative`, { key: id, severity: 'note' });
        }
        continue;
      }
      for (const c of copies) ctx.emit(c, 'LINEAGE_DUPLICATE_ID', { file: '' }, `session id ${id} exists in ${copies.length} places (${where}) and no relocation journal says which is authoritative: Grok refuses to pick`, { key: id });
    }
  },
});
