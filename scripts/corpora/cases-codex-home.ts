/**
 * The Codex home corpora (home-artifacts.md §2): the clean Codex tree inside a `.codex` home beside the files Codex
 * keeps there (`state_5.sqlite` with a row for every rollout, `session_index.jsonl`, `history.jsonl` with every
 * prompt), which must stay clean; and one case per home code. The state DB is built with better-sqlite3 in the
 * real file's shape (its migrations stop at 22: `threads` with `first_user_message`, no `security_events`).
 */
import Database from 'better-sqlite3';
import type { Case, Files } from './case-kit.js';
import { codexCleanTree } from './cases-codex.js';

/** Where the rows say the home is (the machine the corpus pretends to come from). */
export const RECORDED_HOME = '/home/dev/.codex';

export interface RolloutFacts {
  id: string;
  path: string;
  cwd: string;
  startMs: number;
  endMs: number;
  prompts: Array<{ text: string; ms: number }>;
}

type Obj = Record<string, unknown>;

/** What each rollout of a tree holds that the home's files record of it. */
export function rolloutFacts(tree: Files): RolloutFacts[] {
  const out: RolloutFacts[] = [];
  for (const [path, c] of tree) {
    if (!/rollout-.*\.jsonl$/.test(path) || typeof c !== 'string') continue;
    const ls = c
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Obj);
    const meta = ls.find((l) => l.type === 'session_meta')?.payload as Obj;
    const ms = (l: Obj) => Date.parse(String(l.timestamp));
    out.push({
      id: String(meta.id),
      path,
      cwd: String(meta.cwd),
      startMs: ms(ls[0]!),
      endMs: ms(ls[ls.length - 1]!),
      prompts: ls
        .filter((l) => l.type === 'event_msg' && (l.payload as Obj).type === 'user_message')
        .map((l) => ({ text: String((l.payload as Obj).message), ms: ms(l) })),
    });
  }
  return out;
}

export interface ThreadSpec {
  id: string;
  rolloutPath: string;
  createdAt: number;
  updatedAt: number;
  cwd: string;
  title: string;
  firstUserMessage: string;
  archived: number;
}

export const threadOf = (r: RolloutFacts, home = RECORDED_HOME): ThreadSpec => ({
  id: r.id,
  rolloutPath: `${home}/${r.path}`,
  createdAt: Math.floor(r.startMs / 1000),
  updatedAt: Math.floor(r.endMs / 1000),
  cwd: r.cwd,
  title: r.prompts[0]?.text ?? '',
  firstUserMessage: r.prompts[0]?.text ?? '',
  archived: r.path.startsWith('archived_sessions/') ? 1 : 0,
});

export interface SecurityEventSpec {
  threadId: string;
  createdAt: number;
  kind: string;
  decision: string;
}

/** A state_5.sqlite as Codex's 22 migrations leave it (plus `security_events` of migration 38 when given). */
export function stateDb(threads: readonly ThreadSpec[], security?: readonly SecurityEventSpec[]): Buffer {
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL, installed_on TIMESTAMP ' +
      'NOT NULL DEFAULT CURRENT_TIMESTAMP, success BOOLEAN NOT NULL, checksum BLOB NOT NULL, execution_time BIGINT ' +
      'NOT NULL);' +
      'CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, ' +
      'updated_at INTEGER NOT NULL, source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, ' +
      'title TEXT NOT NULL, sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL, tokens_used INTEGER NOT ' +
      'NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0, archived_at INTEGER, git_sha TEXT, git_branch TEXT, ' +
      "git_origin_url TEXT, has_user_event INTEGER NOT NULL DEFAULT 0, cli_version TEXT NOT NULL DEFAULT '', " +
      "first_user_message TEXT NOT NULL DEFAULT '', agent_nickname TEXT, agent_role TEXT, memory_mode TEXT, " +
      'model TEXT, reasoning_effort TEXT, agent_path TEXT);' +
      'CREATE TABLE backfill_state (id INTEGER PRIMARY KEY, status TEXT NOT NULL, last_watermark TEXT, ' +
      'last_success_at INTEGER, updated_at INTEGER NOT NULL);',
  );
  const m = db.prepare('INSERT INTO _sqlx_migrations VALUES (?, ?, ?, 1, ?, 1)');
  for (let v = 1; v <= 22; v++) m.run(v, `migration ${v}`, '2026-03-01 09:00:00', Buffer.alloc(8, v));
  db.prepare("INSERT INTO backfill_state VALUES (1, 'complete', NULL, 1772355600, 1772355600)").run();
  const t = db.prepare(
    'INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, ' +
      'sandbox_policy, approval_mode, tokens_used, archived, archived_at, has_user_event, cli_version, ' +
      "first_user_message, model) VALUES (?, ?, ?, ?, 'cli', 'openai', ?, ?, ?, 'on-request', 1200, ?, ?, 1, " +
      "'0.107.0', ?, 'gpt-5.3-codex')",
  );
  const sandbox = '{"type":"workspace-write","network_access":false}';
  for (const x of threads)
    t.run(
      x.id,
      x.rolloutPath,
      x.createdAt,
      x.updatedAt,
      x.cwd,
      x.title,
      sandbox,
      x.archived,
      x.archived ? x.updatedAt : null,
      x.firstUserMessage,
    );
  if (security) {
    db.exec(
      'CREATE TABLE security_events (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at INTEGER NOT NULL, kind ' +
        'TEXT NOT NULL, thread_id TEXT, turn_id TEXT, call_id TEXT, tool_name TEXT, resource TEXT, ' +
        'sandbox_backend TEXT, reason TEXT, path TEXT, host TEXT, port INTEGER, protocol TEXT, method TEXT, ' +
        'network_mode TEXT, decision TEXT, source TEXT, review_id TEXT, reviewer TEXT, review_decision TEXT, ' +
        'details_json TEXT);',
    );
    const e = db.prepare(
      'INSERT INTO security_events (created_at, kind, thread_id, tool_name, decision, source) VALUES (?, ?, ?, ' +
        "'exec_command', ?, 'user')",
    );
    for (const x of security) e.run(x.createdAt, x.kind, x.threadId, x.decision);
  }
  const bytes = db.serialize();
  db.close();
  return bytes;
}

