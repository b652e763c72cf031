/** LINEAGE_*: the tree of sessions — parents that are not there, cycles, one id in two places. */
import { findCycles } from '../lineage/graph.js';
import { defineRootCheck } from './define-root.js';

export const lineage = defineRootCheck({
  id: 'lineage',
  codes: {
    LINEAGE_PARENT_MISSING: {
      severity: 'warning',
      title: "A session's parent is not in the audited tree",
      help:
        'A fork, sub-agent or restored session names a parent (in its own records, or through the parent that ' +
        'should list it) that is not under the audited root. The parent may be a remote session (a restored child ' +
        "points at its remote id: a note), may have been deleted by the agent's cleanup, or may live under another " +
        'root: audit the whole sessions root to see it. Sandbox inheritance along that edge cannot be checked.',
    },
    LINEAGE_CYCLE: {
      severity: 'error',
      title: 'Parent links form a cycle',
      help:
        'Following parent links comes back to where it started. Agents create children after their parents, so a ' +
        'cycle means edited records.',
    },
    LINEAGE_DUPLICATE_ID: {
      severity: 'error',
      title: 'One session id in two places',
      help:
        'The same session id exists in two places under the root. Unless a record of the agent says which copy is ' +
        'authoritative (then the other is a leftover: a note), it is a copy made by hand, or one left by an ' +
        'interrupted move; the message says what the agent does with it.',
    },
  },
  run(ctx) {
    const { graph } = ctx;
    for (const e of graph.edges) {
      if (e.parent) continue;
      if (e.parentId === '') {
        const why = `a subagent session, but ${ctx.agentOf(e.child).lineage.unclaimedSubagent}`;
        ctx.emit(e.child, 'LINEAGE_PARENT_MISSING', e.child.kindAt ?? { file: '' }, why, { key: 'unclaimed' });
        continue;
      }
      const restored = e.kind === 'restored';
      ctx.emit(
        e.child,
        'LINEAGE_PARENT_MISSING',
        e.child.linkAt ?? { file: '' },
        restored
          ? `restored from session ${e.parentId}, which is not under the audited root: a remote session, or deleted`
          : `${e.kind} of ${e.parentId}, which is not under the audited root: a remote session, one deleted by TTL ` +
              'cleanup, or one under another root',
        { key: e.parentId, ...(restored ? { severity: 'note' as const } : {}) },
      );
    }
    for (const cycle of findCycles(graph)) {
      const first = graph.byId.get(cycle[0]!)?.[0];
      if (!first) continue;
      const at = first.linkAt ?? first.kindAt ?? { file: '' };
      ctx.emit(first, 'LINEAGE_CYCLE', at, `parent links form a cycle: ${[...cycle, cycle[0]].join(' → ')}`, {
        key: cycle.join(','),
      });
    }
    for (const [id, copies] of graph.byId) {
      if (copies.length < 2) continue;
      const journal = graph.relocations.get(id);
      const where = copies.map((c) => c.path).join(' and ');
      if (journal) {
        const authoritative =
          journal.phase === 'ready' || journal.phase === 'committed' ? journal.targetCwd : journal.sourceCwd;
        for (const c of copies) {
          if (c.cwd === authoritative) continue;
          const why =
            `a copy of session ${id} left by a relocation; the journal ${journal.file} (phase ${journal.phase}) ` +
            `makes ` +
            `the copy for ${JSON.stringify(authoritative)} authoritative`;
          ctx.emit(c, 'LINEAGE_DUPLICATE_ID', { file: '' }, why, { key: id, severity: 'note' });
        }
        continue;
      }
      for (const c of copies) {
        const why =
          `session id ${id} exists in ${copies.length} places (${where}) and ` +
          `${ctx.agentOf(c).lineage.duplicateId}`;
        const severity = ctx.agentOf(c).lineage.duplicateIdSeverity;
        ctx.emit(c, 'LINEAGE_DUPLICATE_ID', { file: '' }, why, { key: id, ...(severity ? { severity } : {}) });
      }
    }
  },
});
