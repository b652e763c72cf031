/**
 * Large JSONL logs are checked in part in a second thread (the schema check, and in an audit the SECRET_IN_SESSION
 * scan: engine/audit-session.ts decides): the loader reads the log into a ring of shared buffers
 * (read/chunk-ring.ts) and the worker consumes the very same bytes with a reader configured exactly like the
 * loader's (same record shape, same line cap), runs its share (the format's validators over every record;
 * checks/secrets.ts itself, its findings collected, over the records of the lines the native pass over the raw
 * bytes names, secrets/raw-literals.ts, or every record without it), hashes the bytes, and hands the findings and
 * the hash back when the main thread reaches the end of the file. The main thread, meanwhile, parses, normalizes and
 * runs every other check without hashing. The file is read from disk once, and the hash and the findings are those
 * of exactly the bytes the events came from. If the worker failed or stalled, the same work is done here instead,
 * from a second read compared with the first by the file's stamps: the result never depends on the second thread.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { FormatModule } from '../../formats/types.js';
import { packageRoot } from '../../formats/schema-runtime.js';
import { secretScan } from '../../checks/secrets.js';
import type { CheckContext } from '../../checks/define.js';
import type { FileEndEvent, OffloadedSecrets, RecordIssue } from '../../model/session.js';
import { JsonlScanner } from '../../read/jsonl.js';
import type { JsonlRecord } from '../../model/records.js';
import type { SessionSource } from '../../model/source.js';
import { ChunkRing, STALL_MS } from '../../read/chunk-ring.js';

/**
 * Logs at least this large are worth a thread: the worker's start-up (~0.3 s, loading its modules) is repaid by
 * running its share (the secret scan in an audit, the schema check in validate) in parallel only from about this
 * size on; smaller logs are checked wholly in the loader's thread.
 */
export const OFFLOAD_MIN_BYTES = 64 * 1024 * 1024;
const minBytes = (): number => Number(process.env.SESSION_AUDIT_OFFLOAD_MIN_BYTES ?? OFFLOAD_MIN_BYTES);

/** What the second thread does with each record (plain data: it is the worker's). */
export interface OffloadWork {
  /** Schema-check every record. */
  validate: boolean;
  /** Run the SECRET_IN_SESSION check, keeping this many findings individually (the audit's cap per file). */
  secrets: boolean;
  cap: number;
}

/** What the offloaded checks found in one log. */
export interface OffloadFindings {
  issues: RecordIssue[];
  secrets?: OffloadedSecrets;
}

export interface OffloadOutcome {
  records: number;
  bytes: number;
  issues: RecordIssue[];
  secrets?: OffloadedSecrets;
  /** The worker's sha256 of the bytes it consumed, and their count. */
  sha256: string;
  size: number;
  /** The loader stopped sharing before the end (its read failed): issues of the records up to there, no hash. */
  partial?: boolean;
  /** Only some lines were parsed (the secret scan's candidates): the lines are compared, not the records. */
  selected?: boolean;
  lines?: number;
}

/** Validate every record of a scanner's output: the one routine both threads run. */
export function recordValidator(format: FormatModule, kind: string, issues: RecordIssue[]): (r: JsonlRecord) => void {
  return (r) => {
    for (const i of format.validate(kind, r.value))
      issues.push({ line: r.line, byteOffset: r.byteOffset, code: i.code, pointer: i.pointer, message: i.message });
  };
}

/**
 * The offloaded work over one log's records, as both threads run it: the validator, and the SECRET_IN_SESSION
 * check with its findings collected (the first `cap`, then a count and the last: what the audit lists of them).
 */
export function recordWork(
  format: FormatModule,
  file: string,
  kind: string,
  work: OffloadWork,
): { each: (r: JsonlRecord, scan?: boolean) => void; end: () => void; found: OffloadFindings } {
  const found: OffloadFindings = { issues: [] };
  const validate = work.validate ? recordValidator(format, kind, found.issues) : undefined;
  let scan: ReturnType<typeof secretScan> | undefined;
  if (work.secrets) {
    const collected: OffloadedSecrets = { list: [], more: 0 };
    found.secrets = collected;
    const ctx = {
      emit(
        code: string,
        location: OffloadedSecrets['list'][number]['location'],
        message: string,
        opts?: { key?: string },
      ) {
        const e = { code, location, message, ...(opts?.key !== undefined ? { key: opts.key } : {}) };
        if (collected.list.length < work.cap) collected.list.push(e);
        else {
          collected.more++;
          collected.last = e;
        }
      },
    } as unknown as CheckContext<'SECRET_IN_SESSION'>;
    // An agent that says where it streams text has its junctions looked for by the loader's thread (checks/secrets.ts).
    scan = secretScan(ctx, format.streamedText ? 'none' : 'every');
  }
  return {
    // `scanned` false: the record's line holds none of the detectors' literals (secrets/raw-literals.ts).
    each: (r, scanned = true) => {
      validate?.(r);
      if (scanned) scan?.record?.({ file, kind, record: r });
    },
    end: () => scan?.fileEnd?.({ file, kind }),
    found,
  };
}

function workerScript(): string | undefined {
  const here = fileURLToPath(new URL('./record-worker.js', import.meta.url));
  if (existsSync(here)) return here;
  const built = join(packageRoot(), 'dist', 'src', 'engine', 'parallel', 'record-worker.js');
  return existsSync(built) ? built : undefined;
}

