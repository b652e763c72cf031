/**
 * Large JSONL logs are schema-checked in a second thread: the loader reads the log into a ring of shared buffers
 * (read/chunk-ring.ts) and the worker consumes the very same bytes with a reader configured exactly like the
 * loader's (same record shape, same line cap), validates every record, hashes the bytes, and hands the issues and
 * the hash back when the main thread reaches the end of the file. The main thread, meanwhile, parses, normalizes
 * and runs every other check without hashing. The file is read from disk once, and the hash and the issues are
 * those of exactly the bytes the events came from. If the worker failed or stalled, the records are validated and
 * hashed here instead, from a second read compared with the first by the file's stamps: the result never
 * depends on the second thread.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { FormatModule } from '../formats/types.js';
import { packageRoot } from '../formats/schema-runtime.js';
import type { FileEndEvent, RecordIssue } from '../model/session.js';
import { JsonlScanner, type JsonlRecord } from '../read/jsonl.js';
import type { SessionSource } from '../read/source.js';
import { ChunkRing } from '../read/chunk-ring.js';

/** Logs at least this large are worth a thread (its start-up is a fraction of a second). */
export const OFFLOAD_MIN_BYTES = 16 * 1024 * 1024;
const minBytes = (): number => Number(process.env.SESSION_AUDIT_OFFLOAD_MIN_BYTES ?? OFFLOAD_MIN_BYTES);

export interface OffloadOutcome {
  records: number;
  bytes: number;
  issues: RecordIssue[];
  /** The worker's sha256 of the bytes it consumed, and their count. */
  sha256: string;
  size: number;
}

/** Validate every record of a scanner's output: the one routine both threads run. */
export function recordValidator(format: FormatModule, kind: string, issues: RecordIssue[]): (r: JsonlRecord) => void {
  return (r) => {
    for (const i of format.validate(kind, r.value)) issues.push({ line: r.line, byteOffset: r.byteOffset, code: i.code, pointer: i.pointer, message: i.message });
  };
}

function workerScript(): string | undefined {
  const here = fileURLToPath(new URL('./schema-worker.js', import.meta.url));
  if (existsSync(here)) return here;
  const built = join(packageRoot(), 'dist', 'src', 'checks', 'schema-worker.js');
  return existsSync(built) ? built : undefined;
}

export class SchemaOffload {
  /** [0]: 1 done, 2 failed; [1]: chunks read so far (the worker's heartbeat). */
  private readonly flag = new Int32Array(new SharedArrayBuffer(8));
  private readonly port: MessagePort;
  private readonly worker: Worker;

  private constructor(
    private readonly source: SessionSource,
    script: string,
    private readonly rel: string,
    private readonly kind: string,
    format: string,
    maxLineBytes: number,
    private readonly ring: ChunkRing,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    // A small young generation: the worker's garbage is short-lived parse output, and its peak adds to the process's.
    this.worker = new Worker(script, { workerData: { ring: ring.shared, kind, format, maxLineBytes, flag: this.flag, port: port2 }, transferList: [port2], resourceLimits: { maxYoungGenerationSizeMb: 4 } });
    this.worker.unref();
  }

  /** Start a worker for this log when it is large and the format can describe its records; else undefined. */
  static start(source: SessionSource, format: FormatModule, rel: string, kind: string, maxLineBytes: number): SchemaOffload | undefined {
    if (!isMainThread || process.env.SESSION_AUDIT_NO_OFFLOAD) return undefined;
    const entry = source.entry(rel);
    if (!entry || entry.type !== 'file' || entry.size < minBytes() || !format.jsonlShape?.(kind)) return undefined;
    const script = workerScript();
    if (!script) return undefined;
    const ring = ChunkRing.create();
    // The loader's read of this log goes through the ring; the worker hashes it (adopted in finish).
    source.shareRead(rel, ring);
    return new SchemaOffload(source, script, rel, kind, format.name, maxLineBytes, ring);
  }

  /**
   * The issues, once the worker is done (blocking). Undefined when the worker failed, took too long, or read a
   * different file than the loader did (compared by record count and bytes).
   */
  finish(end: FileEndEvent): OffloadOutcome | undefined {
    // A worker that stops making progress for this long (it died, e.g. out of memory, before it could say so) is
    // given up on; the records are then validated here.
    const STALL_MS = 15_000;
    let beat = Atomics.load(this.flag, 1);
    let lastBeat = Date.now();
    let msg: { message: OffloadOutcome & { error?: string } } | undefined;
    while (!(msg = receiveMessageOnPort(this.port) as typeof msg)) {
      const now = Atomics.load(this.flag, 1);
      if (now !== beat) {
        beat = now;
        lastBeat = Date.now();
      } else if (Date.now() - lastBeat > STALL_MS) break;
      Atomics.wait(this.flag, 0, 0, 200);
      if (Atomics.load(this.flag, 0) === 2) {
        msg = receiveMessageOnPort(this.port) as typeof msg;
        break;
      }
    }
    void this.worker.terminate();
    this.port.close();
    const out = msg?.message;
    if (!out || out.error !== undefined || !end.stats || out.records !== end.stats.records || out.bytes !== end.stats.bytes) return undefined;
    // The worker consumed every byte the loader read, through the ring: its hash is the hash of what was parsed.
    if (!this.source.adoptHash(this.rel, out.sha256, out.size)) return undefined;
    return out;
  }

  cancel(): void {
    this.ring.abandon();
    void this.worker.terminate();
    this.port.close();
  }

  /**
   * The same validation in this thread, for when the worker's answer cannot be used: over the bytes the loader
   * read and no further (a log still being appended to has grown since), hashing them for the inventory.
   */
  static inline(source: SessionSource, format: FormatModule, end: FileEndEvent, maxLineBytes: number): RecordIssue[] {
    const issues: RecordIssue[] = [];
    const shape = format.jsonlShape?.(end.kind);
    source.streamJsonl(end.file, { maxLineBytes, ...(shape ? { looksLikeRecord: shape } : {}) }, recordValidator(format, end.kind, issues), () => {}, end.stats?.bytes);
    return issues;
  }

  describe(): string {
    return `${this.rel} (${this.kind})`;
  }
}

export { JsonlScanner };
