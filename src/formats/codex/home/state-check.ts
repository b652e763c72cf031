/**
 * CODEX_STATE_* and CODEX_SECURITY_*: the state DB's threads judged against the home's rollouts
 * (home-artifacts.md §2.1, §2.2: CSE-1 and CSE-3; CSE-2, a decision the rollout's approval events contradict, is not
 * judged, because the spec could not verify the values of `kind` and `decision`). Codex deletes a row whose
 * rollout is missing at the next thread listing (`list_threads_db`), so a row without its rollout is fresh evidence
 * of a deletion; what the row still holds (title, first prompt, times, cwd) is reported with it.
 */
import { defineHomeCheck, type HomeCheckContext } from '../../../checks/define-home.js';
import { readStateDb, type SecurityThread, STATE_DB, type StateFacts, type ThreadRow } from './state-db.js';
import { excerpt, isoOf, normalized, placesOf, promptsOf } from './rollouts.js';

const pointer = (table: string, id: string): string => `/${table}/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The home a rollout path was recorded under (its part before `/sessions/` or `/archived_sessions/`). */
function recordedHome(path: string): string | undefined {
  const m = /^(.*)\/(?:sessions|archived_sessions)\//.exec(path);
  return m?.[1];
}

const MOVED =
  'its rollout_path is under another home than this one: the home was moved or copied (the absolute paths ' +
  'Codex records still name the old place)';

function orphan(ctx: HomeCheckContext<Codes>, t: ThreadRow): void {
  const recorded = t.rolloutPath !== undefined ? recordedHome(t.rolloutPath) : undefined;
  const moved = recorded !== undefined && recorded !== ctx.home.abs;
  const first = t.firstUserMessage ?? '';
  const what = [
    t.title ? `title "${excerpt(t.title)}"` : '',
    first && first !== t.title ? `first prompt "${excerpt(first)}"` : '',
    isoOf(t.createdAt) ? `created ${isoOf(t.createdAt)}` : '',
    isoOf(t.updatedAt) ? `updated ${isoOf(t.updatedAt)}` : '',
    t.cwd ? `cwd ${t.cwd}` : '',
  ].filter(Boolean);
  ctx.emit(
    'CODEX_STATE_THREAD_WITHOUT_ROLLOUT',
    { file: STATE_DB, pointer: pointer('threads', t.id) },
    `thread ${t.id} has a row in ${STATE_DB} but no rollout in sessions/ or archived_sessions/` +
      `${t.rolloutPath ? ` (rollout_path ${t.rolloutPath})` : ''}` +
      `${what.length ? `; the row holds ${what.join(', ')}` : ''}` +
      `${moved ? `; ${MOVED}` : ''}`,
    { key: t.id, ...(moved ? { severity: 'note' as const } : {}) },
  );
  const firstAt = isoOf(t.createdAt);
  const lastAt = isoOf(t.updatedAt);
  const shown = t.title || first;
  ctx.gone({
    id: t.id,
    source: STATE_DB,
    prompts: first ? 1 : 0,
    ...(firstAt ? { firstAt } : {}),
    ...(lastAt ? { lastAt } : {}),
    ...(t.cwd ? { cwd: t.cwd } : {}),
    ...(shown ? { excerpt: excerpt(shown) } : {}),
  });
}

function firstMessage(ctx: HomeCheckContext<Codes>, t: ThreadRow): void {
  const row = normalized(t.firstUserMessage ?? '');
  if (row === '') return;
  const prompts = promptsOf(ctx, t.id);
  if (prompts === undefined) return;
  const log = prompts[0] ? normalized(prompts[0].text) : undefined;
  if (log !== undefined && (log === row || log.startsWith(row))) return;
  ctx.emit(
    'CODEX_STATE_FIRST_MESSAGE_DIFFERS',
    { file: STATE_DB, pointer: `${pointer('threads', t.id)}/first_user_message` },
    `thread ${t.id}: ${STATE_DB} records the first prompt "${excerpt(row)}", ` +
      (log === undefined ? 'its rollout holds no user message' : `its rollout's first is "${excerpt(log)}"`),
    { key: t.id },
  );
}

function archive(ctx: HomeCheckContext<Codes>, t: ThreadRow, places: Set<string>): void {
  if (t.archived === undefined) return;
  const want = t.archived !== 0 ? 'archived_sessions' : 'sessions';
  if (places.has(want)) return;
  const is = places.has('archived_sessions') ? 'archived_sessions/' : places.has('sessions') ? 'sessions/' : '';
  if (is === '') return;
  ctx.emit(
    'CODEX_STATE_ARCHIVE_MISMATCH',
    { file: STATE_DB, pointer: `${pointer('threads', t.id)}/archived` },
    `thread ${t.id} is ${t.archived !== 0 ? 'archived' : 'not archived'} in ${STATE_DB}, but its rollout is in ${is}`,
    { key: t.id },
  );
}

