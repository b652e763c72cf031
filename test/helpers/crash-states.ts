/**
 * The crash-state corpus (issue 9 §2), generated at test time from corpora/grok/clean's main session.
 *
 * Failure models: SQLite's crash tests (a crash leaves the tail of the last write torn at any byte, or the
 * sectors of an unfinished write zero-filled or holding garbage) and the ALICE study (Pillai et al., OSDI '14:
 * appends persist in page-sized pieces, an append can extend the size before its data lands, a rename is not
 * ordered with the write before it, two separate writes can land in either order). Each state is a small,
 * deterministic edit of a copy of the clean session, with the finding codes it must produce and the ones it
 * may produce besides (the consequences the damage has on the cross-file checks).
 *
 * The states: the last record of each append-only log (updates, chat_history, rewind_points, feedback, btw)
 * truncated at every byte, plus a multi-byte append torn at every byte; a zero-filled last record, zeros to the
 * page end, a torn record followed by zeros; garbage replacing or following the last record, and a healed
 * tear; 4096-byte-aligned truncations and a zeroed last page; temp files left between write and rename
 * (summary.json, chat_history.jsonl, rewind_points.jsonl; U1 and U2 names; torn, empty, identical); a
 * checkpoint file without its marker line and markers without their file; a checkpoint torn by its in-place
 * write; summary.json torn by a non-atomic writer.
 *
 * States are materialised as separate sessions roots under one directory, so one `audit` call covers many:
 *   <base>/<n>/sessions/%2Fhome%2Fdev%2Fproj/<main id>/…   the damaged copy
 *   <base>/<n>/sessions/%2Fhome%2Fdev%2Fproj/<child id>/…  its subagent's session, untouched (so the clean
 *                                                          baseline has no finding at all)
 * Unchanged files are hard links to one template (<base>/.template, dot-prefixed so discovery skips it): a
 * thousand copies cost little, and the edits replace links rather than write through them.
 */
import { cpSync, linkSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPORA } from './corpora.js';

export const GROUP = '%2Fhome%2Fdev%2Fproj';
export const CLEAN_GROUP = join(CORPORA, 'grok', 'clean', 'sessions', GROUP);
export const MAIN_ID = '019a3f2c-1d00-7a3e-8000-00000000a001';
export const CHILD_ID = '019a3f2e-0f10-7c42-8000-00000000a003';
export const CHECKPOINT = 'compaction_checkpoints/5d0c9a8e-3b7f-4c21-9e6a-1f2b3c4d5e6f.json';
const MAIN = join(CLEAN_GROUP, MAIN_ID);

/**
 * The clean main session has no feedback.jsonl or btw_history.jsonl; the crash-state copies get two valid records
 * of each (formats/grok-build.md §2.7), so that all five logs Grok appends to with torn-tail healing are covered.
 */
export const SMALL_LOGS: Record<string, string> = {
  'feedback.jsonl': [
    {
      type: 'user_feedback',
      submittedAt: '2026-08-19T09:30:50.000000Z',
      sessionId: MAIN_ID,
      turnNumber: 2,
      solicited: false,
      submission: { rating: 'good', comment: 'fast fix' },
    },
    {
      type: 'user_feedback',
      submittedAt: '2026-08-19T09:31:21.000000Z',
      sessionId: MAIN_ID,
      turnNumber: 3,
      solicited: true,
      requestId: 'req-77',
      dismissed: false,
      submission: { rating: 'good' },
    },
  ]
    .map((r) => `${JSON.stringify(r)}\n`)
    .join(''),
  'btw_history.jsonl': [
    {
      btwSessionId: 'btw-1',
      parentSessionId: MAIN_ID,
      askedAt: '2026-08-19T09:30:40.000000Z',
      question: 'Does checked_add exist on i64?',
      answer: 'Yes: i64::checked_add returns Option<i64>.',
      model: 'grok-build',
      success: true,
      attempts: 1,
    },
    {
      btwSessionId: 'btw-2',
      parentSessionId: MAIN_ID,
      askedAt: '2026-08-19T09:31:10.000000Z',
      question: 'And saturating_add?',
      answer: 'Also yes; it clamps at i64::MAX / i64::MIN.',
      model: 'grok-build',
      success: true,
    },
  ]
    .map((r) => `${JSON.stringify(r)}\n`)
    .join(''),
};

