/**
 * The Gemini CLI loader. Each file of the session is read twice: first folded as the CLI folds it (fold.ts), its
 * records let go as they are folded (a legacy `.json` is one document, read whole and placed message by message);
 * then read again and handed on in file order, each record with the event that says what it did and what became of
 * it, and the damage; then the folded conversation, the file's end, one doc of kind GEMINI_FILE_KIND per file for
 * the Gemini checks, and the session's identity.
 */
import { basename } from 'node:path';
import type { SessionSource } from '../../model/source.js';
import type { Damage, JsonlRecord } from '../../model/records.js';
import type { SessionEvent } from '../../model/events.js';
import type { Artifact, FileEndEvent, LoadSink } from '../../model/session.js';
import { IDENTITY_KIND } from '../../model/identity.js';
import type { LoadLimits } from '../types.js';
import { parseDoc } from '../shared/docs.js';
import { damagedLines } from '../shared/log-lines.js';
import { isObj } from '../shared/events.js';
import { mainOf } from './artifacts.js';
import { fold, folder, type FoldFacts, type FoldInput } from './fold.js';
import { fileFacts } from './facts.js';
import { legacyRecords } from './legacy.js';
import { chats, eventMaker, identityOf, liveTurns, rewoundRanges } from './normalize.js';

/** The doc kind of what the Gemini checks read of each file (value: GeminiFileFacts). */
export const GEMINI_FILE_KIND = 'gemini-file';
const MAX_DOC_BYTES = 256 * 1024 * 1024;

/** A file folded in a first read: the fold, and for a legacy document its records (it is read whole anyway). */
interface Folded {
  facts: FoldFacts;
  legacy: boolean;
  /** A legacy document's records (a JSONL file is read again instead, so that none is held in memory). */
  records?: JsonlRecord[];
  /** The end of a legacy document's read (a JSONL file's comes from its second read). */
  end?: FileEndEvent;
  /** Why the file holds no records at all (a legacy document that does not parse, an empty file). */
  problem?: string;
  /** Where a legacy document that does not parse starts (its first byte that is not white space). */
  start?: { line: number; byteOffset: number };
}

function startOf(bytes: Buffer): { line: number; byteOffset: number } {
  let line = 1;
  let i = 0;
  for (; i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d); i++)
    if (bytes[i] === 0x0a) line++;
  return { line, byteOffset: i < bytes.length ? i : 0 };
}

/** The record kinds of the legacy document: the conversation without its messages, and each message. */
const recordKindOf = (legacy: boolean, first: boolean): string =>
  !legacy ? 'session' : first ? 'legacy' : 'legacy-message';

/**
 * A file whose first line that is not blank is a lone `{` is a pretty-printed legacy document, whatever it is called
 * (the CLI parses the whole file when no line of it is a metadata line).
 */