export const historyLine = (id: string, ms: number, text: string, key = 'session_id'): string =>
  JSON.stringify({ [key]: id, ts: Math.floor(ms / 1000), text });

export const indexLine = (id: string, name: string, ms: number): string =>
  JSON.stringify({ id, thread_name: name, updated_at: new Date(ms).toISOString() });

export interface CodexHome {
  tree: Files;
  rollouts: RolloutFacts[];
  threads: ThreadSpec[];
  history: string[];
  index: string[];
  security?: SecurityEventSpec[];
}

/** The clean home's parts, before they are rendered (cases edit them). */
export function codexHomeParts(home = RECORDED_HOME): CodexHome {
  const tree = codexCleanTree();
  const rollouts = rolloutFacts(tree);
  const history = rollouts
    .flatMap((r) => r.prompts.map((p) => ({ id: r.id, ...p })))
    .sort((a, b) => a.ms - b.ms)
    .map((p) => historyLine(p.id, p.ms, p.text));
  const index = rollouts.slice(0, 2).map((r) => indexLine(r.id, `Named ${r.prompts[0]?.text ?? r.id}`, r.endMs));
  return { tree, rollouts, threads: rollouts.map((r) => threadOf(r, home)), history, index };
}

/** The home as files of a case directory (`.codex/…`). */
export function renderHome(h: CodexHome, withHistory = true): Files {
  const out: Files = new Map();
  for (const [p, c] of h.tree) out.set(`.codex/${p}`, c);
  out.set('.codex/state_5.sqlite', stateDb(h.threads, h.security));
  out.set('.codex/session_index.jsonl', `${h.index.join('\n')}\n`);
  if (withHistory) out.set('.codex/history.jsonl', `${h.history.join('\n')}\n`);
  return out;
}

function homeCase(name: string, description: string, must: string[], edit: (h: CodexHome) => void): Case {
  const h = codexHomeParts();
  edit(h);
  return { name, description, must, files: renderHome(h) };
}