/** The append-only logs Grok heals (formats/grok-build.md §4.1). */
export const APPEND_ONLY = [
  'updates.jsonl',
  'chat_history.jsonl',
  'rewind_points.jsonl',
  'feedback.jsonl',
  'btw_history.jsonl',
];

/**
 * Edits of a session copy whose files are hard links to one template: every edit replaces the link with a new
 * file (never writes through it), so no state leaks into another.
 */
export interface Editor {
  readonly dir: string;
  write(rel: string, bytes: Buffer | string): void;
  append(rel: string, bytes: Buffer): void;
  remove(rel: string): void;
}

export function editor(dir: string): Editor {
  const write = (rel: string, bytes: Buffer | string): void => {
    rmSync(join(dir, rel), { force: true });
    writeFileSync(join(dir, rel), bytes);
  };
  return {
    dir,
    write,
    append: (rel, bytes) => write(rel, Buffer.concat([readFileSync(join(dir, rel)), bytes])),
    remove: (rel) => rmSync(join(dir, rel)),
  };
}

/** Where a finding must be: a code in a file, optionally at an exact line and byte offset. */
export interface ExpectedAt {
  code: string;
  file: string;
  severity?: 'error' | 'warning' | 'note';
  line?: number;
  byteOffset?: number;
}

export interface CrashState {
  /** Unique and descriptive: `updates.jsonl/cut@21450`. */
  name: string;
  /** The failure model it comes from. */
  model:
    | 'torn-append'
    | 'zero-tail'
    | 'garbage-tail'
    | 'page-append'
    | 'temp-rename'
    | 'checkpoint-marker'
    | 'non-atomic-write';
  /** Edits the copy of the main session, only through the editor (the other files are hard links). */
  apply(edit: Editor): void;
  /** Codes (with locations) that must be reported. */
  must: ExpectedAt[];
  /** Further codes this damage may legitimately cause (consequences in other checks). Anything else is a failure. */
  may: string[];
}

export const mainFile = (name: string): Buffer =>
  SMALL_LOGS[name] !== undefined ? Buffer.from(SMALL_LOGS[name]) : readFileSync(join(MAIN, name));

/** Byte offset where the last record of a newline-terminated log starts, and its length without the newline. */
export function lastRecord(bytes: Buffer): { start: number; length: number; line: number } {
  if (bytes.at(-1) !== 0x0a) throw new Error('the clean log does not end with a newline');
  const start = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  let line = 0;
  for (let i = 0; i < start; i++) if (bytes[i] === 0x0a) line++;
  return { start, length: bytes.length - 1 - start, line: line + 1 };
}

/** A deterministic byte stream (xorshift32), for garbage that is the same on every run. */
export function prng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x & 0xff;
  };
}

export function garbage(n: number, seed: number, { newlines = false, nuls = false } = {}): Buffer {
  const next = prng(seed);
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    let c = next();
    while ((!newlines && c === 0x0a) || (!nuls && c === 0x00)) c = next();
    b[i] = c;
  }
  return b;
}

/** What losing the last record of each log may cause besides the JSONL finding itself. */
const LOST_LAST: Record<string, string[]> = {
  // summary.json counted one more committed append than now parses: an error when nothing in the log explains
  // it, a warning pointing at the JSONL finding when damage does (xref-counts).
  'updates.jsonl': ['XREF_MESSAGE_COUNT'],
  // num_chat_messages counted the lost item.
  'chat_history.jsonl': ['XREF_CHAT_COUNT'],
  'rewind_points.jsonl': [],
  'feedback.jsonl': [],
  'btw_history.jsonl': [],
};

/**
 * Losing whole pages loses many records: the compaction marker (its checkpoint becomes an orphan), the
 * subagent spawn (its meta.json then names a subagent the log never started), calls whose results survive in
 * chat_history.jsonl but not in the log, calls whose completion was on a lost page…
 */
