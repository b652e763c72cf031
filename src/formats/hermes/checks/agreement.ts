/**
 * HERMES_ARTIFACTS_*: one Hermes session kept in up to three places (formats/pi-hermes.md §2.3, §2.7): its rows in
 * state.db, the gateway transcript `sessions/<id>.jsonl` and the CLI snapshot `sessions/session_<id>.json`. Their
 * message sequences (roles in order, `session_meta` and `system` aside) are compared, and a difference is graded by
 * the causes Hermes itself has: the snapshot is never rewritten shorter (so after /retry, /undo or a compression it
 * is longer), a snapshot written before the last turn is a prefix, a rewind soft-deletes rows in the database only.
 */
import { defineCheck } from '../../../checks/define.js';
import type { Severity } from '../../../model/finding.js';
import { isObj, str } from '../../shared/events.js';
import { hermesIdOf } from '../artifacts.js';
import { DB_KIND } from '../db/facts.js';
import { isDbFacts } from './db.js';

const IGNORED = new Set(['session_meta', 'system']);
const seqOf = (roles: readonly string[]): string[] => roles.filter((r) => !IGNORED.has(r));
const isPrefix = (a: readonly string[], b: readonly string[]): boolean =>
  a.length <= b.length && a.every((r, i) => r === b[i]);
const firstDiff = (a: readonly string[], b: readonly string[]): number => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

interface Copies {
  transcript?: { file: string; roles: string[] };
  snapshot?: { file: string; roles: string[] };
  db?: { all: string[]; active: string[]; rewound: boolean };
}

