/**
 * The Grok home corpora for the sandbox event log, the worktree pool and the permission store (home-artifacts.md
 * §1.3, §1.5, §1.6): the clean home (with its prompt history) beside a `sandbox-events.jsonl` whose startup lines
 * precede every session and whose one violation falls in the top session, a `worktrees.db` with a row for every
 * session, and a `permission.toml` of the sessions' cwd group, which must stay clean; and one case per code.
 */
import Database from 'better-sqlite3';
import type { Case, Files } from './case-kit.js';
import { GROUP, grokHomeParts, renderGrokHome } from './cases-grok-home.js';

export const SANDBOX = '.grok/sandbox-events.jsonl';
export const WORKTREES = '.grok/worktrees.db';
export const PERMISSION = `${GROUP}/permission.toml`;
const OTHER_GROUP = '.grok/sessions/%2Fhome%2Fdev%2Fold-proj';
const TOP = '019a3f2c-1d00-7a3e-8000-00000000a001';
const SUB = '019a3f2e-0f10-7c42-8000-00000000a003';
const FORK = '019a3f6b-8e40-7b11-8000-00000000a002';
const gone = (n: number): string => `019a3000-0000-7000-8000-00000000d0${String(n).padStart(2, '0')}`;

type Ev = Record<string, unknown>;
const applied = (timestamp: string, extra: Ev = {}): Ev => ({
  timestamp,
  event_type: 'ProfileApplied',
  profile: 'workspace',
  workspace: '/home/dev/proj',
  platform: 'linux/landlock',
  enforced: true,
  restrict_network: false,
  read_write_paths: ['/home/dev/proj'],
  ...extra,
});
const violation = (timestamp: string, extra: Ev = {}): Ev => ({
  timestamp,
  event_type: 'FsViolation',
  profile: 'workspace',
  operation: 'write',
  target: '/etc/hosts',
  ...extra,
});

/** The clean log: the top session's process starts, a write refused during it, the fork's process starts. */
export const cleanEvents = (): Ev[] => [
  applied('2026-08-19T09:29:58.412000Z'),
  violation('2026-08-19T09:30:40.100000Z', { workspace: '/home/dev/proj' }),
  applied('2026-08-19T09:31:40.050000Z'),
];
export const eventsText = (evs: readonly Ev[]): string => evs.map((e) => `${JSON.stringify(e)}\n`).join('');

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE worktrees (
  id TEXT PRIMARY KEY, path TEXT UNIQUE NOT NULL, source_repo TEXT NOT NULL, repo_name TEXT NOT NULL,
  kind TEXT NOT NULL DEFAULT 'session', creation_mode TEXT NOT NULL DEFAULT 'linked',
  git_ref TEXT, head_commit TEXT, session_id TEXT, creator_pid INTEGER,
  created_at INTEGER NOT NULL, last_accessed_at INTEGER, status TEXT NOT NULL DEFAULT 'alive', metadata TEXT);
