/**
 * OPENCODE_*: what the rows of the whole data directory say, across its stores (formats/opencode.md §0.4, §7, §8
 * #5, #12, #19-23, #29): rows opencode cannot load, child sessions whose parent is gone, JSON-tree sessions the
 * database does not hold (opencode cannot show them) or holds differently, the JSON import's one instant on every
 * part, a time column that is not the record's own time, and the credential files (never read).
 */
import { defineCheck } from '../../../checks/define.js';
import { SUMMARY_KIND, type StoreSessions, type Summary } from '../load.js';

const isSummary = (v: unknown): v is Summary =>
  typeof v === 'object' && v !== null && Array.isArray((v as Summary).stores);

const iso = (ms: number): string => {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
};

export const opencodeRows = defineCheck({
  id: 'opencode-rows',
  validate: true,
  codes: {
    OPENCODE_ROW_UNREADABLE: {
      severity: 'error',
      title: "A message or part row's data does not parse",
      help:
        'opencode stores each message and part as JSON text in a `data` column and parses it with JSON.parse on ' +
        'read: text that is not a JSON object (or the empty string) makes the whole page of messages fail to load, ' +
        'so opencode cannot show the session. opencode never writes such a row: corruption or a foreign writer.',
    },
    OPENCODE_PARENT_MISSING: {
      severity: 'warning',
      title: "A child session's parent is not in the data",
      help:
        'A subagent (the task tool) runs in a child session whose parent_id names the calling session; opencode ' +
        'deletes children before their parent, so a child whose parent is gone was left by a crash mid-delete or an ' +
        'edit outside opencode. Forks carry no parent link at all (only their "(fork #N)" title): none is claimed.',
    },
    OPENCODE_LEGACY_NOT_IMPORTED: {
      severity: 'warning',
      title: 'A session of a JSON tree is in no newer store: opencode cannot show it',
      help:
        'opencode 0.6 migrated the per-project E0 trees into one tree except the `global` project, which it never ' +
        'migrates; 1.2 imports the E1 tree into the database once (a file it cannot parse is skipped), and from ' +
        '1.16 ignores the tree altogether. The session is on disk, and this audit reads it, but opencode shows ' +
        'only what the newest store holds.',
    },
    OPENCODE_LEGACY_DIVERGED: {
      severity: 'note',
      title: 'A session is in a JSON tree and in the database with different rows',
      help:
        'The one-time import copies the tree and never deletes it; the database then moves on (new turns, a ' +
        'revert, a delete). The message gives both counts: rows the tree holds and the database does not were ' +
        'deleted after the import (or never imported).',
    },
    OPENCODE_TIME_IMPORTED: {
      severity: 'note',
      title: "Every part of a session carries one time, later than its messages: the JSON import's instant",
      help:
        'A part file of the JSON trees records no creation time, so the 1.2 import stamps every part it copies ' +
        'with the moment of the import. These times say when the import ran, not when the parts were written.',
    },
    OPENCODE_TIME_COLUMN: {
      severity: 'warning',
      title: "A message's time_created column is not the record's own time.created",
      help:
        'opencode sets both from one value when it inserts a message and never changes time_created: a difference ' +
        'means the row or its data was written by something else.',
    },
    OPENCODE_SECRET_FILE: {
      severity: 'note',
      title: 'The data directory holds credential files',
      help:
        'auth.json (provider keys and OAuth tokens), mcp-auth.json (MCP tokens) and storage/session_share/*.json ' +
        '(share secrets) are never read or shown by this audit, and never put in a bag (with or without --redact: ' +
        'a redaction by detectors would miss tokens it cannot tell); the inventory records them as withheld.',
    },
  },
  create(ctx) {
    return {
      doc(d) {
        if (d.kind !== SUMMARY_KIND || !isSummary(d.value)) return;
        const s = d.value;
        for (const r of s.badRows)
          ctx.emit(
            'OPENCODE_ROW_UNREADABLE',
            { file: r.file, line: r.line },
            `${r.table} ${r.id}: ${r.problem}; opencode fails to load its session`,
            { key: r.id },
          );
        if (s.badRowCount > s.badRows.length)
          ctx.emit(
            'OPENCODE_ROW_UNREADABLE',
            { file: s.badRows[0]!.file },
            `${s.badRowCount - s.badRows.length} more row(s) like these`,
            { key: 'more' },
          );
        const ids = new Set(s.stores.flatMap((x) => x.sessions.map((y) => y.id)));
        for (const st of s.stores)
          for (const x of st.sessions)
            if (x.parentId !== undefined && !ids.has(x.parentId))
              ctx.emit(
                'OPENCODE_PARENT_MISSING',
                { file: x.file || st.store },
                `session ${x.id}${x.title ? ` (${JSON.stringify(x.title)})` : ''} names parent ${x.parentId}, which ` +
                  'is in no store of this directory',
                { key: x.id },
              );
        legacy(s.stores, ctx.emit);
        for (const t of s.imported)
          ctx.emit(
            'OPENCODE_TIME_IMPORTED',
            { file: t.file, line: t.line },
            `the ${t.parts} parts of session ${t.session} all carry ${iso(t.at)}, later than every message: the ` +
              'JSON import ran then',
            { key: t.session },
          );
        for (const t of s.timeMismatch)
          ctx.emit(
            'OPENCODE_TIME_COLUMN',
            { file: t.file, line: t.line },
            `message ${t.id}: time_created is ${iso(t.column)}, its data's time.created ${iso(t.record)}`,
            { key: t.id },
          );
      },
      end() {
        const secrets = [...ctx.session.artifacts.values()].filter((a) => a.kind === 'secret').map((a) => a.path);
        if (secrets.length)
          ctx.emit(
            'OPENCODE_SECRET_FILE',
            { file: secrets[0]! },
            `${secrets.length} credential file(s) (${secrets.slice(0, 3).join(', ')}` +
              `${secrets.length > 3 ? ', …' : ''}` +
              '), never read: no bag holds them',
          );
      },
    };
  },
});