export const hermesAgreement = defineCheck({
  id: 'hermes-agreement',
  validate: false,
  codes: {
    HERMES_ARTIFACTS_DISAGREE: {
      severity: 'warning',
      title: "A Hermes session's database rows, transcript and snapshot hold different conversations",
      help:
        'The same session id in state.db, in `sessions/<id>.jsonl` and in `sessions/session_<id>.json` should hold ' +
        'the same messages. Known causes are graded a note: the snapshot is never rewritten with fewer messages ' +
        'than it had (after /retry, /undo or a compression it is longer than the others), a snapshot last written ' +
        'before the latest turn is a prefix of the rows, and a rewind (v15+) soft-deletes rows in the database ' +
        'only. Any other difference (a different order, messages missing from the middle) is a warning: one copy ' +
        'was edited, restored from elsewhere or lost lines, and which one Hermes resumes from decides what the ' +
        'model sees (the database, since 2026-02-19).',
    },
    HERMES_ARTIFACT_NOT_IN_DB: {
      severity: 'note',
      title: 'A Hermes transcript, snapshot or gateway route names a session state.db does not hold',
      help:
        'A session file, or an entry of the gateway index sessions/sessions.json, whose session id state.db does ' +
        'not hold: a session older than the database (before 2026-02-19), or one deleted from it (`hermes ' +
        'sessions delete` removes `<id>.jsonl` but not `session_<id>.json`, which can be the only copy left). ' +
        'The file is audited on its own.',
    },
  },
  create(ctx) {
    const copies = new Map<string, Copies>();
    const of = (id: string): Copies => {
      let c = copies.get(id);
      if (!c) copies.set(id, (c = {}));
      return c;
    };
    let hasDb = false;
    const routes: Array<{ file: string; key: string; id: string }> = [];
    return {
      doc({ file, kind, value }) {
        if (kind === 'index' && isObj(value)) {
          for (const [key, entry] of Object.entries(value)) {
            const id = isObj(entry) ? str(entry.session_id) : undefined;
            if (id !== undefined) routes.push({ file, key, id });
          }
        } else if (kind === 'snapshot' && isObj(value) && Array.isArray(value.messages)) {
          const id = str(value.session_id) ?? hermesIdOf(file);
          if (id !== undefined)
            of(id).snapshot = { file, roles: value.messages.map((m) => (isObj(m) ? (str(m.role) ?? '?') : '?')) };
        } else if (kind === DB_KIND && isDbFacts(value) && value.error === undefined) {
          hasDb = true;
          for (const s of value.sessions) of(s.id).db = { all: [], active: [], rewound: (s.rewindCount ?? 0) > 0 };
          for (const id of value.rowCounts.keys()) of(id).db ??= { all: [], active: [], rewound: false };
          // Roles are kept for the sessions a transcript or snapshot also holds (the snapshots came before the
          // database, the transcripts are the session's artifacts); the others have nothing to be compared with.
          const compared = new Set([...copies].filter(([, c]) => c.snapshot).map(([id]) => id));
          for (const a of ctx.session.artifacts.values()) {
            const id = a.kind === 'transcript' ? hermesIdOf(a.path) : undefined;
            if (id !== undefined) compared.add(id);
          }
          for (const m of value.rows(compared)) {
            const c = of(m.sessionId);
            c.db ??= { all: [], active: [], rewound: false };
            c.db.all.push(m.role);
            if (m.active !== 0) c.db.active.push(m.role);
            else c.db.rewound = true;
          }
          // Rows that could not all be read are compared with nothing (HERMES_DB_READ_PARTIAL says so).
          if (value.partial !== undefined) hasDb = false;
        }
      },
      record({ file, kind, record }) {
        if (kind !== 'transcript') return;
        const id = hermesIdOf(file);
        if (id === undefined) return;
        const c = of(id);
        c.transcript ??= { file, roles: [] };
        const v = record.value;
        c.transcript.roles.push(isObj(v) ? (str(v.role) ?? '?') : '?');
      },
      end() {
        if (hasDb)
          for (const r of routes)
            if (!copies.get(r.id)?.db)
              ctx.emit(
                'HERMES_ARTIFACT_NOT_IN_DB',
                { file: r.file, pointer: `/${r.key.replace(/~/g, '~0').replace(/\//g, '~1')}/session_id` },
                `the gateway routes ${JSON.stringify(r.key)} to session ${r.id}, which has no row in state.db`,
                { key: `route/${r.key}` },
              );
        for (const [id, c] of copies) {
          const files = [c.transcript?.file, c.snapshot?.file].filter((f): f is string => f !== undefined);
          if (hasDb && !c.db && files.length) {
            for (const f of files)
              ctx.emit('HERMES_ARTIFACT_NOT_IN_DB', { file: f }, `session ${id} has no row in state.db`, { key: id });
            continue;
          }
          const db = c.db && hasDb ? seqOf(c.db.active) : undefined;
          const dbAll = c.db && hasDb ? seqOf(c.db.all) : undefined;
          const t = c.transcript ? seqOf(c.transcript.roles) : undefined;
          const s = c.snapshot ? seqOf(c.snapshot.roles) : undefined;
          const report = (file: string, what: string, sev: Severity) =>
            ctx.emit('HERMES_ARTIFACTS_DISAGREE', { file }, `session ${id}: ${what}`, {
              key: `${id}/${file}`,
              severity: sev,
            });
          if (t && db && c.transcript) {
            const same = t.length === db.length && isPrefix(t, db);
            if (!same) {
              const rewind = c.db?.rewound === true && dbAll !== undefined && isPrefix(db, t) && isPrefix(t, dbAll);
              report(
                c.transcript.file,
                `the transcript has ${t.length} message(s), state.db ${db.length} active row(s)` +
                  (rewind
                    ? ': a rewind soft-deleted rows in the database, the transcript kept them'
                    : `; they differ from message ${firstDiff(t, db) + 1} on`),
                rewind ? 'note' : 'warning',
              );
            }
          }
          const ref = db ?? t;
          if (s && ref && c.snapshot) {
            const refName = db ? 'state.db' : 'the transcript';
            if (s.length === ref.length && isPrefix(s, ref)) continue;
            if (s.length > ref.length && isPrefix(ref, s))
              report(
                c.snapshot.file,
                `the snapshot has ${s.length} message(s), ${refName} ${ref.length}: Hermes never rewrites a snapshot ` +
                  'shorter, so it keeps messages a /retry, /undo or compression removed',
                'note',
              );
            else if (isPrefix(s, ref))
              report(
                c.snapshot.file,
                `the snapshot has ${s.length} message(s), ${refName} ${ref.length}: it was last written before ` +
                  'the latest messages',
                'note',
              );
            else
              report(
                c.snapshot.file,
                `the snapshot (${s.length} message(s)) and ${refName} (${ref.length}) differ from message ` +
                  `${firstDiff(s, ref) + 1} on`,
                'warning',
              );
          }
        }
      },
    };
  },
});
