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
import { readState } from '../../store/open.js';
import type { CaptureRecord } from '../../store/record.js';
import type { PairRow } from '../../pairing/pairing-result.js';
import type { TimelineEvent } from '../../timeline/model.js';
import { captureFacts, GROUP_FILES } from './extract.js';
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

const digest = (...parts: ReadonlyArray<string | number | null | undefined>): string =>
  createHash('sha256')
    .update(parts.map((p) => String(p ?? '')).join('\0'))
    .digest('hex')
    .slice(0, 16);

export interface IndexOptions {
  reindex?: boolean;
  records?: readonly CaptureRecord[];
  /** Captures indexed so far, of those to index. */
  onProgress?: (done: number, total: number) => void;
}

export function updateIndex(store: string, opts: IndexOptions = {}) {
  const records = opts.records ?? readState(store).records;
  const db = openIndex(store, opts.reindex ?? false);
  try {
    return indexRecords(db, store, records, opts.onProgress);
  } finally {
    db.close();
  }
}

function indexRecords(
  db: Db,
  store: string,
  records: readonly CaptureRecord[],
  onProgress?: (done: number, total: number) => void,
): IndexOutcome {
  const out: IndexOutcome = { captures: 0, events: 0, calls: 0, findings: 0, notIndexed: 0 };
  const r = redactor();
  const clean = (s: string): string => redactText(s, r).text;
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
      `INSERT OR IGNORE INTO events (session, capture, file, line, byte, time, time_ms, kind, tag, tool_call_id,
         tool_status, rewound, compacted, summary, text, digest)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    counted: db.prepare('UPDATE captures SET events = ?, not_indexed = ? WHERE seq = ?'),
    sid: db.prepare('SELECT sid FROM sessions WHERE key = ?').pluck(),
    fts: db.prepare('INSERT INTO events_fts (rowid, text) VALUES (?, ?)'),
    call: db.prepare(
      `INSERT OR IGNORE INTO tool_calls (session, capture, call_id, name, kind, arguments, status, may_mutate,
         prompt_index, file, line, byte, digest)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    finding: db.prepare(
      `INSERT OR IGNORE INTO findings (session, capture, code, severity, file, line, byte, message, fingerprint)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
  // Commits in batches (one fsync per batch, not per capture); a run killed between them leaves every batch
  // committed before, and the next run goes on from the last indexed capture.
  // Each batch starts from the last capture indexed, read under the write lock: a concurrent run that indexed some
  // of the same captures first is not repeated.
  const last = db.prepare('SELECT max(seq) AS n FROM captures');
  const before = (last.get() as { n: number | null }).n ?? 0;
  const total = records.filter((r) => r.seq > before).length;
  const batch = db.transaction((from: number) => {
    const done = (last.get() as { n: number | null }).n ?? 0;
    let n = 0;
    for (let i = from; i < records.length && n < BATCH; i++) {
      if (records[i]!.seq <= done) continue;
      indexOne(records[i]!);
      n++;
    }
  });
  for (let i = 0; i < records.length; i += BATCH) batch.immediate(i);
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
          f.path,
          f.type,
          f.size,
          f.mtimeMs,
          f.mode,
          f.sha256 ?? null,
          rec.grewFrom[f.path] ?? null,
          f.readError ?? null,
        );
      // What the capture itself found (a rewritten log, a missing one): kept even when nothing else is indexed.
      for (const f of rec.findings)
        out.findings += q.finding.run(
          key,
          rec.seq,
          f.code,
          f.code === 'BUNDLE_NOT_APPEND_ONLY' ? 'error' : 'warning',
          f.file,
          f.line ?? null,
          null,
          clean(f.message),
          `capture:${rec.seq}:${digest(f.code, f.file, f.line, f.message)}`,
        ).changes;
    })();
    // The contents, in a savepoint of their own: a capture that fails half-way adds nothing but its reason.
    const n = { events: 0, calls: 0, findings: 0 };
    let why: string | undefined;
    try {
      db.transaction(() => {
        const facts = captureFacts(store, rec, (e) => {
          if (insertEvent(key, rec.seq, e)) n.events++;
        });
        if (typeof facts === 'string') {
          if (rec.status !== 'deleted') why = facts;
          return;
        }
        for (const c of facts.calls) n.calls += insertCall(key, rec.seq, c);
        for (const f of facts.findings)
          n.findings += q.finding.run(
            key,
            rec.seq,
            f.code,
            f.severity,
            f.location.file,
            f.location.line ?? null,
            f.location.byteOffset ?? null,
            clean(f.message),
            f.fingerprint,
          ).changes;
      })();
    } catch (e) {
      // A damaged stored version, a format that cannot load it: the capture is listed, its contents are not.
      why = `not indexed: ${(e as Error).message}`;
      n.events = n.calls = n.findings = 0;
    }
    q.counted.run(n.events, why ?? null, rec.seq);
    out.events += n.events;
    out.calls += n.calls;
    out.findings += n.findings;
    if (why !== undefined && why !== GROUP_FILES) out.notIndexed++;
    out.captures++;
    onProgress?.(out.captures, Math.max(total, out.captures));
  }

  function insertEvent(key: number, seq: number, e: TimelineEvent): boolean {
    const text = clean(e.text);
    const summary = clean(e.summary);
    const info = q.event.run(
      key,
      seq,
      e.file,
      e.line,
      e.byteOffset,
      e.time,
      e.timeMs,
      e.kind,
      e.tag,
      e.toolCallId ?? null,
      e.toolStatus ?? null,
      e.rewound ? 1 : 0,
      e.compacted ? 1 : 0,
      summary,
      text,
      digest(e.kind, e.tag, e.toolStatus, e.rewound ? 1 : 0, e.compacted ? 1 : 0, text),
    );
    if (!info.changes) return false;
    q.fts.run(info.lastInsertRowid, text);
    return true;
  }

  function insertCall(key: number, seq: number, c: PairRow): number {
    const at = c.call ?? c.logCall;
    const args = c.args !== undefined ? clean(c.args) : null;
    const name = clean(c.name);
    return q.call.run(
      key,
      seq,
      c.id,
      name,
      c.kind ?? null,
      args,
      c.status,
      c.mutating ? 1 : 0,
      c.promptIndex ?? null,
      at?.file ?? null,
      at?.line ?? null,
      at?.byteOffset ?? null,
      digest(name, c.kind, args, c.status, at?.file, at?.byteOffset),
    ).changes;
  }
}