function looksLegacy(source: SessionSource, a: Artifact): boolean {
  const head = source.readSpans(a.path, [{ offset: 0, max: 4096, line: false }]);
  return head.ok && /^\s*\{[ \t]*\r?\n/.test(head.value[0]?.toString('utf8').replace(/^\uFEFF/, '') ?? '');
}

const foldInput = (seq: number, record: JsonlRecord): FoldInput => ({
  seq,
  line: record.line,
  byteOffset: record.byteOffset,
  value: record.value,
  ...(record.recovered !== undefined ? { unseen: true } : {}),
});

/**
 * Stream a JSONL file, numbering its records as the timeline does (a damaged line the CLI still meets as a line
 * takes a place).
 */
function streamNumbered(
  source: SessionSource,
  a: Artifact,
  limits: LoadLimits,
  onRecord: (seq: number, r: JsonlRecord) => void,
  onDamage: (d: Damage) => void,
): FileEndEvent {
  let seq = 0;
  const counted = damagedLines(() => seq++);
  const r = source.streamJsonl(
    a.path,
    { looksLikeRecord: isObj, maxLineBytes: limits.maxLineBytes },
    (record) => onRecord(seq++, record),
    (damage) => {
      counted(damage);
      onDamage(damage);
    },
  );
  return r.ok ? { file: a.path, kind: a.kind, stats: r.value } : { file: a.path, kind: a.kind, error: r.error };
}

/** The first read: the fold (a JSONL file's records are let go as they are folded). */
function foldFile(source: SessionSource, a: Artifact, limits: LoadLimits): Folded {
  // As the CLI's loader: line by line first; the whole file as one document when no line gave the metadata.
  const f = folder();
  const end = streamNumbered(
    source,
    a,
    limits,
    (seq, record) => f.add(foldInput(seq, record)),
    () => {},
  );
  const facts = f.finish();
  const found = typeof facts.metadata.sessionId === 'string' && typeof facts.metadata.projectHash === 'string';
  if (found || !looksLegacy(source, a)) {
    const empty = end.stats?.bytes === 0;
    return { facts, legacy: false, ...(empty ? { problem: 'the file is empty' } : {}) };
  }
  return foldDocument(source, a);
}

/** A legacy document: read and parsed whole, its messages placed where they sit in the file. */
function foldDocument(source: SessionSource, a: Artifact): Folded {
  const size = source.entry(a.path)?.size ?? 0;
  const empty = fold([]);
  const r = source.readFile(a.path, MAX_DOC_BYTES);
  if (!r.ok) return { facts: empty, legacy: true, records: [], end: { file: a.path, kind: a.kind, error: r.error } };
  if (r.value.truncated) {
    const error = `larger than ${MAX_DOC_BYTES} bytes`;
    return { facts: empty, legacy: true, records: [], end: { file: a.path, kind: a.kind, error } };
  }
  const doc = parseDoc(a.path, a.kind, r.value.bytes, size);
  const stats = { lines: 0, records: 0, bytes: r.value.bytes.length, endsWithNewline: true };
  for (const b of r.value.bytes) if (b === 10) stats.lines++;
  const end = { file: a.path, kind: a.kind, stats };
  if (doc.problem)
    return {
      facts: empty,
      legacy: true,
      records: [],
      end,
      problem: doc.problem.detail,
      start: startOf(r.value.bytes),
    };
  const records = legacyRecords(r.value.bytes, doc.value);
  stats.records = records.length;
  if (doc.duplicateKey && records[0]) records[0].duplicateKey = doc.duplicateKey;
  return { facts: fold(records.map((rec, seq) => foldInput(seq, rec))), legacy: true, records, end };
}

/** The second read: each record in file order (with its event, `make`), and the damage, as they come. */
function replay(
  source: SessionSource,
  a: Artifact,
  limits: LoadLimits,
  read: Folded,
  h: { record(r: JsonlRecord, kind: string, seq: number): void; damage(d: Damage): void },
): FileEndEvent {
  if (read.records) {
    read.records.forEach((r, seq) => {
      h.record(r, recordKindOf(true, seq === 0), seq);
    });
    return read.end!;
  }
  return streamNumbered(source, a, limits, (seq, r) => h.record(r, 'session', seq), h.damage);
}

const logs = (source: SessionSource, artifacts: ReadonlyMap<string, Artifact>): Artifact[] =>
  [...artifacts.values()].filter(
    (a) => (a.kind === 'session' || a.kind === 'legacy') && source.entry(a.path)?.type === 'file',
  );

/** The file the session is shown by and resumed from (artifacts.ts `mainOf`). */
const mainFile = (files: readonly Artifact[]): Artifact | undefined => {
  const name = mainOf(files.map((a) => a.path));
  return files.find((a) => a.path === name);
};

export function loadGemini(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  sink: LoadSink,
  limits: LoadLimits,
): void {
  const files = logs(source, artifacts);
  const main = mainFile(files);
  const members = files.map((a) => a.path);
  let identity: ReturnType<typeof identityOf> | undefined;
  for (const a of files) {
    const read = foldFile(source, a, limits);
    const { facts } = read;
    const isMain = a === main;
    const make = isMain ? eventMaker(a.path, facts) : undefined;
    const end = replay(source, a, limits, read, {
      record(record, kind, seq) {
        sink.record({ file: a.path, kind, record });
        if (make) sink.event(make({ seq, record }));
      },
      damage: (damage) => sink.damage({ file: a.path, kind: a.kind, damage }),
    });
    if (isMain) {
      for (const c of chats(a.path, facts)) sink.chat(c);
      end.dead = rewoundRanges(facts);
      end.liveTurns = liveTurns(facts);
    }
    sink.fileEnd(end);
    const size = source.entry(a.path)?.size ?? 0;
    const value = fileFacts(a.path, facts, {
      main: isMain,
      legacy: read.legacy,
      members,
      ...(read.problem !== undefined ? { problem: read.problem } : {}),
      ...(read.start !== undefined ? { start: read.start } : {}),
    });
    sink.doc({ file: a.path, kind: GEMINI_FILE_KIND, size, value });
    if (isMain) identity = identityOf(a.path, facts, basename(source.found.abs));
  }
  if (main && identity) sink.doc({ file: main.path, kind: IDENTITY_KIND, size: 0, value: identity });
  source.hashUnread();
}

export function streamGeminiLog(
  source: SessionSource,
  artifacts: ReadonlyMap<string, Artifact>,
  limits: LoadLimits,
  onEvent: (e: SessionEvent, r: JsonlRecord) => void,
): FileEndEvent | undefined {
  const main = mainFile(logs(source, artifacts));
  if (!main) return undefined;
  const read = foldFile(source, main, limits);
  const make = eventMaker(main.path, read.facts);
  const end = replay(source, main, limits, read, {
    record: (record, _kind, seq) => onEvent(make({ seq, record }), record),
    damage: () => {},
  });
  end.dead = rewoundRanges(read.facts);
  end.liveTurns = liveTurns(read.facts);
  return end;
}