export class RecordOffload {
  /** [0]: 1 done, 2 failed; [1]: chunks consumed so far (the worker's heartbeat). */
  private readonly flag = new Int32Array(new SharedArrayBuffer(8));
  private port: MessagePort | undefined;
  private worker: Worker | undefined;
  private ring: ChunkRing | undefined;

  private constructor(
    private readonly source: SessionSource,
    private readonly script: string,
    private readonly rel: string,
    private readonly kind: string,
    private readonly format: string,
    private readonly maxLineBytes: number,
    readonly work: OffloadWork,
  ) {}

  /**
   * Arrange for this log to be checked in a second thread when it is large and the format can describe its
   * records (else undefined). The worker starts when the loader starts reading the log, so a session with several
   * large logs has one worker at a time.
   */
  static start(
    source: SessionSource,
    format: FormatModule,
    rel: string,
    kind: string,
    maxLineBytes: number,
    work: OffloadWork,
  ): RecordOffload | undefined {
    if (!isMainThread || process.env.SESSION_AUDIT_NO_OFFLOAD) return undefined;
    const entry = source.entry(rel);
    if (entry?.type !== 'file' || entry.size < minBytes() || !format.jsonlShape?.(kind)) return undefined;
    const script = workerScript();
    if (!script) return undefined;
    if (!work.validate && !work.secrets) return undefined;
    const o = new RecordOffload(source, script, rel, kind, format.name, maxLineBytes, work);
    source.shareRead(rel, () => o.begin());
    return o;
  }

  /** The loader is about to read the log: start the worker on a new ring (undefined if it cannot start). */
  private begin(): ChunkRing | undefined {
    try {
      const ring = ChunkRing.create();
      const { port1, port2 } = new MessageChannel();
      // A small young generation: the worker's garbage is short-lived parse output, and its peak adds to the process's.
      const worker = new Worker(this.script, {
        workerData: {
          ring: ring.shared,
          file: this.rel,
          kind: this.kind,
          work: this.work,
          format: this.format,
          maxLineBytes: this.maxLineBytes,
          flag: this.flag,
          port: port2,
        },
        transferList: [port2],
        resourceLimits: { maxYoungGenerationSizeMb: 4 },
      });
      // Failures are reported through the flag and the port; an 'error' event must not end the process.
      worker.on('error', () => {});
      worker.unref();
      this.ring = ring;
      this.port = port1;
      this.worker = worker;
      return ring;
    } catch {
      return undefined;
    }
  }

  /**
   * The schema issues and secrets of the log, once the worker is done (blocking), with its hash recorded in the
   * inventory. Undefined when the worker's answer cannot be used (it failed, stalled, or the log was not read
   * through it): the caller then does the work in this thread (`inline`).
   */
  finish(end: FileEndEvent): OffloadFindings | undefined {
    const { worker, port } = this;
    if (!worker || !port) return undefined;
    // A worker that stops making progress for this long (it died, e.g. out of memory, before it could say so) is
    // given up on; the records are then validated here.
    let beat = Atomics.load(this.flag, 1);
    let lastBeat = Date.now();
    let msg: { message: OffloadOutcome & { error?: string } } | undefined;
    while (!(msg = receiveMessageOnPort(port) as typeof msg)) {
      const now = Atomics.load(this.flag, 1);
      if (now !== beat) {
        beat = now;
        lastBeat = Date.now();
      } else if (Date.now() - lastBeat > STALL_MS) break;
      Atomics.wait(this.flag, 0, 0, 200);
      if (Atomics.load(this.flag, 0) === 2) {
        msg = receiveMessageOnPort(port) as typeof msg;
        break;
      }
    }
    this.cancel();
    const out = msg?.message;
    if (!out || out.error !== undefined) return end.stats ? undefined : this.nothing();
    const found = { issues: out.issues, ...(out.secrets ? { secrets: out.secrets } : {}) };
    // The loader's read failed part-way: the worker saw the same chunks, so its findings are those of the records
    // the loader parsed; the file keeps its read error and no hash.
    if (!end.stats) return out.partial ? found : this.nothing();
    const counted = out.selected ? out.lines === end.stats.lines : out.records === end.stats.records;
    if (out.partial || !counted || out.bytes !== end.stats.bytes) return undefined;
    // The worker consumed every byte the loader read, through the ring: its hash is the hash of what was parsed.
    if (!this.source.adoptHash(this.rel, out.sha256, out.size)) return undefined;
    return found;
  }

  private nothing(): OffloadFindings {
    return { issues: [], ...(this.work.secrets ? { secrets: { list: [], more: 0 } } : {}) };
  }

  cancel(): void {
    this.ring?.abandon();
    void this.worker?.terminate();
    this.port?.close();
    this.worker = undefined;
    this.port = undefined;
  }

  /**
   * The same work in this thread, for when the worker's answer cannot be used: over the bytes the loader read and
   * no further (a log still being appended to has grown since), hashing them for the inventory.
   */
  inline(end: FileEndEvent, format: FormatModule): OffloadFindings {
    // The loader's read failed: nothing it parsed is known beyond what it reported.
    if (!end.stats) return this.nothing();
    const shape = format.jsonlShape?.(end.kind);
    const w = recordWork(format, end.file, end.kind, this.work);
    this.source.streamJsonl(
      end.file,
      { maxLineBytes: this.maxLineBytes, ...(shape ? { looksLikeRecord: shape } : {}) },
      w.each,
      () => {},
      end.stats?.bytes,
    );
    w.end();
    return w.found;
  }

  describe(): string {
    return `${this.rel} (${this.kind})`;
  }
}

export { JsonlScanner };
