/**
 * The Grok Build loader: reads a session directory through a SessionSource and reports to the sink, JSON
 * documents first (summary and the other sidecars), then each JSONL log in a fixed order, streamed.
 */
import { isUtf8 } from 'node:buffer';
import type { SessionSource } from '../../read/source.js';
import { firstInvalidUtf8 } from '../../read/jsonl.js';
import type { Artifact, DocEvent, LoadSink } from '../../model/session.js';
import type { LoadLimits } from '../types.js';

export const MAX_DOC_BYTES = 64 * 1024 * 1024;

/** JSONL logs in the order they are streamed. */
const LOG_ORDER = ['updates', 'chat', 'rewind', 'feedback', 'btw', 'events'];

type Obj = Record<string, unknown>;
const has = (v: unknown, ...keys: string[]): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && keys.some((k) => k in (v as Obj));

/** What a record of each log looks like, so merged-line recovery never mistakes a nested object for one. */
const LOOKS_LIKE: Record<string, (v: unknown) => boolean> = {
  updates: (v) => has(v, 'method', 'params') || (has(v, 'sessionId') && has(v, 'update')),
  chat: (v) => has(v, 'type', 'role'),
  rewind: (v) => has(v, 'prompt_index'),
  feedback: (v) => has(v, 'type'),
  btw: (v) => has(v, 'btwSessionId', 'question'),
  events: (v) => has(v, 'ts', 'type'),
};

export function parseDoc(file: string, kind: string, bytes: Buffer, size: number): DocEvent {
  if (bytes.length === 0) return { file, kind, size, problem: { kind: 'empty', detail: 'the file is empty (0 bytes)' } };
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    return { file, kind, size, problem: { kind: 'invalid-utf8', detail: `invalid UTF-8 at byte ${at}`, byteOffset: at } };
  }
  try {
    return { file, kind, size, value: JSON.parse(bytes.toString('utf8')) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : 'not JSON';
    const truncated = /end of JSON input|Unterminated string/.test(msg);
    return {
      file,
      kind,
      size,
      problem: {
        kind: 'not-json',
        detail: truncated ? 'the JSON ends early: the file was truncated (a crash during a non-atomic write)' : `not valid JSON (${msg.replace(/, ".*" is not valid JSON$/s, '').slice(0, 120)})`,
      },
    };
  }
}

export function loadGrok(source: SessionSource, artifacts: ReadonlyMap<string, Artifact>, sink: LoadSink, limits: LoadLimits): void {
  const regular = (a: Artifact): boolean => source.entry(a.path)?.type === 'file';
  for (const a of artifacts.values()) {
    if (a.role !== 'json' || !regular(a)) continue;
    const r = source.readFile(a.path, MAX_DOC_BYTES);
    const size = source.entry(a.path)?.size ?? 0;
    if (!r.ok) {
      sink.doc({ file: a.path, kind: a.kind, size, problem: { kind: 'unreadable', detail: r.error } });
    } else if (r.value.truncated) {
      sink.doc({ file: a.path, kind: a.kind, size, problem: { kind: 'too-large', detail: `${size} bytes, over the ${MAX_DOC_BYTES}-byte limit for a JSON document; not parsed` } });
    } else {
      sink.doc(parseDoc(a.path, a.kind, r.value.bytes, size));
    }
  }
  for (const kind of LOG_ORDER) {
    for (const a of artifacts.values()) {
      if (a.kind !== kind || a.role !== 'jsonl' || !regular(a)) continue;
      const r = source.streamJsonl(
        a.path,
        { looksLikeRecord: LOOKS_LIKE[kind], maxLineBytes: limits.maxLineBytes },
        (record) => sink.record({ file: a.path, kind, record }),
        (damage) => sink.damage({ file: a.path, kind, damage }),
      );
      sink.fileEnd(r.ok ? { file: a.path, kind, stats: r.value } : { file: a.path, kind, error: r.error });
    }
  }
  source.hashUnread();
}
