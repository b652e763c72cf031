/**
 * Builds opencode data directories for the corpora and tests (formats/opencode.md §2): a database made with SQLite
 * itself (in memory, serialized: the same bytes on every run with the same SQLite), in the shape of the real E2
 * channel database in ../shared/external/opencode (its CREATE statements, its drizzle journal) or of E3 (the
 * `migration` table and the `event` log), and the JSON trees of E0 and E1 as opencode writes them (2-space JSON,
 * no trailing newline).
 */
import Database from 'better-sqlite3';

export type Json = Record<string, unknown>;

export interface OcPartSpec {
  id: string;
  time: number;
  data: Json;
  /** The part's states before its last (E3 writes an event for each). */
  history?: Json[];
}

export interface OcMessageSpec {
  id: string;
  time: number;
  data: Json;
  parts: OcPartSpec[];
  /** time_created column when it differs from data.time.created (a foreign writer). */
  column?: number;
}

export interface OcSessionSpec {
  id: string;
  title: string;
  time: number;
  updated?: number;
  parentId?: string;
  directory?: string;
  version?: string;
  /** session.permission (a ruleset). */
  permission?: Json[];
  /** Later rulesets, each a session.updated event after the messages (E3), the last one the column's. */
  permissionUpdates?: Json[][];
  messages: OcMessageSpec[];
}

/** The E2 tables as the real v1.2.25 database declares them (8 drizzle migrations). */
const E2_SCHEMA = `
CREATE TABLE "__drizzle_migrations" (id INTEGER PRIMARY KEY, hash text NOT NULL, created_at numeric,
  name text, applied_at TEXT);
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, icon_url text,
  icon_color text, time_created integer NOT NULL, time_updated integer NOT NULL, time_initialized integer,
  sandboxes text NOT NULL, commands text);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL,
  CONSTRAINT fk_message_session FOREIGN KEY (session_id) REFERENCES session(id) ON DELETE CASCADE);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL,
  CONSTRAINT fk_part_message FOREIGN KEY (message_id) REFERENCES message(id) ON DELETE CASCADE);
CREATE TABLE permission (project_id text PRIMARY KEY, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text, slug text NOT NULL,
  directory text NOT NULL, title text NOT NULL, version text NOT NULL, share_url text,
  summary_additions integer, summary_deletions integer, summary_files integer, summary_diffs text,
  revert text, permission text, time_created integer NOT NULL, time_updated integer NOT NULL,
  time_compacting integer, time_archived integer, workspace_id text);
CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL, status text NOT NULL,
  priority text NOT NULL, position integer NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, PRIMARY KEY (session_id, position));
CREATE TABLE session_share (session_id text PRIMARY KEY, id text NOT NULL, secret text NOT NULL,
  url text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE control_account (email text NOT NULL, url text NOT NULL, access_token text NOT NULL,
  refresh_token text NOT NULL, token_expiry integer, active integer NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, PRIMARY KEY (email, url));
CREATE TABLE account (id text PRIMARY KEY, email text NOT NULL, url text NOT NULL,
  access_token text NOT NULL, refresh_token text NOT NULL, token_expiry integer,
  time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE INDEX message_session_idx ON message (session_id);
CREATE INDEX part_message_idx ON part (message_id);
CREATE INDEX part_session_idx ON part (session_id);
CREATE INDEX session_parent_idx ON session (parent_id);
`;

const E3_EXTRA = `
CREATE TABLE migration (id TEXT PRIMARY KEY, time_completed INTEGER NOT NULL);
CREATE TABLE event_sequence (aggregate_id text PRIMARY KEY, seq integer NOT NULL, owner_id text);
CREATE TABLE event (
  id text PRIMARY KEY, aggregate_id text NOT NULL, seq integer NOT NULL, type text NOT NULL, data text NOT NULL
);
CREATE UNIQUE INDEX event_aggregate_seq_idx ON event (aggregate_id, seq);
`;

export const E2_MIGRATIONS = [
  ['20260127222353_familiar_lady_ursula', 1769552633000],
  ['20260211171708_add_project_commands', 1770830228000],
  ['20260213144116_wakeful_the_professor', 1770993676000],
  ['20260225215848_workspace', 1772056728000],
  ['20260227213759_add_session_workspace_id', 1772228279000],
  ['20260228203230_blue_harpoon', 1772310750000],
  ['20260303231226_add_workspace_fields', 1772579546000],
  ['20260309230000_move_org_to_state', 1773097200000],
] as const;