const LOST_PAGES = [
  'XREF_MESSAGE_COUNT',
  'XREF_CHAT_VS_UPDATES',
  'TOOL_INTERRUPTED_CALL',
  'TOOL_NO_TERMINAL_STATUS',
  'XREF_CHAT_COUNT',
  'XREF_CHECKPOINT_ORPHAN',
  'XREF_SUBAGENT',
  'TOOL_UPDATE_WITHOUT_CALL',
  'TOOL_ORPHAN_RESULT',
  'XREF_REWIND_POINTS',
  'XREF_REWIND_TARGET',
  'XREF_SYSTEM_PROMPT',
  'XREF_FORMAT_VERSION',
];

function truncateTo(file: string, bytes: Buffer, length: number): (e: Editor) => void {
  return (e) => e.write(file, bytes.subarray(0, length));
}

/** Every crash state, in a stable order. */
export function crashStates(): CrashState[] {
  const out: CrashState[] = [];
  for (const file of APPEND_ONLY) {
    const bytes = mainFile(file);
    const last = lastRecord(bytes);
    const lostLast = LOST_LAST[file] ?? [];

    // 1. The last append torn at every byte: from "the record never started" to "the record without its newline".
    for (let cut = last.start; cut <= last.start + last.length; cut++) {
      const n = cut - last.start;
      const must: ExpectedAt[] =
        n === 0
          ? []
          : n === last.length
            ? [{ code: 'JSONL_UNTERMINATED_TAIL', file, line: last.line, byteOffset: last.start }]
            : [{ code: 'JSONL_TORN_TAIL', file, line: last.line, byteOffset: last.start }];
      // A committed line of the authoritative log lost: without a trace in the log itself it is an error; with
      // the torn record in place it is explained by the JSONL finding (a warning).
      if (file === 'updates.jsonl' && n < last.length)
        must.push({ code: 'XREF_MESSAGE_COUNT', file: 'summary.json', severity: n === 0 ? 'error' : 'warning' });
      out.push({
        name: `${file}/cut@${cut}`,
        model: 'torn-append',
        apply: truncateTo(file, bytes, cut),
        must,
        may: n === last.length ? [] : lostLast,
      });
    }

    // The same for an append holding multi-byte UTF-8 (a cut inside a character is a tear, not bad UTF-8).
    if (file === 'chat_history.jsonl') {
      const text = 'Prüfe die Größe → 測試 😀 done';
      const extra = Buffer.from(`${JSON.stringify({ type: 'user', content: text })}\n`);
      for (let n = 1; n < extra.length - 1; n++) {
        out.push({
          name: `${file}/cut-multibyte@${n}`,
          model: 'torn-append',
          apply: (e) => e.append(file, extra.subarray(0, n)),
          must: [{ code: 'JSONL_TORN_TAIL', file, line: last.line + 1, byteOffset: bytes.length }],
          may: [],
        });
      }
    }

    // 2. Zero-filled tail: the size of the last append landed, its data did not (delayed allocation).
    out.push({
      name: `${file}/zeroed-last-record`,
      model: 'zero-tail',
      apply: (e) => e.write(file, Buffer.concat([bytes.subarray(0, last.start), Buffer.alloc(last.length + 1)])),
      must: [{ code: 'JSONL_NUL_BYTES', file, line: last.line, byteOffset: last.start }],
      may: lostLast,
    });
    const pad = 4096 - (bytes.length % 4096);
    out.push({
      name: `${file}/zeros-to-page-end`,
      model: 'zero-tail',
      apply: (e) => e.append(file, Buffer.alloc(pad)),
      must: [{ code: 'JSONL_NUL_BYTES', file, line: last.line + 1, byteOffset: bytes.length }],
      may: [],
    });
    out.push({
      name: `${file}/torn-then-zeros`,
      model: 'zero-tail',
      apply: (e) =>
        e.write(file, Buffer.concat([bytes.subarray(0, last.start + (last.length >> 1)), Buffer.alloc(512)])),
      must: [{ code: 'JSONL_NUL_BYTES', file, line: last.line, byteOffset: last.start + (last.length >> 1) }],
      may: lostLast,
    });

    // 3. Garbage tail: the last append's sectors hold unrelated bytes (no newline inside), or the file grew by
    //    a garbage block after its last good record.
    for (const [k, len] of [17, 300, 4096].entries()) {
      out.push({
        name: `${file}/garbage-replaces-last@${len}`,
        model: 'garbage-tail',
        apply: (e) => e.write(file, Buffer.concat([bytes.subarray(0, last.start), garbage(len, 0x9e3779b9 + k)])),
        must: [{ code: 'JSONL_TORN_TAIL', file, line: last.line, byteOffset: last.start }],
        may: lostLast,
      });
      out.push({
        name: `${file}/garbage-appended@${len}`,
        model: 'garbage-tail',
        apply: (e) => e.append(file, garbage(len, 0x85ebca6b + k)),
        must: [{ code: 'JSONL_TORN_TAIL', file, line: last.line + 1, byteOffset: bytes.length }],
        may: [],
      });
    }
    // Garbage with newlines in it, then a healed good record: one bad line mid-file, the record after it kept.
    out.push({
      name: `${file}/garbage-healed`,
      model: 'garbage-tail',
      apply: (e) =>
        e.write(
          file,
          Buffer.concat([
            bytes.subarray(0, last.start),
            Buffer.from('{"torn":'),
            Buffer.from('\n'),
            bytes.subarray(last.start),
          ]),
        ),
      must: [{ code: 'JSONL_BAD_LINE', file, line: last.line, byteOffset: last.start }],
      may: file === 'updates.jsonl' ? ['XREF_MESSAGE_COUNT'] : file === 'chat_history.jsonl' ? ['XREF_CHAT_COUNT'] : [],
    });

    // 4. Page-aligned partial appends: only whole 4096-byte pages of the file persisted (length rounded down),
    //    or the size persisted and the last partial page did not (zeros from the page boundary to the end).
    for (let page = 4096; page < bytes.length; page += 4096) {
      const lineAt = lineOf(bytes, page);
      const atBoundary = bytes[page - 1] === 0x0a;
      out.push({
        name: `${file}/pages@${page}`,
        model: 'page-append',
        apply: truncateTo(file, bytes, page),
        must: atBoundary ? [] : [{ code: 'JSONL_TORN_TAIL', file, line: lineAt.line, byteOffset: lineAt.start }],
        may: [...lostLast, ...LOST_PAGES],
      });
    }
    const lastPage = bytes.length - (bytes.length % 4096 || 4096);
    const lp = lineOf(bytes, lastPage);
    out.push({
      name: `${file}/zeroed-last-page@${lastPage}`,
      model: 'page-append',
      apply: (e) => e.write(file, Buffer.concat([bytes.subarray(0, lastPage), Buffer.alloc(bytes.length - lastPage)])),
      must: [{ code: 'JSONL_NUL_BYTES', file, line: lp.line, byteOffset: lastPage }],
      may: [...lostLast, ...LOST_PAGES],
    });
  }

  // 5. A crash between a temp write and its rename: the temp is left over, the old file still in place.
  const uuid7 = '019a3f40-aaaa-7bbb-8ccc-0123456789ab';
  const summary = mainFile('summary.json');
  const newer = Buffer.from(summary.toString('utf8').replace('"num_messages": 51', '"num_messages": 52'));
  const chat = mainFile('chat_history.jsonl');
  const temp = (name: string, bytes: Buffer, note: string): CrashState => ({
    name: `temp/${name}${note}`,
    model: 'temp-rename',
    apply: (e) => e.write(name, bytes),
    must: [{ code: 'SESSION_TEMP_LEFTOVER', file: name }],
    may: [],
  });
  out.push(temp(`summary.json.${uuid7}.tmp`, newer, ''));
  out.push(temp(`summary.json.${uuid7}.tmp`, summary, '(identical)'));
  out.push(temp(`summary.json.${uuid7}.tmp`, newer.subarray(0, 100), '(torn)'));
  out.push(temp(`summary.json.${uuid7}.tmp`, Buffer.alloc(0), '(empty)'));
  out.push(temp('summary.json.tmp', newer, '(U1)'));
  out.push(temp(`chat_history.jsonl.${uuid7}.tmp`, chat.subarray(0, lastRecord(chat).start), '(rewrite)'));
  out.push(
    temp(
      `chat_history.jsonl.${uuid7}.tmp`,
      Buffer.concat([chat, Buffer.from('{"type":"user","content":"and')]),
      '(torn rewrite)',
    ),
  );
  out.push(temp('chat_history.jsonl.sync.tmp', chat, '(spawn sync)'));
  out.push(temp('rewind_points.jsonl.tmp', mainFile('rewind_points.jsonl'), '(U1)'));

  // 6. A crash between the compaction checkpoint file and its marker line (two separate writes, either order).
  const cp = mainFile(CHECKPOINT);
  const orphanId = '7e6f5a4b-3c2d-4e1f-9a8b-7c6d5e4f3a2b';
  const orphan = `compaction_checkpoints/${orphanId}.json`;
  out.push({
    name: 'checkpoint/file-without-marker',
    model: 'checkpoint-marker',
    apply: (e) => e.write(orphan, cp.toString('utf8').replaceAll('5d0c9a8e-3b7f-4c21-9e6a-1f2b3c4d5e6f', orphanId)),
    must: [{ code: 'XREF_CHECKPOINT_ORPHAN', file: orphan }],
    may: [],
  });
  out.push({
    name: 'checkpoint/marker-without-file',
    model: 'checkpoint-marker',
    apply: (e) => e.remove(CHECKPOINT),
    must: [{ code: 'XREF_CHECKPOINT_MISSING', file: 'updates.jsonl', line: markerLine() }],
    may: [],
  });
  // A later compaction whose marker landed at the end of the log but whose checkpoint file never did.
  const lastLine = lastRecord(mainFile('updates.jsonl')).line;
  const log = mainFile('updates.jsonl').toString('utf8').split('\n').filter(Boolean);
  type Line = { timestamp: number; params: { _meta: { eventId: string; agentTimestampMs: number }; update: Obj } };
  type Obj = Record<string, unknown>;
  const last = JSON.parse(log.at(-1)!) as Line;
  const counterOf = (l: string): number =>
    Number((JSON.parse(l) as Partial<Line>).params?._meta?.eventId?.split('-').pop() ?? 0);
  const maxCounter = Math.max(...log.map(counterOf));
  const m = JSON.parse(log.find((l) => l.includes('"sessionUpdate":"compaction_checkpoint"'))!) as Line;
  // Written last, emitted last: the next counter, a few seconds after the last line.
  const at = (last.params._meta?.agentTimestampMs ?? last.timestamp * 1000) + 8_600;
  m.timestamp = Math.floor(at / 1000);
  m.params._meta.eventId = `${MAIN_ID}-${maxCounter + 1}`;
  m.params._meta.agentTimestampMs = at;
  Object.assign(m.params.update, {
    checkpoint_id: orphanId,
    checkpoint_file: `compaction_checkpoints/${orphanId}.json`,
    prompt_index_at_compaction: 3,
    created_at: new Date(at).toISOString().replace('Z', '000Z'),
  });
  const marker = JSON.stringify(m);
  out.push({
    name: 'checkpoint/new-marker-without-file',
    model: 'checkpoint-marker',
    apply: (e) => e.append('updates.jsonl', Buffer.from(`${marker}\n`)),
    must: [{ code: 'XREF_CHECKPOINT_MISSING', file: 'updates.jsonl', line: lastLine + 1 }],
    // The marker is one committed append more than summary.json counts (its patch did not land either).
    may: ['XREF_MESSAGE_COUNT'],
  });
  // The checkpoint is a plain truncate+write (W): a crash inside it leaves a prefix, possibly empty.
  const cpEnd = cp.toString('latin1').trimEnd().length; // the closing brace is the last non-space byte
  for (const n of [0, 1, 64, cp.length >> 1, cpEnd - 1]) {
    out.push({
      name: `checkpoint/torn-file@${n}`,
      model: 'checkpoint-marker',
      apply: truncateTo(CHECKPOINT, cp, n),
      must: [{ code: 'SESSION_FILE_UNPARSEABLE', file: CHECKPOINT }],
      may: ['XREF_CHECKPOINT_MISMATCH'],
    });
  }

  // 7. summary.json written in place (fork copy, subagent init: §4.6): a crash leaves any prefix of it.
  for (let n = 0; n < summary.length - 1; n += n < 16 ? 1 : 23) {
    out.push({
      name: `summary.json/non-atomic@${n}`,
      model: 'non-atomic-write',
      apply: truncateTo('summary.json', summary, n),
      must: [{ code: n === 0 ? 'SESSION_SUMMARY_EMPTY' : 'SESSION_SUMMARY_UNPARSEABLE', file: 'summary.json' }],
      // Without a readable summary, the checks that need it stay silent or say what they cannot tell.
      may: ['SANDBOX_PROFILE_MISSING', 'LINEAGE_PARENT_MISSING', 'XREF_SUBAGENT'],
    });
  }
  return out;
}