/** How far a decision may lie outside its thread's times before it is said: the columns are whole seconds. */
const OUTSIDE_SLACK_MS = 60_000;

/** CSE-3: a thread's security events recorded before its row was created or after the row was last updated. */
function outsideThread(ctx: HomeCheckContext<Codes>, s: SecurityThread, t: ThreadRow): void {
  const ms = (v: unknown): number | undefined => {
    const at = isoOf(v);
    return at === undefined ? undefined : Date.parse(at);
  };
  const [first, last, created, updated] = [ms(s.firstAt), ms(s.lastAt), ms(t.createdAt), ms(t.updatedAt)];
  const before = first !== undefined && created !== undefined && first < created - OUTSIDE_SLACK_MS;
  const after = last !== undefined && updated !== undefined && last > updated + OUTSIDE_SLACK_MS;
  if (!before && !after) return;
  const iso = (n: number): string => new Date(n).toISOString();
  const what = [
    before ? `the first at ${iso(first!)}, before the thread's row was created (${iso(created!)})` : '',
    after ? `the last at ${iso(last!)}, after the row was last updated (${iso(updated!)})` : '',
  ].filter(Boolean);
  ctx.emit(
    'CODEX_SECURITY_EVENT_OUTSIDE_THREAD',
    { file: STATE_DB, pointer: pointer('security_events', s.threadId) },
    `${s.events} security event(s)${s.kinds.length ? ` (${s.kinds.join(', ')})` : ''} of thread ${s.threadId}: ` +
      `${what.join('; ')}`,
    { key: s.threadId },
  );
}

function unreadable(ctx: HomeCheckContext<Codes>, db: StateFacts): boolean {
  const at = { file: STATE_DB };
  if (db.error !== undefined) {
    ctx.emit('CODEX_STATE_DB_UNREADABLE', at, `${STATE_DB}: ${db.error}`);
    return true;
  }
  if (db.integrity.length)
    ctx.emit(
      'CODEX_STATE_DB_UNREADABLE',
      at,
      `${STATE_DB}: PRAGMA integrity_check reports ${db.integrity.length} problem(s) (${db.integrity[0]!}); ` +
        'what it could read is judged',
    );
  for (const [log, why] of [
    ['-wal', db.walForeign],
    ['-journal', db.journalForeign],
  ] as const)
    if (why?.length)
      ctx.emit(
        'CODEX_STATE_DB_UNREADABLE',
        { file: `${STATE_DB}${log}` },
        `${STATE_DB}${log} is not the database's own (${why.join('; ')}): the database was read without it`,
      );
  if (db.truncated)
    ctx.emit('CODEX_STATE_DB_UNREADABLE', at, `${STATE_DB}: only its first ${db.threads.length} threads were judged`);
  return false;
}

const CODES = {
  CODEX_STATE_THREAD_WITHOUT_ROLLOUT: {
    severity: 'warning',
    title: "A thread of Codex's state DB has no rollout in the home",
    help:
      'A row of `threads` in state_5.sqlite whose rollout is neither in sessions/ nor in archived_sessions/ (looked ' +
      'up by its id). Codex deletes such a row at its next thread listing (`codex resume`, the app list), so the ' +
      'rollout was removed since that listing: deleted by hand, or the home was copied without it. The message ' +
      'gives what the row still holds of the session (title, first prompt, times, cwd) and the `sessions` list ' +
      'shows it as gone. When the row names a rollout under another home, the home was moved or copied, and the ' +
      'finding is a note.',
  },
  CODEX_STATE_FIRST_MESSAGE_DIFFERS: {
    severity: 'warning',
    title: "A thread's first_user_message is not its rollout's first prompt",
    help:
      'Codex fills `first_user_message` from the first user message it records in the rollout. A rollout whose ' +
      'first prompt is another text, or that holds no prompt at all, was rewritten or cut at its head after the ' +
      'row was written; a Codex version that extracts the text otherwise can also cause it.',
  },
  CODEX_STATE_ARCHIVE_MISMATCH: {
    severity: 'note',
    title: "A thread's archived flag disagrees with where its rollout is",
    help:
      'Codex moves a rollout to archived_sessions/ when it archives the thread and sets `archived`, and moves it ' +
      'back when it unarchives it. A row marked archived whose rollout is in sessions/ (or the reverse) means the ' +
      'file was moved by hand or by another tool.',
  },
  CODEX_SECURITY_EVENT_WITHOUT_THREAD: {
    severity: 'warning',
    title: 'Security events of a thread that has neither a row nor a rollout',
    help:
      'The `security_events` table records sandbox and approval decisions by thread, outside the rollout. Events ' +
      'whose thread has no row in `threads` and no rollout in the home show that a session ran and decisions were ' +
      'made in it, and that its rollout and row are gone (deleted, or a partial copy of the home).',
  },
  CODEX_SECURITY_EVENT_OUTSIDE_THREAD: {
    severity: 'note',
    title: "A thread's security events lie outside the times of its row",
    help:
      'Codex records sandbox and approval decisions in `security_events` as the thread runs, and updates the ' +
      "thread's row as its rollout grows, so a thread's decisions normally fall between the row's created_at and " +
      'updated_at. One recorded more than a minute before the row was created, or after its last update, means ' +
      "the machine's clock moved, the row was rewritten (a thread id reused, a restored database), or Codex " +
      'recorded the decision without updating the row (a run that ended before its rollout was written).',
  },
  CODEX_STATE_DB_UNREADABLE: {
    severity: 'warning',
    title: "Codex's state DB cannot be read, or only in part",
    help:
      'state_5.sqlite is read from a private copy, read-only. It is not a SQLite database, SQLite cannot open it, ' +
      'its integrity check fails, a -wal or -journal beside it is not its own, or it is larger than the cap ' +
      '(--max-db-bytes). What it knows of sessions whose rollouts are gone is then not (or not all) judged.',
  },
} as const;
type Codes = keyof typeof CODES;