const ERA_RANK: Record<string, number> = { E0: 0, E1: 1, E2: 2, E3: 3 };

function legacy(
  stores: readonly StoreSessions[],
  emit: (
    c: 'OPENCODE_LEGACY_NOT_IMPORTED' | 'OPENCODE_LEGACY_DIVERGED',
    at: { file: string },
    m: string,
    o: { key: string },
  ) => void,
): void {
  const dbs = stores.filter((x) => (ERA_RANK[x.era] ?? 2) >= 2);
  const e1 = stores.find((x) => x.era === 'E1');
  for (const tree of stores.filter((x) => x.era === 'E0' || x.era === 'E1')) {
    const newer = tree.era === 'E0' ? [...(e1 ? [e1] : []), ...dbs] : dbs;
    if (!newer.length) continue;
    for (const x of tree.sessions) {
      const hits = newer.flatMap((st) => st.sessions.filter((y) => y.id === x.id).map((y) => ({ st, y })));
      if (!hits.length) {
        const why =
          tree.era === 'E0'
            ? 'an E0 per-project session (the `global` project is never migrated)'
            : 'an E1 session the one-time import did not copy (or the database no longer has)';
        emit(
          'OPENCODE_LEGACY_NOT_IMPORTED',
          { file: x.file || tree.store },
          `session ${x.id}${x.title ? ` (${JSON.stringify(x.title)})` : ''} is ${why}; ` +
            `${newer.map((n) => n.store).join(', ')} ` +
            `does not hold it (${x.messages} message(s), ${x.parts} part(s) here)`,
          { key: x.id },
        );
        continue;
      }
      for (const { st, y } of hits)
        if (y.messages !== x.messages || y.parts !== x.parts)
          emit(
            'OPENCODE_LEGACY_DIVERGED',
            { file: x.file || tree.store },
            `session ${x.id}: the ${tree.era} tree holds ${x.messages} message(s) and ${x.parts} part(s), ` +
              `${st.store} ` +
              `${y.messages} and ${y.parts}`,
            { key: `${x.id}:${st.store}` },
          );
    }
  }
}