/** The line of updates.jsonl holding the compaction marker of the clean session. */
function markerLine(): number {
  const lines = mainFile('updates.jsonl').toString('utf8').split('\n');
  return lines.findIndex((l) => l.includes('"sessionUpdate":"compaction_checkpoint"')) + 1;
}

/** Line number and start offset of the line containing byte `at`. */
function lineOf(bytes: Buffer, at: number): { line: number; start: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < at; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      start = i + 1;
    }
  }
  return { line, start };
}

/**
 * A fresh copy of the clean main session and its subagent's session, as a sessions root at `root`; with
 * `smallLogs`, the main session also gets the feedback.jsonl and btw_history.jsonl above.
 */
export function copyCleanRoot(root: string, { smallLogs = false }: { smallLogs?: boolean } = {}): string {
  const group = join(root, 'sessions', GROUP);
  mkdirSync(group, { recursive: true });
  cpSync(join(CLEAN_GROUP, MAIN_ID), join(group, MAIN_ID), { recursive: true });
  cpSync(join(CLEAN_GROUP, CHILD_ID), join(group, CHILD_ID), { recursive: true });
  if (smallLogs) for (const [name, text] of Object.entries(SMALL_LOGS)) writeFileSync(join(group, MAIN_ID, name), text);
  return join(group, MAIN_ID);
}