/** The state DB as this audit read it: one private copy, shared by the judgement and the recall. */
const stateOf = (ctx: HomeCheckContext<Codes>): StateFacts =>
  ctx.memo(`codex-state-db:${STATE_DB}`, () => readStateDb(ctx.source, ctx.maxDbBytes));

export const codexStateDb = defineHomeCheck({
  id: 'codex-state-db',
  codes: CODES,
  run(ctx) {
    if (!ctx.source.entry(STATE_DB)) return;
    const db = stateOf(ctx);
    if (unreadable(ctx, db)) return;
    const rows = new Set<string>();
    for (const t of db.threads) {
      rows.add(t.id);
      const places = placesOf(ctx, t.id);
      if (places.size === 0) {
        orphan(ctx, t);
        continue;
      }
      firstMessage(ctx, t);
      archive(ctx, t, places);
    }
    const byId = new Map(db.threads.map((t) => [t.id, t]));
    for (const s of db.security ?? []) {
      const row = byId.get(s.threadId);
      if (row) outsideThread(ctx, s, row);
      if (rows.has(s.threadId) || placesOf(ctx, s.threadId).size) continue;
      const firstAt = isoOf(s.firstAt);
      const lastAt = isoOf(s.lastAt);
      ctx.emit(
        'CODEX_SECURITY_EVENT_WITHOUT_THREAD',
        { file: STATE_DB, pointer: pointer('security_events', s.threadId) },
        `${s.events} security event(s)${s.kinds.length ? ` (${s.kinds.join(', ')})` : ''} of thread ${s.threadId}` +
          `${firstAt ? `, ${firstAt}${lastAt && lastAt !== firstAt ? ` to ${lastAt}` : ''}` : ''}: ` +
          'the thread has no row and no rollout',
        { key: s.threadId },
      );
      ctx.gone({
        id: s.threadId,
        source: STATE_DB,
        prompts: 0,
        ...(firstAt ? { firstAt } : {}),
        ...(lastAt ? { lastAt } : {}),
      });
    }
  },
  // Each thread's title and first prompt, at the row's creation time: what `timeline --id` shows of a thread whose
  // rollout is gone, what `search` finds and SECRET_IN_HOME scans. Both are notes: history.jsonl, recalled after
  // this, holds the prompts themselves, and the first one is not counted twice.
  recall(ctx, wanted, onEntry) {
    if (!ctx.source.entry(STATE_DB)) return;
    const db = stateOf(ctx);
    if (db.error !== undefined) return;
    for (const t of db.threads) {
      if (!wanted(t.id)) continue;
      const at = isoOf(t.createdAt);
      const time = { row: `threads row ${t.id}`, ...(at !== undefined ? { timeMs: Date.parse(at) } : {}) };
      const first = t.firstUserMessage ?? '';
      if (t.title && t.title !== first)
        onEntry({ session: t.id, file: STATE_DB, ...time, kind: 'note', text: t.title });
      if (first) onEntry({ session: t.id, file: STATE_DB, ...time, kind: 'note', text: first });
    }
  },
});
