/**
 * Bringing the index up to date with the capture records: every record not yet indexed, in sequence order (after
 * `archive`: only the new captures; `--reindex`: all of them, from an empty index). The same records in the same
 * order give the same rows, so a rebuilt index answers every query as the incremental one did.
 *
 * A line already indexed from an earlier capture of the session (same file, byte offset and content) is not
 * indexed again: a grown log adds only its new lines, and each row names the first capture that held it. Every
 * text is redacted with the secret detectors (secrets/) before it is stored, so neither the index nor a snippet
 * ever holds a secret they find.
 */
import { createHash } from 'node:crypto';
import { redactor, redactText } from '../../bundle/redact.js';
import { readState, type StoreState } from '../../store/open.js';
import type { CaptureRecord } from '../../store/record.js';
import type { PairRow } from '../../pairing/pairing-result.js';
import { FactsPool, WorkerLost, type IndexedEvent } from '../parallel/index-facts.js';
import { captureFacts, GROUP_FILES } from './extract.js';
import { HOME_UNKNOWN } from './home-facts.js';
import { LineKeys, NameIds } from './row-ids.js';
import { COMPACTED, cellsHash, eventDigest, REWOUND, rowDigest, type Cell } from './row-digest.js';
import { openIndex, type Db } from './schema.js';

export interface IndexOutcome {
  /** Captures indexed by this run, and rows added. */
  captures: number;
  events: number;
  calls: number;
  findings: number;
  /** Captures whose files could not be indexed (the reason is in captures.not_indexed). */
  notIndexed: number;
}

const BATCH = 64;

const HEX32 = /^[0-9a-f]{32}$/;

const digest = (...parts: ReadonlyArray<string | number | null | undefined>): string =>
  createHash('sha256')
    .update(parts.map((p) => String(p ?? '')).join('\0'))
    .digest('hex')
    .slice(0, 16);

export interface IndexOptions {
  reindex?: boolean;
  /** The store as read (the caller holds its lock); read here when not given. */
  state?: StoreState;
  /** Captures indexed so far, of those to index. */
  onProgress?: (done: number, total: number) => void;
}

/** One record of the chain as the index keeps it: its number and file hash, and the capture itself (not a gap). */
interface ChainEntry {
  seq: number;
  sha256: string;
  record?: CaptureRecord;
}

/**
 * Bring the index up to date with the chain (the caller holds the store's lock). An index that names a record the
 * chain does not hold, or holds under another hash (a gap, an edit), is rebuilt from nothing, beside the live one.
 */
export function updateIndex(store: string, opts: IndexOptions = {}): IndexOutcome {
  const state = opts.state ?? readState(store);
  const byseq = new Map(state.records.map((r) => [r.seq, r]));
  const chain: ChainEntry[] = [...state.hashes].map(([seq, sha256]) => ({
    seq,
    sha256,
    ...(byseq.has(seq) ? { record: byseq.get(seq)! } : {}),
  }));
  let w = openIndex(store, opts.reindex ?? false);
  if (!opts.reindex && !agrees(w.db, state)) {
    w.abandon();
    w = openIndex(store, true);
  }
  let ok = false;
  // The captures read in worker threads ahead of the inserts, when there are enough of them (parallel/).
  let pool: FactsPool | undefined;
  try {
    const before = (w.db.prepare('SELECT max(seq) AS n FROM chain').get() as { n: number | null }).n ?? 0;
    pool = FactsPool.start(
      store,
      chain.flatMap((c) => (c.record && c.seq > before ? [c.record] : [])),
    );
    const read = pool
      ? pool.facts.bind(pool)
      : (rec: CaptureRecord, onEvent: (e: IndexedEvent) => void) => captureFacts(store, rec, onEvent);
    const out = indexRecords(w.db, read, chain, opts.onProgress);
    ok = true;
    return out;
  } finally {
    pool?.close();
    if (ok) w.done();
    else w.abandon();
  }
}

/** Every record the index names is in the chain under the same hash. */
function agrees(db: Db, state: StoreState): boolean {
  const rows = db.prepare('SELECT seq, sha256 FROM chain').all() as Array<{ seq: number; sha256: string }>;
  return rows.every((r) => state.hashes.get(r.seq) === r.sha256);
}

/** The facts of a capture, its events given as they come (captureFacts, here or in a worker). */
type ReadFacts = (rec: CaptureRecord, onEvent: (e: IndexedEvent) => void) => ReturnType<typeof captureFacts>;

