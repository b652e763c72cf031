/**
 * `verify --store`'s look at the index: it is derived data, but `search` answers from it, so an index that says
 * something the records do not is a finding (STORE_INDEX_MISMATCH), never a silent wrong answer. Checked: that it
 * covers every record and no other (freshness.ts), the hash of each record it was built from, its sessions, captures
 * and files rows against the records, every event, tool call and finding row against its digest (row-digest.ts),
 * and the full-text index against the events it indexes (FTS5's integrity-check).
 */
import Database from 'better-sqlite3';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { privateTempDir } from '../../read/private-temp.js';
import type { StoreProblem } from '../../store/chain-checks.js';
import type { StoreState } from '../../store/open.js';
import { ranges, staleness } from './freshness.js';
import { cellsHash, DIGESTED, eventDigest, ROWS_VIEW, rowDigest, type Cell, type DigestedTable } from './row-digest.js';
import { INDEX_NAME, indexPath, readIndex, type Db } from './schema.js';

const mismatch = (place: string, message: string): StoreProblem => ({
  code: 'STORE_INDEX_MISMATCH',
  place,
  message: `${message}; archive --reindex rebuilds it from the records`,
});

export function verifyIndex(store: string, state: StoreState): StoreProblem[] {
  const db = readIndex(store);
  if (typeof db === 'string') return [];
  try {
    return checkIndex(store, state, db);
  } catch (e) {
    // A journal a killed run left (only a writer may roll it back), a damaged file: derived data, said so.
    const code = (e as { code?: string }).code;
    if (code === undefined || !code.startsWith('SQLITE')) throw e;
    return [mismatch('index.sqlite', `the index cannot be read (${code}: ${(e as Error).message})`)];
  } finally {
    db.close();
  }
}

function checkIndex(store: string, state: StoreState, db: Db): StoreProblem[] {
  const out: StoreProblem[] = [];
  const stale = staleness(store, db);
  if (stale !== undefined) out.push(mismatch('index.sqlite', `the index does not answer for the store: ${stale}`));
  const chain = db.prepare('SELECT seq, sha256 FROM chain ORDER BY seq').all() as Array<{
    seq: number;
    sha256: string;
  }>;
  const rehashed = chain.filter((r) => state.hashes.has(r.seq) && state.hashes.get(r.seq) !== r.sha256);
  if (rehashed.length)
    out.push(
      mismatch(
        'index.sqlite',
        `it was built from other versions of capture record(s) ${rehashed.map((r) => r.seq).join(', ')}`,
      ),
    );
  out.push(...recordRows(db, state));
  for (const table of Object.keys(DIGESTED) as DigestedTable[]) {
    const bad = digestFailures(db, table);
    if (bad.count)
      out.push(
        mismatch(
          `index.sqlite: ${table}`,
          `${bad.count} row(s) do not match their digest (first: id ${bad.first}): edited after they were written`,
        ),
      );
  }
  const fts = ftsProblem(store);
  if (fts !== undefined)
    out.push(mismatch('index.sqlite: events_fts', `the full-text index does not match the events (${fts})`));
  return out;
}

function digestFailures(db: Db, table: DigestedTable): { count: number; first?: number } {
  const cols = DIGESTED[table];
  let count = 0;
  let first: number | undefined;
  // Through the table's view: a path or a kind named by a row and edited, or missing, fails its digest too.
  // An event's digest ends with its flags (row-digest.ts).
  const events = table === 'events';
  const rows = db
    .prepare(`SELECT id, digest, ${events ? 'flags' : 'NULL'}, ${cols.join(', ')} FROM ${ROWS_VIEW[table]} ORDER BY id`)
    .raw()
    .iterate();
  for (const row of rows as Iterable<Cell[]>) {
    const [id, digest, flags, ...cells] = row as [Cell, unknown, Cell, ...Cell[]];
    const flagsOk = !events || (Number.isInteger(flags) && (flags as number) >= 0 && (flags as number) <= 3);
    const want = !flagsOk ? undefined : events ? eventDigest(cellsHash(cells), flags as number) : rowDigest(cells);
    if (!want || !(digest instanceof Buffer) || !want.equals(digest)) {
      count++;
      first ??= id as number;
    }
  }
  return { count, ...(first !== undefined ? { first } : {}) };
}

/**
 * Each capture's events are as many rows as it says, in one run of ids from its `first_event`, the runs one after
 * the other in capture order and covering every event: an event belongs to the capture whose run holds it (what
 * search and the update rely on). The captures whose runs are not so.
 */
