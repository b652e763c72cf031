/**
 * HERMES_LINEAGE_*: the parent → child links of state.db (formats/pi-hermes.md §2.5): `parent_session_id` with the
 * parent's `end_reason` and the child's `model_config` markers. A compression child or a /branch starts when its
 * parent ends (`compression`, `branched`); a /branch records `_branched_from`, a delegate sub-agent
 * `_delegate_from`, each naming the parent.
 */
import { defineCheck } from '../../../checks/define.js';
import { DB_KIND, type DbSessionRow } from '../db/facts.js';
import { isDbFacts } from './db.js';

/** Seconds a child may start before its parent's recorded end (the end is written right after the child). */
const SLACK_S = 5;

export const hermesLineage = defineCheck({
  id: 'hermes-lineage',
  validate: false,
  codes: {
    HERMES_LINEAGE_PARENT_MISSING: {
      severity: 'warning',
      title: 'A Hermes session names a parent that state.db does not hold',
      help:
        '`parent_session_id` names a session with no row: the parent was deleted (`hermes sessions delete`, the ' +
        'optional auto-prune of old ended sessions) or the rows were edited. The lineage above the child, and ' +
        'what a compression child summarised, cannot be checked.',
    },
    HERMES_LINEAGE_CYCLE: {
      severity: 'error',
      title: 'Hermes sessions name each other as parents in a cycle',
      help:
        'Following `parent_session_id` comes back to where it started. Hermes only ever links a new session to ' +
        'an existing one, so a cycle was written by hand or by another tool; Hermes walks lineage root → tip ' +
        '(get_messages_as_conversation with ancestors), which a cycle breaks.',
    },
    HERMES_LINEAGE_INCONSISTENT: {
      severity: 'warning',
      title: "A Hermes session's lineage disagrees with itself",
      help:
        'A child that starts before its parent, a compression or /branch child that starts before its parent ' +
        'ended, or a `_branched_from` / `_delegate_from` marker that names another session than ' +
        '`parent_session_id`. The message says which. Causes: a clock that went back (Hermes stamps with the ' +
        "host's clock), rows edited or merged from another home.",
    },
  },
  create(ctx) {
    return {
      doc({ kind, value }) {
        if (kind !== DB_KIND || !isDbFacts(value) || value.error !== undefined) return;
        const file = value.file;
        const byId = new Map<string, DbSessionRow>(value.sessions.map((s) => [s.id, s]));
        const at = (s: DbSessionRow) => ({ file, pointer: `/sessions/${s.id}` });
        const inCycle = new Set<string>();
        for (const s of value.sessions) {
          if (s.parentId === undefined) continue;
          const p = byId.get(s.parentId);
          if (!p) {
            ctx.emit('HERMES_LINEAGE_PARENT_MISSING', at(s), `session ${s.id}: parent ${s.parentId} has no row`, {
              key: s.id,
            });
            continue;
          }
          const seen = new Set([s.id]);
          for (
            let q: DbSessionRow | undefined = p;
            q;
            q = q.parentId !== undefined ? byId.get(q.parentId) : undefined
          ) {
            if (seen.has(q.id)) {
              if (q.id === s.id && !inCycle.has(s.id)) {
                for (const x of seen) inCycle.add(x);
                ctx.emit('HERMES_LINEAGE_CYCLE', at(s), `sessions ${[...seen].join(' → ')} → ${s.id} form a cycle`, {
                  key: s.id,
                });
              }
              break;
            }
            seen.add(q.id);
          }
          const problems: string[] = [];
          if (s.startedAt !== undefined && p.startedAt !== undefined && s.startedAt < p.startedAt)
            problems.push(`it started ${fmt(p.startedAt - s.startedAt)} before its parent ${p.id}`);
          else if (
            (p.endReason === 'compression' || p.endReason === 'branched') &&
            s.startedAt !== undefined &&
            p.endedAt !== undefined &&
            s.startedAt + SLACK_S < p.endedAt
          )
            problems.push(
              `it started ${fmt(p.endedAt - s.startedAt)} before its parent ${p.id} ended (${p.endReason})`,
            );
          if (s.branchedFrom !== undefined && s.branchedFrom !== s.parentId)
            problems.push(`model_config._branched_from names ${s.branchedFrom}, parent_session_id ${s.parentId}`);
          if (s.delegateFrom !== undefined && s.delegateFrom !== '__orphaned__' && s.delegateFrom !== s.parentId)
            problems.push(`model_config._delegate_from names ${s.delegateFrom}, parent_session_id ${s.parentId}`);
          if (problems.length)
            ctx.emit('HERMES_LINEAGE_INCONSISTENT', at(s), `session ${s.id}: ${problems.join('; ')}`, { key: s.id });
        }
      },
    };
  },
});

const fmt = (s: number): string => (s >= 120 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`);
