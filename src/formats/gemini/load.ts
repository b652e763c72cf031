/**
 * The Gemini CLI loader: each file of the session read whole into its records (a JSONL recording line by line, a
 * legacy `.json` as one document placed message by message), folded as the CLI folds it (fold.ts), then handed on in
 * file order: records, each with the event that says what it did, damage, the folded conversation, the file's end;
 * then one doc of kind GEMINI_FILE_KIND per file for the Gemini checks, and the session's identity.
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
import { fold, type FoldFacts } from './fold.js';
import { fileFacts } from './facts.js';
import { legacyRecords } from './legacy.js';
import { chats, events, identityOf, liveTurns, rewoundRanges, type Numbered } from './normalize.js';

/** The doc kind of what the Gemini checks read of each file (value: GeminiFileFacts). */
export const GEMINI_FILE_KIND = 'gemini-file';
const MAX_DOC_BYTES = 256 * 1024 * 1024;

type Item = ({ k: 'r' } & Numbered) | { k: 'd'; damage: Damage };

interface Read {
  items: Item[];
  end: FileEndEvent;
  legacy: boolean;
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

/** A file whose first line is a lone `{` is a pretty-printed legacy document, whatever it is called. */
function looksLegacy(source: SessionSource, a: Artifact): boolean {
  if (a.kind === 'legacy') return true;
  const head = source.readSpans(a.path, [{ offset: 0, max: 256, line: true }]);
  return (
    head.ok &&
    head.value[0]
      ?.toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim() === '{'
  );
}

function readFile(source: SessionSource, a: Artifact, limits: LoadLimits): Read {
  const size = source.entry(a.path)?.size ?? 0;
  if (looksLegacy(source, a)) {
    const r = source.readFile(a.path, MAX_DOC_BYTES);
    if (!r.ok) return { items: [], legacy: true, end: { file: a.path, kind: a.kind, error: r.error } };
    if (r.value.truncated)
      return {
        items: [],
        legacy: true,
        end: { file: a.path, kind: a.kind, error: `larger than ${MAX_DOC_BYTES} bytes` },
      };
    const doc = parseDoc(a.path, a.kind, r.value.bytes, size);
    const stats = { lines: 0, records: 0, bytes: r.value.bytes.length, endsWithNewline: true };
    for (const b of r.value.bytes) if (b === 10) stats.lines++;
    if (doc.problem)
      return {
        items: [],
        legacy: true,
        problem: doc.problem.detail,
        start: startOf(r.value.bytes),
        end: { file: a.path, kind: a.kind, stats },
      };
    const records = legacyRecords(r.value.bytes, doc.value);
    stats.records = records.length;
    const items: Item[] = records.map((record, seq) => ({ k: 'r', seq, record }));
    if (doc.duplicateKey && records[0]) records[0].duplicateKey = doc.duplicateKey;
    return { items, legacy: true, end: { file: a.path, kind: a.kind, stats } };
  }
  const items: Item[] = [];
  let seq = 0;
  const counted = damagedLines(() => seq++);
  const r = source.streamJsonl(
    a.path,
    { looksLikeRecord: isObj, maxLineBytes: limits.maxLineBytes },
    (record) => items.push({ k: 'r', seq: seq++, record }),
    (damage) => {
      counted(damage);
      items.push({ k: 'd', damage });
    },
  );
  const end: FileEndEvent = r.ok
    ? { file: a.path, kind: a.kind, stats: r.value }
    : { file: a.path, kind: a.kind, error: r.error };
  return { items, legacy: false, end, ...(r.ok && r.value.bytes === 0 ? { problem: 'the file is empty' } : {}) };
}

const records = (items: readonly Item[]): Numbered[] => items.filter((i): i is { k: 'r' } & Numbered => i.k === 'r');

function foldOf(items: readonly Item[]): FoldFacts {
  return fold(
    records(items).map(({ seq, record }) => ({
      seq,
      line: record.line,
      byteOffset: record.byteOffset,
      value: record.value,
      ...(record.recovered !== undefined ? { unseen: true } : {}),
    })),
  );
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
    const read = readFile(source, a, limits);
    const facts = foldOf(read.items);
    const isMain = a === main;
    const evs = isMain ? events(a.path, records(read.items), facts) : [];
    let k = 0;
    for (const item of read.items) {
      if (item.k === 'd') {
        sink.damage({ file: a.path, kind: a.kind, damage: item.damage });
        continue;
      }
      sink.record({ file: a.path, kind: recordKindOf(read.legacy, k === 0), record: item.record });
      const e = evs[k++];
      if (e) sink.event(e);
    }
    if (isMain) for (const c of chats(a.path, facts)) sink.chat(c);
    if (isMain) {
      read.end.dead = rewoundRanges(facts);
      read.end.liveTurns = liveTurns(facts);
    }
    sink.fileEnd(read.end);
    const size = source.entry(a.path)?.size ?? 0;
    const value = fileFacts(a.path, facts, {
      main: isMain,
      legacy: read.legacy,
      members,
      ...(read.problem !== undefined ? { problem: read.problem } : {}),
      ...(read.start !== undefined ? { start: read.start } : {}),
    });
    sink.doc({ file: a.path, kind: GEMINI_FILE_KIND, size, value });
    if (isMain) {
      const dir = basename(source.found.abs);
      identity = identityOf(a.path, facts, dir);
    }
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
  const read = readFile(source, main, limits);
  const facts = foldOf(read.items);
  const rs = records(read.items);
  const evs = events(main.path, rs, facts);
  for (const [i, n] of rs.entries()) onEvent(evs[i]!, n.record);
  read.end.dead = rewoundRanges(facts);
  read.end.liveTurns = liveTurns(facts);
  return read.end;
}
