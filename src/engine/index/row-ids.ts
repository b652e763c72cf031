/**
 * What the update names by number: the paths of files (`paths`) and the kinds of events with their wire tags and
 * tool statuses (`kinds`), each a row of its own that every other row names by id; and the lines a session's
 * earlier captures already hold, by their hash (row-digest.ts), so that a grown log adds only its new lines. Both
 * are caches of what the index holds: `forget` drops them when a savepoint or a batch that handed some out is
 * rolled back.
 */
import { cellsHash, DIGESTED, type Cell } from './row-digest.js';
import type { Db } from './schema.js';

export class NameIds {
  private readonly paths = new Map<string, number>();
  private readonly kinds = new Map<string, number>();
  private readonly q;

  constructor(db: Db) {
    this.q = {
      path: db.prepare('SELECT id FROM paths WHERE path = ?').pluck(),
      addPath: db.prepare('INSERT INTO paths (path) VALUES (?)'),
      kind: db.prepare('SELECT id FROM kinds WHERE kind = ? AND tag = ? AND tool_status IS ?').pluck(),
      addKind: db.prepare('INSERT INTO kinds (kind, tag, tool_status) VALUES (?, ?, ?)'),
    };
  }

  path(p: string): number {
    let id = this.paths.get(p);
    if (id === undefined) {
      id = (this.q.path.get(p) as number | undefined) ?? Number(this.q.addPath.run(p).lastInsertRowid);
      this.paths.set(p, id);
    }
    return id;
  }

  kind(kind: string, tag: string, status: string | null): number {
    const k = `${kind}\u0000${tag}\u0000${status === null ? '\u0001' : status}`;
    let id = this.kinds.get(k);
    if (id === undefined) {
      id =
        (this.q.kind.get(kind, tag, status) as number | undefined) ??
        Number(this.q.addKind.run(kind, tag, status).lastInsertRowid);
      this.kinds.set(k, id);
    }
    return id;
  }

  forget(): void {
    this.paths.clear();
    this.kinds.clear();
  }
}

/** A line a session's captures hold: its row, and the flags it has now. */
export interface HeldLine {
  id: number;
  flags: number;
}

/** The lines of a session by key (hex), those of earlier captures read from the index. */
export type SessionLines = Map<string, HeldLine>;

/** Lines kept for this many at most (a re-index of many captures of few sessions reads each session's once). */
const KEEP_LINES = 500_000;

export class LineKeys {
  private readonly sessions = new Map<number, SessionLines>();
  private kept = 0;
  private readonly q;

  constructor(db: Db) {
    this.q = {
      // Each capture's rows are the ids it added, in one run of numbers from its first (update.ts).
      captures: db.prepare(
        `SELECT seq, first_event, events FROM captures
         WHERE session = ? AND seq < ? AND events > 0 AND first_event IS NOT NULL ORDER BY seq`,
      ),
      rows: db
        .prepare(`SELECT id, flags, ${DIGESTED.events.join(', ')} FROM event_rows WHERE id BETWEEN ? AND ? ORDER BY id`)
        .raw(),
    };
  }

  /** The lines session `sid` holds before capture `seq`. */
  of(sid: number, seq: number): SessionLines {
    const have = this.sessions.get(sid);
    if (have) return have;
    const lines: SessionLines = new Map();
    const caps = this.q.captures.all(sid, seq) as Array<{ seq: number; first_event: number; events: number }>;
    for (const c of caps)
      for (const row of this.q.rows.iterate(c.first_event, c.first_event + c.events - 1) as Iterable<Cell[]>) {
        const [id, flags, ...cells] = row;
        lines.set(cellsHash(cells), { id: id as number, flags: flags as number });
      }
    if (this.kept + lines.size > KEEP_LINES) this.forget();
    this.kept += lines.size;
    this.sessions.set(sid, lines);
    return lines;
  }

  forget(): void {
    this.sessions.clear();
    this.kept = 0;
  }
}