function eventRuns(db: Db, caps: ReadonlyArray<{ seq: number; events: number; first_event: number | null }>) {
  const bad = new Set<number>();
  for (const c of caps) if (c.events === 0 && c.first_event !== null) bad.add(c.seq);
  const runs = caps.filter((c) => c.events !== 0).sort((a, b) => Number(a.first_event) - Number(b.first_event));
  const ids = (db.prepare('SELECT id FROM events ORDER BY id').pluck().iterate() as IterableIterator<number>)[
    Symbol.iterator
  ]();
  try {
    // The runs, in order, take the ids one by one: each must be the next of its run.
    for (const run of runs) {
      const n = Number.isInteger(run.events) && run.events > 0 ? run.events : 0;
      if (n === 0) bad.add(run.seq);
      for (let j = 0; j < n; j++) {
        const id = ids.next();
        if (id.done || id.value !== Number(run.first_event) + j) bad.add(run.seq);
        if (id.done) break;
      }
    }
    // Events beyond every run: no capture holds them.
    if (!ids.next().done) bad.add(runs[runs.length - 1]?.seq ?? caps[caps.length - 1]?.seq ?? 0);
  } finally {
    ids.return?.();
  }
  return [...bad];
}

/** The sessions, captures and files rows against the records they were copied from. */
function recordRows(db: Db, state: StoreState): StoreProblem[] {
  const bySeq = new Map(state.records.map((r) => [r.seq, r]));
  const wrong = { captures: [] as number[], files: [] as number[], sessions: [] as string[], events: [] as number[] };
  const caps = db
    .prepare(
      `SELECT c.seq, s.key, c.run, c.status, c.previous, c.files, c.bytes, c.events, c.first_event FROM captures c
       LEFT JOIN sessions s ON s.sid = c.session ORDER BY c.seq`,
    )
    .all() as Array<{
    seq: number;
    key: string;
    run: string;
    status: string;
    previous: number | null;
    files: number;
    bytes: number;
    events: number;
    first_event: number | null;
  }>;
  wrong.events.push(...eventRuns(db, caps));
  for (const c of caps) {
    const r = bySeq.get(c.seq);
    if (!r) continue;
    const bytes = r.files.reduce((n, f) => n + (f.type === 'file' ? f.size : 0), 0);
    if (
      c.key !== r.session.key ||
      c.run !== r.run ||
      c.status !== r.status ||
      c.previous !== (r.previous ?? null) ||
      c.files !== r.files.length ||
      c.bytes !== bytes
    )
      wrong.captures.push(c.seq);
  }
  const files = db.prepare('SELECT * FROM file_rows').all() as Array<Record<string, Cell>>;
  const byCapture = new Map<number, Map<string, Record<string, Cell>>>();
  for (const f of files) {
    const m = byCapture.get(f.capture as number) ?? new Map<string, Record<string, Cell>>();
    m.set(f.path as string, f);
    byCapture.set(f.capture as number, m);
  }
  for (const [seq, rows] of byCapture) {
    const r = bySeq.get(seq);
    if (!r) continue;
    const same =
      rows.size === r.files.length &&
      r.files.every((f) => {
        const row = rows.get(f.path);
        return (
          row !== undefined &&
          row.type === f.type &&
          row.size === f.size &&
          row.mtime_ms === f.mtimeMs &&
          row.mode === f.mode &&
          row.sha256 === (f.sha256 ?? null) &&
          row.grew_from === (r.grewFrom[f.path] ?? null) &&
          row.read_error === (f.readError ?? null)
        );
      });
    if (!same) wrong.files.push(seq);
  }
  const latest = new Map(state.records.map((r) => [r.session.key, r]));
  const sessions = db.prepare('SELECT * FROM sessions').all() as Array<Record<string, Cell>>;
  for (const s of sessions) {
    const r = latest.get(s.key as string);
    if (!r) continue;
    if (
      s.id !== r.session.id ||
      s.format !== r.session.format ||
      s.display !== r.session.display ||
      s.abs !== r.session.abs ||
      s.root !== r.session.root ||
      s.group_name !== (r.session.groupName ?? null) ||
      s.status !== r.status
    )
      wrong.sessions.push(s.key as string);
  }
  const out: StoreProblem[] = [];
  if (wrong.captures.length)
    out.push(
      mismatch('index.sqlite: captures', `capture row(s) ${wrong.captures.join(', ')} differ from their records`),
    );
  if (wrong.files.length)
    out.push(
      mismatch('index.sqlite: files', `the files of capture(s) ${wrong.files.join(', ')} differ from their records`),
    );
  if (wrong.events.length)
    out.push(
      mismatch(
        'index.sqlite: captures',
        `the event rows of capture(s) ${ranges(wrong.events)} are not those their capture rows count`,
      ),
    );
  if (wrong.sessions.length)
    out.push(
      mismatch(
        'index.sqlite: sessions',
        `${wrong.sessions.length} session row(s) differ from their latest record (first: ${wrong.sessions[0]})`,
      ),
    );
  return out;
}

/**
 * FTS5's integrity-check (with rank 1: the index against its content table) needs a connection that may write, and
 * the store is never written by verify: it runs on a private copy of the index.
 */
function ftsProblem(store: string): string | undefined {
  const dir = privateTempDir('index-check');
  try {
    const copy = join(dir, INDEX_NAME);
    copyFileSync(indexPath(store), copy);
    const db = new Database(copy, { fileMustExist: true });
    try {
      db.prepare("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)").run();
      return undefined;
    } catch (e) {
      return (e as Error).message;
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