const E3_MIGRATIONS = [
  ...E2_MIGRATIONS.map(([n]) => n),
  '20260601010001_normalize_storage_paths',
  '20260601202201_amazing_prowler',
  '20260604172448_event_sourced_session_input',
];

export const PROJECT = '4e8912ccfcd63ed7df12b996d6d827394c591206';

export interface DbOptions {
  era: 'E2' | 'E3';
  /** Statements run on the finished database before it is serialized. */
  edit?: string[];
  /** E3: write no events (the 1.16 migration wiped them). */
  noEvents?: boolean;
  /** Extra migration ids (a fork's). */
  migrations?: string[];
  /** The page size (a foreign database's). */
  pageSize?: number;
  /** Bytes replaced inside an index's root page (a row changed behind the index: integrity_check fails). */
  corruptIndex?: { index: string; from: string; to: string };
  /** A table whose root page gets a page type no b-tree page has (reading it fails). */
  corruptRoot?: string;
}

const strip = (d: Json, ...keys: string[]): Json =>
  Object.fromEntries(Object.entries(d).filter(([k]) => !keys.includes(k)));

/** An opencode database holding `sessions`, as bytes (serialized from memory, in rollback-journal mode). */
export function opencodeDb(sessions: readonly OcSessionSpec[], o: DbOptions): Buffer {
  const db = new Database(':memory:');
  try {
    db.pragma('foreign_keys = OFF');
    if (o.pageSize) db.pragma(`page_size = ${o.pageSize}`);
    for (const stmt of `${E2_SCHEMA}${o.era === 'E3' ? E3_EXTRA : ''}`.split(';\n')) if (stmt.trim()) db.exec(stmt);
    const mig = db.prepare('INSERT INTO __drizzle_migrations (hash, created_at, name, applied_at) VALUES (?, ?, ?, ?)');
    for (const [name, at] of E2_MIGRATIONS) mig.run('', at, name, '2026-06-20T10:00:00.000Z');
    if (o.era === 'E3') {
      const m = db.prepare('INSERT INTO migration (id, time_completed) VALUES (?, ?)');
      for (const [i, id] of [...E3_MIGRATIONS, ...(o.migrations ?? [])].entries()) m.run(id, 1781949600000 + i);
    } else for (const id of o.migrations ?? []) mig.run('', 0, id, '2026-06-20T10:00:00.000Z');
    const t0 = Math.min(...sessions.map((s) => s.time));
    db.prepare(
      'INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(PROJECT, '/home/dev/app', 'git', t0 - 1000, t0 - 1000, '[]');
    const addSession = db.prepare(
      'INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated, ' +
        'permission) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const addMessage = db.prepare(
      'INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)',
    );
    const addPart = db.prepare(
      'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const addEvent =
      o.era !== 'E3'
        ? undefined
        : db.prepare('INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, ?, ?)');
    const setSeq =
      o.era !== 'E3'
        ? undefined
        : db.prepare('INSERT OR REPLACE INTO event_sequence (aggregate_id, seq) VALUES (?, ?)');
    let evt = 0;
    for (const s of sessions) {
      let seq = 0;
      const event = (type: string, data: Json) => {
        if (!addEvent || !setSeq || o.noEvents) return;
        addEvent.run(
          `evt_${(0xfb357c944000 + evt++).toString(16)}AAAAAAAAAAAAAA`,
          s.id,
          seq,
          type,
          JSON.stringify(data),
        );
        setSeq.run(s.id, seq++);
      };
      const updated = s.updated ?? s.time;
      const finalPermission = s.permissionUpdates?.at(-1) ?? s.permission;
      const info = {
        id: s.id,
        slug: 'calm-river',
        projectID: PROJECT,
        directory: s.directory ?? '/home/dev/app',
        title: s.title,
        version: s.version ?? (o.era === 'E3' ? '1.16.2' : '1.2.25'),
        time: { created: s.time, updated },
        ...(s.permission ? { permission: s.permission } : {}),
      };
      addSession.run(
        s.id,
        PROJECT,
        s.parentId ?? null,
        'calm-river',
        info.directory,
        s.title,
        info.version,
        s.time,
        updated,
        finalPermission ? JSON.stringify(finalPermission) : null,
      );
      event('session.created.1', { sessionID: s.id, info });
      for (const m of s.messages) {
        const done = (m.data.time as Json | undefined)?.completed as number | undefined;
        addMessage.run(m.id, s.id, m.column ?? m.time, done ?? m.time, JSON.stringify(m.data));
        event('message.updated.1', { sessionID: s.id, info: { ...m.data, id: m.id, sessionID: s.id } });
        for (const p of m.parts) {
          for (const h of [...(p.history ?? []), p.data])
            event('message.part.updated.1', {
              sessionID: s.id,
              part: { ...h, id: p.id, sessionID: s.id, messageID: m.id },
              time: p.time,
            });
          addPart.run(p.id, m.id, s.id, p.time, p.time, JSON.stringify(strip(p.data, 'id', 'sessionID', 'messageID')));
        }
      }
      for (const [k, permission] of (s.permissionUpdates ?? []).entries())
        event('session.updated.1', {
          sessionID: s.id,
          info: { ...info, permission, time: { ...info.time, updated: updated + k } },
        });
    }
    for (const sql of o.edit ?? []) db.exec(sql);
    const bytes = db.serialize();
    const root = (name: string): Buffer => {
      const r = db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(name) as { rootpage: number };
      const size = bytes.readUInt16BE(16);
      return bytes.subarray((r.rootpage - 1) * size, r.rootpage * size);
    };
    if (o.corruptIndex) {
      const page = root(o.corruptIndex.index);
      const at = page.indexOf(o.corruptIndex.from);
      if (at < 0 || o.corruptIndex.from.length !== o.corruptIndex.to.length) throw new Error('cannot corrupt');
      page.write(o.corruptIndex.to, at, 'latin1');
    }
    if (o.corruptRoot) root(o.corruptRoot)[0] = 0x7f;
    return bytes;
  } finally {
    db.close();
  }
}

/** A record as opencode's JSON storage writes it (JSON.stringify(v, null, 2), no trailing newline). */
export const treeJson = (v: unknown): string => JSON.stringify(v, null, 2);

/** The files of an E1 tree holding `sessions` (paths relative to the data directory). */
export function e1Tree(sessions: readonly OcSessionSpec[]): Map<string, string> {
  const out = new Map<string, string>();
  out.set('storage/migration', '2');
  for (const s of sessions) {
    out.set(
      `storage/session/${PROJECT}/${s.id}.json`,
      treeJson({
        id: s.id,
        slug: 'calm-river',
        version: '1.1.44',
        projectID: PROJECT,
        directory: s.directory ?? '/home/dev/app',
        title: s.title,
        time: { created: s.time, updated: s.updated ?? s.time },
      }),
    );
    for (const m of s.messages) {
      out.set(`storage/message/${s.id}/${m.id}.json`, treeJson({ id: m.id, sessionID: s.id, ...m.data }));
      for (const p of m.parts)
        out.set(
          `storage/part/${m.id}/${p.id}.json`,
          treeJson({ id: p.id, sessionID: s.id, messageID: m.id, ...p.data }),
        );
    }
  }
  return out;
}

/** The files of an E0 per-project tree (project `dir`) holding `sessions`, as 0.5.x writes them. */
export function e0Tree(sessions: readonly OcSessionSpec[], dir = 'global'): Map<string, string> {
  const base = `project/${dir}/storage/session`;
  const out = new Map<string, string>([
    [`project/${dir}/app.json`, '{}'],
    [`project/${dir}/storage/migration`, '3'],
  ]);
  for (const s of sessions) {
    out.set(
      `${base}/info/${s.id}.json`,
      treeJson({
        id: s.id,
        version: '0.5.28',
        title: s.title,
        time: { created: s.time, updated: s.updated ?? s.time },
      }),
    );
    for (const m of s.messages) {
      out.set(`${base}/message/${s.id}/${m.id}.json`, treeJson({ id: m.id, ...m.data, sessionID: s.id }));
      for (const p of m.parts)
        out.set(
          `${base}/part/${s.id}/${m.id}/${p.id}.json`,
          treeJson({ id: p.id, ...p.data, messageID: m.id, sessionID: s.id }),
        );
    }
  }
  return out;
}