function indexRecords(
  db: Db,
  read: ReadFacts,
  chain: readonly ChainEntry[],
  onProgress?: (done: number, total: number) => void,
): IndexOutcome {
  const out: IndexOutcome = { captures: 0, events: 0, calls: 0, findings: 0, notIndexed: 0 };
  const r = redactor();
  // A `…` may be where a text was cut (a summary, a clipped quote): a secret reaching one goes as far as it goes.
  const clean = (s: string): string => redactText(s, r, true).text;
  const ids = new NameIds(db);
  const lines = new LineKeys(db);
  const q = {
    session: db.prepare(
      `INSERT INTO sessions (key, id, format, display, abs, root, group_name, first_capture, last_capture, status,
         first_run, last_run)
       VALUES (@key, @id, @format, @display, @abs, @root, @group, @seq, @seq, @status, @run, @run)
       ON CONFLICT (key) DO UPDATE SET id = @id, display = @display, last_capture = @seq, status = @status,
         last_run = @run`,
    ),
    capture: db.prepare(
      `INSERT INTO captures (seq, session, run, status, previous, files, bytes, events, not_indexed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    file: db.prepare(
      `INSERT INTO files (capture, path, type, size, mtime_ms, mode, sha256, grew_from, read_error)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    event: db.prepare(
      `INSERT INTO events (file, line, byte, time_ms, kind, tool_call_id, flags, text, digest)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    // A line indexed from an earlier capture that a later line has since rewound or compacted: its flags follow.
    flags: db.prepare('UPDATE events SET flags = ?, digest = ? WHERE id = ?'),
    counted: db.prepare('UPDATE captures SET events = ?, first_event = ?, not_indexed = ? WHERE seq = ?'),
    sid: db.prepare('SELECT sid FROM sessions WHERE key = ?').pluck(),
    fts: db.prepare('INSERT INTO events_fts (rowid, text) VALUES (?, ?)'),
    call: db.prepare(
      `INSERT OR IGNORE INTO tool_calls (session, capture, call_id, name, kind, arguments, status, may_mutate,
         prompt_index, file, line, byte, digest)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    finding: db.prepare(
      `INSERT OR IGNORE INTO findings (session, capture, code, severity, file, line, byte, message, fingerprint,
         digest)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
  // Commits in batches (one fsync per batch, not per capture); a run killed between them leaves every batch
  // committed before, and the next run goes on from the last indexed capture.
  // Each batch starts from the last capture indexed, read under the write lock: a concurrent run that indexed some
  // of the same captures first is not repeated.
  const last = db.prepare('SELECT max(seq) AS n FROM chain');
  const link = db.prepare('INSERT INTO chain (seq, kind, sha256) VALUES (?, ?, ?)');
  const before = (last.get() as { n: number | null }).n ?? 0;
  const total = chain.filter((c) => c.record && c.seq > before).length;
  /** The last record this run indexed (or found indexed): another run's work since shows as a later one. */
  let lastDone = before;
  const batch = db.transaction((from: number) => {
    const done = (last.get() as { n: number | null }).n ?? 0;
    // Read again under the write lock: another run may have added lines of the same sessions since.
    if (done !== lastDone) lines.forget();
    let n = 0;
    for (let i = from; i < chain.length && n < BATCH; i++) {
      const c = chain[i]!;
      if (c.seq <= done) continue;
      if (c.record) indexOne(c.record);
      link.run(c.seq, c.record ? 'capture' : 'gap', c.sha256);
      lastDone = c.seq;
      n++;
    }
  });
  for (let i = 0; i < chain.length; i += BATCH) {
    try {
      batch.immediate(i);
    } catch (e) {
      // Ids handed out in a batch that did not commit name nothing.
      ids.forget();
      lines.forget();
      throw e;
    }
  }
  return out;

  function indexOne(rec: CaptureRecord): void {
    /** The session's row number: what every other table names it by (a 32-hex key on each row cost a quarter). */
    let key = 0;
    db.transaction(() => {
      q.session.run({
        key: rec.session.key,
        id: rec.session.id,
        format: rec.session.format,
        display: rec.session.display,
        abs: rec.session.abs,
        root: rec.session.root,
        group: rec.session.groupName ?? null,
        seq: rec.seq,
        status: rec.status,
        run: rec.run,
      });
      key = q.sid.get(rec.session.key) as number;
      const bytes = rec.files.reduce((n, f) => n + (f.type === 'file' ? f.size : 0), 0);
      q.capture.run(rec.seq, key, rec.run, rec.status, rec.previous ?? null, rec.files.length, bytes, 0, null);
      for (const f of rec.files)
        q.file.run(
          rec.seq,
          ids.path(f.path),
          f.type,
          f.size,
          f.mtimeMs,
          f.mode,
          f.sha256 !== undefined ? Buffer.from(f.sha256, 'hex') : null,
          rec.grewFrom[f.path] ?? null,
          f.readError ?? null,
        );
      // What the capture itself found (a rewritten log, a missing one): kept even when nothing else is indexed.
      for (const f of rec.findings)
        out.findings += insertFinding(key, rec.seq, [
          f.code,
          f.code === 'BUNDLE_NOT_APPEND_ONLY' ? 'error' : 'warning',
          f.file,
          f.line ?? null,
          null,
          clean(f.message),
          `capture:${rec.seq}:${digest(f.code, f.file, f.line, f.message)}`,
        ]);
    })();
    // The contents, in a savepoint of their own: a capture that fails half-way adds nothing but its reason.
    const n = { events: 0, calls: 0, findings: 0, first: null as number | null };
    let why: string | undefined;
    const contents = db.transaction(() => {
      const seen = lines.of(key, rec.seq);
      const facts = read(rec, (e) => {
        const id = insertEvent(seen, e);
        if (id !== undefined) {
          n.first ??= id;
          n.events++;
        }
      });
      if (typeof facts === 'string') {
        if (rec.status !== 'deleted') why = facts;
        return;
      }
      for (const c of facts.calls) n.calls += insertCall(key, rec.seq, c);
      for (const f of facts.findings)
        n.findings += insertFinding(key, rec.seq, [
          f.code,
          f.severity,
          f.location.file,
          f.location.line ?? null,
          f.location.byteOffset ?? null,
          clean(f.message),
          f.fingerprint,
        ]);
    });
    try {
      try {
        contents();
      } catch (e) {
        // A worker lost half-way through: what it sent is undone, and the capture is read again here.
        if (!(e instanceof WorkerLost)) throw e;
        ids.forget();
        lines.forget();
        Object.assign(n, { events: 0, calls: 0, findings: 0, first: null });
        contents();
      }
    } catch (e) {
      // A damaged stored version, a format that cannot load it: the capture is listed, its contents are not.
      why = `not indexed: ${(e as Error).message}`;
      n.events = n.calls = n.findings = 0;
      n.first = null;
      // What the savepoint added is gone: ids and line keys handed out in it name nothing.
      ids.forget();
      lines.forget();
    }
    q.counted.run(n.events, n.first, why ?? null, rec.seq);
    out.events += n.events;
    out.calls += n.calls;
    out.findings += n.findings;
    if (why !== undefined && why !== GROUP_FILES && why !== HOME_UNKNOWN) out.notIndexed++;
    out.captures++;
    onProgress?.(out.captures, Math.max(total, out.captures));
  }

  /** The event's row (its id), or undefined when an earlier row holds the line (its flags then follow this one). */
  function insertEvent(seen: ReturnType<LineKeys['of']>, e: IndexedEvent): number | undefined {
    // The characters search marks its matches with (search.ts) never come from the text.
    const text = clean(e.text).replace(/[\u0002\u0003]/g, '\ufffd');
    const timeMs = e.timeMs !== null && Number.isFinite(e.timeMs) ? e.timeMs : null;
    // In DIGESTED.events' order.
    const cells = [
      e.file,
      e.line,
      e.byteOffset,
      timeMs,
      e.kind,
      e.tag,
      e.toolCallId ?? null,
      e.toolStatus ?? null,
      text,
    ] as const;
    const [file, line, byte, time, kind, tag, callId, status] = cells;
    const flags = (e.rewound ? REWOUND : 0) | (e.compacted ? COMPACTED : 0);
    const lineHash = cellsHash(cells);
    const held = seen.get(lineHash);
    if (held) {
      if (flags && held.flags !== flags) {
        q.flags.run(flags, eventDigest(lineHash, flags), held.id);
        held.flags = flags;
      }
      return undefined;
    }
    const info = q.event.run(
      ids.path(file),
      line,
      byte,
      time,
      ids.kind(kind, tag, status),
      callId,
      flags,
      text,
      eventDigest(lineHash, flags),
    );
    const id = Number(info.lastInsertRowid);
    seen.set(lineHash, { id, flags });
    q.fts.run(id, text);
    return id;
  }

  function insertCall(key: number, seq: number, c: PairRow): number {
    const at = c.call ?? c.logCall;
    const args = c.args !== undefined ? clean(c.args) : null;
    // In DIGESTED.tool_calls' order.
    const cells = [
      c.id,
      clean(c.name),
      c.kind ?? null,
      args,
      c.status,
      c.mutating ? 1 : 0,
      c.promptIndex ?? null,
      at?.file ?? null,
      at?.line ?? null,
      at?.byteOffset ?? null,
    ] as const;
    const [id, name, kind, a, status, mutating, prompt, file, line, byte] = cells;
    return q.call.run(
      key,
      seq,
      id,
      name,
      kind,
      a,
      status,
      mutating,
      prompt,
      file !== null ? ids.path(file) : null,
      line,
      byte,
      rowDigest(cells),
    ).changes;
  }

  /** A finding's row; its cells in DIGESTED.findings' order. */
  function insertFinding(
    key: number,
    seq: number,
    cells: readonly [string, string, string, Cell, Cell, string, string],
  ) {
    const [code, severity, file, line, byte, message, fingerprint] = cells;
    // An audit's fingerprint (32 hex digits) is kept as its 16 bytes; finding_rows shows it in hex again.
    const fp = HEX32.test(fingerprint) ? Buffer.from(fingerprint, 'hex') : fingerprint;
    return q.finding.run(key, seq, code, severity, ids.path(file), line, byte, message, fp, rowDigest(cells)).changes;
  }
}