export function codexHomeCases(): Case[] {
  const cases: Case[] = [
    {
      name: 'home-clean',
      description:
        'A clean ~/.codex home: the clean rollouts beside state_5.sqlite (a row for every rollout, archived flags ' +
        'where the rollouts are), session_index.jsonl and history.jsonl (every prompt of every rollout). No home ' +
        'code fires.',
      must: [],
      files: renderHome(codexHomeParts()),
    },
  ];
  cases.push(
    homeCase(
      'home-state-orphan',
      "The paged session's rollout was deleted from sessions/; its row in state_5.sqlite still holds its title, " +
        'first prompt, times and cwd. The rows name /home/dev/.codex, another home than the audited copy: a note.',
      ['CODEX_STATE_THREAD_WITHOUT_ROLLOUT'],
      (h) => {
        const paged = h.rollouts.find((r) => r.id.endsWith('c004'))!;
        h.tree.delete(paged.path);
        h.history = h.history.filter((l) => !l.includes(paged.id));
      },
    ),
    homeCase(
      'home-state-first-message',
      "The main thread's first_user_message in state_5.sqlite is not the first prompt its rollout holds (the " +
        "rollout's head was rewritten after the row).",
      ['CODEX_STATE_FIRST_MESSAGE_DIFFERS'],
      (h) => {
        h.threads[0]!.firstUserMessage = 'Delete every test and push to main.';
      },
    ),
    homeCase(
      'home-state-archive-mismatch',
      'The sub-agent thread is archived in state_5.sqlite, but its rollout is still in sessions/ (moved back by ' +
        'hand).',
      ['CODEX_STATE_ARCHIVE_MISMATCH'],
      (h) => {
        h.threads.find((t) => t.id.endsWith('c003'))!.archived = 1;
      },
    ),
    homeCase(
      'home-security-event-orphan',
      'state_5.sqlite has the security_events table (migration 38): two exec decisions of a thread that has ' +
        'neither a row nor a rollout in the home.',
      ['CODEX_SECURITY_EVENT_WITHOUT_THREAD'],
      (h) => {
        const gone = '019cb100-0000-7000-8000-00000000c0ff';
        h.security = [
          { threadId: h.threads[0]!.id, createdAt: h.threads[0]!.createdAt + 5, kind: 'exec', decision: 'approved' },
          { threadId: gone, createdAt: 1772445600, kind: 'exec', decision: 'approved' },
          { threadId: gone, createdAt: 1772445660, kind: 'network', decision: 'denied' },
        ];
      },
    ),
    homeCase(
      'home-security-event-outside-thread',
      "state_5.sqlite's security_events holds a network decision of the main thread an hour after the thread's " +
        'row was last updated (CSE-3): the clock moved, the row was rewritten, or the row was not updated.',
      ['CODEX_SECURITY_EVENT_OUTSIDE_THREAD'],
      (h) => {
        const main = h.threads[0]!;
        h.security = [
          { threadId: main.id, createdAt: main.createdAt + 5, kind: 'exec', decision: 'approved' },
          { threadId: main.id, createdAt: main.updatedAt + 3600, kind: 'network', decision: 'approved' },
        ];
      },
    ),
    homeCase(
      'home-session-index-orphan',
      'session_index.jsonl names a thread ("Migrate the CI") whose rollout is not in the home, and that no other ' +
        'file of the home knows.',
      ['CODEX_SESSION_INDEX_WITHOUT_ROLLOUT'],
      (h) => {
        h.index.push(indexLine('019cb100-0000-7000-8000-00000000c0aa', 'Migrate the CI', Date.UTC(2026, 2, 5, 9)));
      },
    ),
  );
  cases.push(
    homeCase(
      'home-history-gone',
      'history.jsonl holds two prompts of a session (2026-03-04) whose rollout is in neither sessions/ nor ' +
        'archived_sessions/, and that no other file of the home knows: deleted by hand, or a partial copy.',
      ['CODEX_HISTORY_SESSION_GONE'],
      (h) => {
        const id = '019cb100-0000-7000-8000-00000000c0bb';
        h.history.push(historyLine(id, Date.UTC(2026, 2, 4, 8), 'Rotate the deploy key and push.'));
        h.history.push(historyLine(id, Date.UTC(2026, 2, 4, 8, 5), 'Now tag the release.'));
      },
    ),
    homeCase(
      'home-history-prompt-missing',
      "history.jsonl records a prompt of the main session, after its rollout's last line, that the rollout does " +
        'not hold: the rollout was cut after it.',
      ['CODEX_HISTORY_PROMPT_MISSING'],
      (h) => {
        const main = h.rollouts[0]!;
        h.history.push(historyLine(main.id, main.endMs + 60_000, 'Also drop the old migrations.'));
      },
    ),
    homeCase(
      'home-history-damaged',
      'history.jsonl has a cut line and a line dated in 2099 (a clock set wrong, or written by hand): both said, ' +
        'and the 2099 line is never the time ages are measured against.',
      ['CODEX_HISTORY_UNREADABLE', 'CODEX_HISTORY_TIME_FUTURE'],
      (h) => {
        const main = h.rollouts[0]!;
        h.history.push('{"session_id":"019cb100-0000-7000-8000-00000000c001","ts":17724');
        h.history.push(historyLine(main.id, Date.UTC(2099, 0, 1), main.prompts[0]!.text));
      },
    ),
  );
  const bad = homeCase(
    'home-state-unreadable',
    'state_5.sqlite is not a SQLite database (its bytes were overwritten): a finding, not a crash.',
    ['CODEX_STATE_DB_UNREADABLE'],
    () => {},
  );
  bad.files.set('.codex/state_5.sqlite', Buffer.from('this is not a database\n'.repeat(20)));
  cases.push(bad);
  return cases;
}
