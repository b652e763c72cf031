/**
 * Copilot CLI's `session-store.db` as a file of the home (formats/copilot-cli.md §1.7): what it still knows of the
 * sessions whose files are gone from session-state/ (the `sessions` list shows each as "gone", with the store as
 * its source), and what it holds of every session it names (`recall`: each turn's user_message as a prompt and its
 * assistant_response as the agent's reply, in turn order, and the session's summary as a note), so `timeline` and
 * `transcript --id` of a gone session show its turns, `search` finds them and SECRET_IN_HOME scans them.
 *
 * Nothing is reported twice: the store stays a session of this audit (checks/store.ts), which judges it wherever it
 * is found (in a home, or a reviewer's copy of the files in a plain folder, where no home check runs): a row whose
 * session has no files is COPILOT_STORE_SESSION_GONE there, and a store that cannot be read, fails its integrity
 * check or has a foreign -wal is COPILOT_STORE_UNREADABLE, _INTEGRITY or _WAL_FOREIGN. This check declares no code
 * of its own: its job is `gone` and `recall`, by the same rule as the store's session (compareLogs: a session with a
 * UUID id and neither a directory session-state/<id>/ nor a flat session-state/<id>.jsonl), so the gone list and the
 * note name the same sessions. An unreadable store gives no gone session and nothing recalled. The store is copied
 * and read once per audit for this check's judgement and recall together (ctx.memo); the store's session reads its
 * own copy.
 */
import { join } from 'node:path';
import { defineHomeCheck, type HomeCheckContext, type RecalledEntry } from '../../../checks/define-home.js';
import { excerpt } from '../../../checks/excerpt.js';
import { STORE, UUID_RE } from '../artifacts.js';
import { readStoreRows, type StoreRows, type StoreSessionRow, storeTimeMs } from './store-rows.js';

const STATE_DIR = 'session-state';

/** Whether the home holds files of the session under session-state/: its directory, or its flat log. */
function hasFiles(ctx: HomeCheckContext, id: string): boolean {
  const dir = join(ctx.home.abs, STATE_DIR);
  return (ctx.sessions.get(id) ?? []).some(
    (s) => s.abs === join(dir, id) || (s.abs === dir && (s.members ?? []).includes(`${id}.jsonl`)),
  );
}

const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

function gone(ctx: HomeCheckContext, rows: StoreRows, s: StoreSessionRow): void {
  const turns = rows.turns.get(s.id) ?? [];
  const times = [s.createdAt, s.updatedAt, ...turns.map((t) => t.timestamp)]
    .map(storeTimeMs)
    .filter((ms): ms is number => ms !== undefined);
  const firstAt = iso(times.length ? Math.min(...times) : undefined);
  const lastAt = iso(times.length ? Math.max(...times) : undefined);
  const shown = s.summary ?? turns.find((t) => t.user !== undefined)?.user;
  ctx.gone({
    id: s.id,
    source: STORE,
    prompts: turns.length,
    ...(firstAt ? { firstAt } : {}),
    ...(lastAt ? { lastAt } : {}),
    ...(s.cwd ? { cwd: s.cwd } : {}),
    ...(shown ? { excerpt: excerpt(shown) } : {}),
  });
}

const same = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/** What the store holds of one session, in turn order: its summary (a note), then each turn's prompt and reply. */
function recallSession(rows: StoreRows, s: StoreSessionRow, onEntry: (e: RecalledEntry) => void): void {
  const turns = rows.turns.get(s.id) ?? [];
  const at = (v: string | undefined, row = `sessions row ${s.id}`) => {
    const ms = storeTimeMs(v);
    return { session: s.id, file: STORE, row, ...(ms !== undefined ? { timeMs: ms } : {}) };
  };
  // The CLI often makes the summary of the first prompt: the same text is not given twice.
  if (s.summary !== undefined && !same(s.summary, turns[0]?.user))
    onEntry({ ...at(s.createdAt), kind: 'note', text: s.summary });
  else if (s.summary === undefined && turns.length === 0)
    onEntry({
      ...at(s.createdAt),
      kind: 'note',
      text:
        `${STORE} has a row for this session and no turn` +
        `${s.cwd ? ` (cwd ${s.cwd})` : ''}${s.updatedAt ? `, last updated ${s.updatedAt}` : ''}`,
    });
  for (const t of turns) {
    const row = `turns row ${s.id}${t.index !== undefined ? ` turn ${t.index}` : ''}`;
    if (t.user !== undefined) onEntry({ ...at(t.timestamp, row), kind: 'user_prompt', text: t.user });
    if (t.assistant !== undefined) onEntry({ ...at(t.timestamp, row), kind: 'reply', text: t.assistant });
  }
}

/** The store as this audit read it: one private copy, shared by the judgement and the recall. */
const storeOf = (ctx: HomeCheckContext): StoreRows | undefined =>
  ctx.memo(`copilot-store-home:${STORE}`, () => readStoreRows(ctx.source, ctx.maxDbBytes));

export const copilotStoreHome = defineHomeCheck({
  id: 'copilot-store-home',
  codes: {},
  run(ctx) {
    const rows = storeOf(ctx);
    if (!rows) return;
    for (const s of rows.sessions) if (UUID_RE.test(s.id) && !hasFiles(ctx, s.id)) gone(ctx, rows, s);
  },
  recall(ctx, wanted, onEntry) {
    const rows = storeOf(ctx);
    if (!rows) return;
    for (const s of rows.sessions) if (wanted(s.id)) recallSession(rows, s, onEntry);
  },
});
