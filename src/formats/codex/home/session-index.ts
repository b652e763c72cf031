/**
 * CODEX_SESSION_INDEX_*: `session_index.jsonl` (home-artifacts.md §2.4), the append-only index of thread names
 * (`{id, thread_name, updated_at}`, the newest entry of an id wins). An id whose rollout is not in the home is a
 * named session that is gone; its name survives here.
 */
import { defineHomeCheck } from '../../../checks/define-home.js';
import { excerpt, placesOf } from './rollouts.js';

export const SESSION_INDEX = 'session_index.jsonl';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Entry {
  line: number;
  byteOffset: number;
  name?: string;
  firstAt?: string;
  lastAt?: string;
  entries: number;
}

const iso = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
};

export const codexSessionIndex = defineHomeCheck({
  id: 'codex-session-index',
  codes: {
    CODEX_SESSION_INDEX_WITHOUT_ROLLOUT: {
      severity: 'note',
      title: 'A thread named in session_index.jsonl has no rollout in the home',
      help:
        'Codex appends a line to session_index.jsonl each time a thread is named or renamed, and never removes ' +
        'one. An id whose rollout is neither in sessions/ nor in archived_sessions/ is a named session whose ' +
        'rollout is gone: deleted (by hand or by a cleanup), or the home was copied without it. Its last name is ' +
        'given, and the `sessions` list shows it as gone.',
    },
  },
  run(ctx) {
    if (ctx.source.entry(SESSION_INDEX)?.type !== 'file') return;
    const byId = new Map<string, Entry>();
    ctx.source.streamJsonl(
      SESSION_INDEX,
      {},
      (r) => {
        const v = r.value;
        if (!isObj(v) || typeof v.id !== 'string' || v.id === '') return;
        const e = byId.get(v.id) ?? { line: r.line, byteOffset: r.byteOffset, entries: 0 };
        e.entries++;
        if (typeof v.thread_name === 'string') e.name = v.thread_name;
        const at = iso(v.updated_at);
        if (at) {
          if (!e.firstAt || at < e.firstAt) e.firstAt = at;
          if (!e.lastAt || at > e.lastAt) e.lastAt = at;
        }
        byId.set(v.id, e);
      },
      () => {},
    );
    for (const [id, e] of byId) {
      if (placesOf(ctx, id).size) continue;
      ctx.emit(
        'CODEX_SESSION_INDEX_WITHOUT_ROLLOUT',
        { file: SESSION_INDEX, line: e.line, byteOffset: e.byteOffset },
        `thread ${id}${e.name !== undefined ? ` ("${excerpt(e.name)}")` : ''} is in ${SESSION_INDEX} ` +
          `(${e.entries} line(s)${e.lastAt ? `, last ${e.lastAt}` : ''}) but has no rollout in sessions/ or ` +
          'archived_sessions/',
        { key: id },
      );
      ctx.gone({
        id,
        source: SESSION_INDEX,
        prompts: 0,
        ...(e.firstAt ? { firstAt: e.firstAt } : {}),
        ...(e.lastAt ? { lastAt: e.lastAt } : {}),
        ...(e.name ? { excerpt: excerpt(e.name) } : {}),
      });
    }
  },
});