/**
 * Materialise states under `base` as `<base>/<index>/sessions/…`; returns the session path each finding's
 * sessionPath will carry (the audit is run on `base`), by state. A template copy is made once and cloned.
 */
export function materialise(base: string, states: readonly CrashState[], offset = 0): Map<string, CrashState> {
  const template = join(base, '.template');
  copyCleanRoot(template, { smallLogs: true });
  const { dirs, files } = walk(template);
  const byPath = new Map<string, CrashState>();
  states.forEach((s, i) => {
    const root = join(base, String(offset + i));
    for (const d of dirs) mkdirSync(join(root, d), { recursive: true });
    for (const rel of files) linkSync(join(template, rel), join(root, rel));
    const dir = join(root, 'sessions', GROUP, MAIN_ID);
    s.apply(editor(dir));
    byPath.set(dir, s);
  });
  return byPath;
}

/** Leaf-first is not needed: mkdir -p of every directory (deepest paths cover their parents). */
function walk(dir: string, rel = ''): { dirs: string[]; files: string[] } {
  const dirs: string[] = [];
  const files: string[] = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      const sub = walk(dir, r);
      if (!sub.dirs.some((d) => d.startsWith(`${r}/`))) dirs.push(r);
      dirs.push(...sub.dirs);
      files.push(...sub.files);
    } else files.push(r);
  }
  return { dirs, files };
}
