/** XREF_SUBAGENT: subagent metas, spawn/finish events and the children's own sessions, against each other. */
import { isFork, summaryView, type SummaryView } from '../summary-view.js';
import type { SessionEvent } from '../../../model/events.js';
import { defineCheck } from '../../../checks/define.js';
import { encodeCwdDirname } from '../paths.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const CHILD_KINDS = new Set(['subagent', 'subagent_fork', 'subagent_resume']);

export const xrefSubagent = defineCheck({
  id: 'xref-subagent',
  validate: false,
  codes: {
    XREF_SUBAGENT: {
      severity: 'warning',
      title: 'Subagent records disagree',
      help:
        'A subagent leaves subagents/<id>/meta.json in its parent (subagent_id == directory == ' +
        'child_session_id, parent_session_id == the parent: an error otherwise), subagent_spawned and ' +
        "subagent_finished lines in the parent's updates.jsonl, and its own top-level session directory with " +
        'session_kind subagent / subagent_fork / subagent_resume. A spawn without a finish, or a meta still ' +
        '"running", is what a crash leaves (Grok reconciles both to cancelled on the next load); a missing child ' +
        'session was never created or was deleted.',
    },
  },
  create(ctx) {
    const { session } = ctx;
    const metas = new Map<string, { file: string; v: Record<string, unknown> }>();
    const spawned = new Map<string, SessionEvent>();
    const finished = new Map<string, SessionEvent>();
    let summary: SummaryView | undefined;
    const children = new Map<
      string,
      { exists: boolean; kind?: string; parent?: string; detail?: string; file: string }
    >();
    return {
      doc({ file, kind, value, problem }) {
        if (kind === 'summary') summary = summaryView(value);
        if (kind === 'subagent-meta' && typeof value === 'object' && value !== null) {
          const dir = file.split('/')[1]!;
          metas.set(dir, { file, v: value as Record<string, unknown> });
        }
        if (kind === 'subagent-child') {
          const id = file.split('/')[3]!;
          if (problem)
            children.set(id, {
              exists:
                problem.detail !== 'does not exist' && !problem.detail.startsWith('the session directory exists but'),
              detail: problem.detail,
              file,
            });
          else {
            const s = summaryView(value);
            children.set(id, { exists: true, kind: s?.sessionKind, parent: s?.parentSessionId, file });
          }
        }
      },
      event(e) {
        if (e.file !== 'updates.jsonl' || e.subagentId === undefined) return;
        if (e.kind === 'subagent_spawned' && !spawned.has(e.subagentId)) spawned.set(e.subagentId, e);
        if (e.kind === 'subagent_finished') finished.set(e.subagentId, e);
      },
      end() {
        const at = (e: SessionEvent) => ({ file: e.file, line: e.line, byteOffset: e.byteOffset });
        const log = session.inventory.find((x) => x.path === 'updates.jsonl');
        const logReadable = log !== undefined && log.type === 'file' && log.readError === undefined;
        for (const [dir, { file, v }] of [...metas].sort()) {
          const sid = v.subagent_id;
          const cid = v.child_session_id;
          if (sid !== dir || cid !== dir) {
            const there = children.get(dir)?.exists ? `; the subagent's own session is there under ${dir}` : '';
            ctx.emit(
              'XREF_SUBAGENT',
              { file, pointer: sid !== dir ? '/subagent_id' : '/child_session_id' },
              `meta.json in subagents/${dir}/ says subagent_id ${JSON.stringify(sid)} and child_session_id ` +
                `${JSON.stringify(cid)}: all three must be the same id${there}`,
              { key: `${dir}/ids`, severity: 'error' },
            );
          }
          if (v.parent_session_id !== session.id) {
            ctx.emit(
              'XREF_SUBAGENT',
              { file, pointer: '/parent_session_id' },
              `parent_session_id is ${JSON.stringify(v.parent_session_id)}, not this session ` +
                `${JSON.stringify(session.id)}`,
              { key: `${dir}/parent`, severity: 'error' },
            );
          }
          const status = typeof v.status === 'string' ? v.status : undefined;
          if (status === 'running') {
            ctx.emit(
              'XREF_SUBAGENT',
              { file, pointer: '/status' },
              `status is still "running": unless the subagent is running right now, this is an orphan left by a ` +
                `crash (Grok marks it cancelled on the next load)`,
              { key: `${dir}/running` },
            );
          } else if (
            status !== undefined &&
            TERMINAL.has(status) &&
            (v.completed_at === undefined || v.duration_ms === undefined)
          ) {
            ctx.emit(
              'XREF_SUBAGENT',
              { file, pointer: '/completed_at' },
              `status is "${status}" but ${v.completed_at === undefined ? 'completed_at' : 'duration_ms'} is ` +
                `missing: a terminal meta always records when it ended`,
              { key: `${dir}/terminal` },
            );
          } else if (status !== undefined && !TERMINAL.has(status)) {
            ctx.emit(
              'XREF_SUBAGENT',
              { file, pointer: '/status' },
              `unknown status ${JSON.stringify(status)} (Grok writes running, completed, failed, cancelled)`,
              { key: `${dir}/status` },
            );
          }
          if (!spawned.has(dir) && logReadable) {
            ctx.emit('XREF_SUBAGENT', { file }, `no subagent_spawned line in updates.jsonl for subagent ${dir}`, {
              key: `${dir}/nospawn`,
              severity: 'note',
            });
          }
        }
        for (const [id, e] of [...spawned].sort()) {
          if (!finished.has(id)) {
            ctx.emit(
              'XREF_SUBAGENT',
              at(e),
              `subagent ${id} was spawned but no subagent_finished follows: the parent stopped (crash, kill) while ` +
                `it ran; Grok appends a cancelled finish ("interrupted by process restart") on the next load`,
              { key: `${id}/unfinished` },
            );
          }
          // Forks copy updates.jsonl but never subagents/ (jsonl/copy.rs), so their spawn lines have no metas.
          if (!isFork(summary) && !session.inventory.some((x) => x.path === `subagents/${id}/meta.json`)) {
            ctx.emit(
              'XREF_SUBAGENT',
              at(e),
              `subagent ${id} was spawned but subagents/${id}/meta.json does not exist`,
              { key: `${id}/nometa` },
            );
          }
        }
        for (const [id, e] of [...finished].sort()) {
          if (!spawned.has(id))
            ctx.emit('XREF_SUBAGENT', at(e), `subagent_finished for ${id} without a subagent_spawned line before it`, {
              key: `${id}/nospawned`,
            });
        }
        /** Where a subagent is recorded: its meta.json, else the line that spawned it. */
        const recorded = (id: string) => {
          const m = metas.get(id)?.file;
          const e = spawned.get(id);
          return m !== undefined ? { file: m } : e !== undefined ? at(e) : { file: 'updates.jsonl' };
        };
        /** Metas whose folder names another id than child_session_id, by that id: their folder's id. */
        const misnamed = new Map<string, string>();
        for (const [dir, { v }] of metas)
          if (typeof v.child_session_id === 'string' && v.child_session_id !== dir)
            misnamed.set(v.child_session_id, dir);
        for (const [id, c] of [...children].sort()) {
          const meta = metas.get(id)?.v;
          // A child_session_id that disagrees with its folder: the ids finding above says so; the folder's id is the
          // one to look for.
          const folder = misnamed.get(id);
          if (!c.exists && folder !== undefined && children.get(folder)?.exists) continue;
          if (c.exists && meta && typeof meta.child_cwd === 'string') {
            const group = c.file.split('/')[2];
            const want = encodeCwdDirname(meta.child_cwd);
            if (group !== want)
              ctx.emit(
                'XREF_SUBAGENT',
                { file: metas.get(id)!.file, pointer: '/child_cwd' },
                `child_cwd is ${JSON.stringify(meta.child_cwd)}, but the subagent's own session is not under ` +
                  `${want}/: it is at ${c.file.replace(/\/summary\.json$/, '/')} (the parent's cwd)`,
                { key: `${id}/cwd` },
              );
          }
          if (!c.exists) {
            ctx.emit(
              'XREF_SUBAGENT',
              recorded(id),
              `the subagent's own session ${c.file.replace(/\/summary\.json$/, '/')} ` +
                `${c.detail === 'does not exist' ? 'does not exist' : `is unusable: ${c.detail}`} (never created ` +
                `because the spawn failed, or deleted by TTL cleanup)`,
              { key: `${id}/child` },
            );
            continue;
          }
          if (c.detail) {
            ctx.emit(
              'XREF_SUBAGENT',
              recorded(id),
              `the subagent's own session ${c.file.replace(/\/summary\.json$/, '/')} is there but ${c.detail}`,
              { key: `${id}/child` },
            );
            continue;
          }
          if (c.kind === undefined || !CHILD_KINDS.has(c.kind)) {
            ctx.emit(
              'XREF_SUBAGENT',
              { file: c.file, pointer: '/session_kind' },
              `the subagent's session has session_kind ${JSON.stringify(c.kind ?? null)}; a subagent child is ` +
                `subagent, subagent_fork or subagent_resume`,
              { key: `${id}/kind` },
            );
          } else if (c.kind === 'subagent_fork' && c.parent !== session.id) {
            ctx.emit(
              'XREF_SUBAGENT',
              { file: c.file, pointer: '/parent_session_id' },
              `a subagent_fork child names parent ${JSON.stringify(c.parent ?? null)}, not this session`,
              { key: `${id}/parent` },
            );
          } else if (
            c.kind === 'subagent_resume' &&
            meta &&
            typeof meta.resumed_from === 'string' &&
            c.parent !== meta.resumed_from
          ) {
            ctx.emit(
              'XREF_SUBAGENT',
              { file: c.file, pointer: '/parent_session_id' },
              `a subagent_resume child names parent ${JSON.stringify(c.parent ?? null)}; its parent is the source ` +
                `child it resumed (${meta.resumed_from})`,
              { key: `${id}/parent` },
            );
          }
        }
      },
    };
  },
});