CREATE INDEX idx_worktrees_session ON worktrees(session_id);
`;

export interface WorktreeSpec {
  session: string;
  createdAt: number;
  status?: string;
}

/** A worktrees.db holding one row per spec, in the schema of xai-fast-worktree (SCHEMA_VERSION 1). */
export function worktreesDb(rows: readonly WorktreeSpec[], schema = SCHEMA): Buffer {
  const db = new Database(':memory:');
  db.exec(schema);
  if (schema === SCHEMA) {
    db.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', '1')").run();
    const ins = db.prepare(
      'INSERT INTO worktrees(id, path, source_repo, repo_name, session_id, creator_pid, created_at, status) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    rows.forEach((r, i) => {
      const id = `wt-${String(i + 1).padStart(3, '0')}`;
      ins.run(
        id,
        `/home/dev/.grok/worktrees/proj/${id}`,
        '/home/dev/proj',
        'proj',
        r.session,
        48200 + i,
        r.createdAt,
        r.status ?? 'alive',
      );
    });
  }
  const bytes = db.serialize();
  db.close();
  return bytes;
}

const secs = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
const cleanRows = (): WorktreeSpec[] => [
  { session: TOP, createdAt: secs('2026-08-19T09:30:00Z') },
  { session: SUB, createdAt: secs('2026-08-19T09:30:12Z') },
  { session: FORK, createdAt: secs('2026-08-19T09:31:41Z') },
];

export const PERMISSION_TEXT =
  '# Grok permission state\n' +
  'edit_policy = "ask"\n' +
  'allow_bash_execute = false\n' +
  'allowed_bash_commands = [\n  "npm test",\n  "git status", # read-only\n]\n' +
  'allowed_web_fetch_domains = ["docs.rs"]\n' +
  'disallowed_bash_commands = []\n';

export function renderSandboxHome(): Files {
  const files = renderGrokHome(grokHomeParts());
  files.set(SANDBOX, eventsText(cleanEvents()));
  files.set(WORKTREES, worktreesDb(cleanRows()));
  files.set(PERMISSION, PERMISSION_TEXT);
  return files;
}

function sandboxCase(name: string, description: string, must: string[], edit: (f: Files) => void): Case {
  const files = renderSandboxHome();
  edit(files);
  return { name, description, must, files };
}

export function grokSandboxCases(): Case[] {
  return [
    sandboxCase(
      'home-sandbox-clean',
      'A clean ~/.grok home with sandbox-events.jsonl (a ProfileApplied before every session, one FsViolation ' +
        'during the top session), worktrees.db (a row for every session) and a permission.toml of the cwd group ' +
        'the sessions are in. No home code fires.',
      [],
      () => {},
    ),
    sandboxCase(
      'home-sandbox-violation-gone',
      'sandbox-events.jsonl holds an FsViolation nine days before every session of the home, after an ' +
        'ApplyFailed: the session was deleted since, and the violation can be an ordinary EPERM.',
      ['GROK_SANDBOX_VIOLATION_OUTSIDE_SESSIONS'],
      (f) => {
        const early = [
          {
            timestamp: '2026-08-10T08:00:00.000000Z',
            event_type: 'ApplyFailed',
            profile: 'workspace',
            error: 'ENOSYS',
          },
          violation('2026-08-10T08:05:00.000000Z', {
            workspace: '/home/dev/proj',
            target: '/home/dev/.ssh/id_ed25519',
          }),
        ];
        f.set(SANDBOX, eventsText([...early, ...cleanEvents()]));
      },
    ),
    sandboxCase(
      'home-sandbox-not-applied',
      "The sessions record the workspace profile, but the startup line before the top session's start is an " +
        'ApplyFailed: the sandbox was not applied.',
      ['GROK_SANDBOX_PROFILE_NOT_APPLIED'],
      (f) => {
        const evs = cleanEvents();
        evs[0] = { timestamp: evs[0]!.timestamp, event_type: 'ApplyFailed', profile: 'workspace', error: 'landlock' };
        f.set(SANDBOX, eventsText(evs));
      },
    ),
    sandboxCase(
      'home-sandbox-unknown-event',
      'sandbox-events.jsonl holds a NetViolation line with a tool_call_id, which the known writer never produces: ' +
        'a newer binary.',
      ['GROK_SANDBOX_UNKNOWN_EVENT'],
      (f) => {
        const evs = cleanEvents();
        evs.splice(2, 0, {
          timestamp: '2026-08-19T09:30:50.000000Z',
          event_type: 'NetViolation',
          profile: 'workspace',
          target: 'example.com:443',
          tool_call_id: 'call_9',
        });
        f.set(SANDBOX, eventsText(evs));
      },
    ),
    sandboxCase(
      'home-sandbox-time-order',
      'Two processes appended to sandbox-events.jsonl at once: a line is earlier than the line before it.',
      ['GROK_SANDBOX_TIME_ORDER'],
      (f) => {
        const evs = cleanEvents();
        evs.splice(2, 0, violation('2026-08-19T09:30:20.000000Z', { workspace: '/home/dev/proj' }));
        f.set(SANDBOX, eventsText(evs));
      },
    ),
    sandboxCase(
      'home-sandbox-unreadable',
      'sandbox-events.jsonl holds a line that is not an event (no event_type) and a line that is not JSON.',
      ['GROK_SANDBOX_UNREADABLE'],
      (f) => {
        const evs = cleanEvents();
        f.set(
          SANDBOX,
          `${eventsText(evs.slice(0, 1))}{"timestamp":"2026-08-19T09:30:01Z"}\n{"times\n${eventsText(evs.slice(1))}`,
        );
      },
    ),
    sandboxCase(
      'home-worktrees-gone',
      'worktrees.db holds rows of two sessions whose dirs are gone: one 40 days older than the newest row (a note: ' +
        'the 30-day cleanup), one recent and still alive (a warning); the `sessions` list shows both as gone.',
      ['GROK_WORKTREE_SESSION_GONE'],
      (f) => {
        const rows = cleanRows();
        rows.push(
          { session: gone(1), createdAt: secs('2026-07-10T10:00:00Z'), status: 'dead' },
          { session: gone(2), createdAt: secs('2026-08-18T10:00:00Z') },
        );
        f.set(WORKTREES, worktreesDb(rows));
      },
    ),
    sandboxCase(
      'home-worktrees-damaged',
      'worktrees.db is a SQLite database of another schema (no worktrees table): one finding, not a stack trace.',
      ['GROK_WORKTREE_DB_UNREADABLE'],
      (f) => f.set(WORKTREES, worktreesDb([], 'CREATE TABLE pool (slot INTEGER PRIMARY KEY, dir TEXT);')),
    ),
    sandboxCase(
      'home-permission-orphan',
      'A cwd group without any session holds a permission.toml that always allows bash execution and a command: ' +
        'the decisions outlive the sessions that made them.',
      ['GROK_PERMISSION_GRANT_WITHOUT_SESSION'],
      (f) =>
        f.set(
          `${OTHER_GROUP}/permission.toml`,
          'allow_bash_execute = true\nallowed_bash_commands = ["rm -rf build"]\n',
        ),
    ),
    sandboxCase(
      'home-permission-damaged',
      'permission.toml holds a table header and a number, outside the TOML Grok writes: one finding, never judged ' +
        'in part.',
      ['GROK_PERMISSION_UNREADABLE'],
      (f) => f.set(PERMISSION, `${PERMISSION_TEXT}[extra]\nmax_turns = 3\n`),
    ),
  ];
}
