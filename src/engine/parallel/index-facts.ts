/**
 * The index's captures read in worker threads (engine/index/update.ts): each worker runs `captureFacts` (the
 * capture read from its pieces, audited, its timeline rebuilt) on the captures it is sent, a few ahead of the one
 * this thread inserts, and streams the events back in batches; this thread inserts every row itself, in chain
 * order, exactly as it does when it reads the captures alone, so the index is the same rows either way.
 *
 * This thread waits for a worker synchronously (the inserts are in SQLite transactions): each worker counts what
 * it posted in shared memory and this thread what it took, and a worker more than MAX_QUEUED messages ahead waits,
 * so the memory held in between stays bounded (no long log is held whole; a capture's calls and findings are, as
 * they are when one thread reads). A worker that fails to start, dies, or says nothing for STALL_MS is not used
 * again and what it was given is read here instead: the index never depends on the second thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { packageRoot } from '../../formats/schema-runtime.js';
import type { CaptureRecord } from '../../store/record.js';
import type { TimelineEvent } from '../../timeline/model.js';
import { captureFacts, type CaptureFacts } from '../index/extract.js';

/** What the index keeps of an event (update.ts insertEvent): all a worker sends of it. */
export type IndexedEvent = Pick<
  TimelineEvent,
  | 'file'
  | 'line'
  | 'byteOffset'
  | 'timeMs'
  | 'kind'
  | 'tag'
  | 'toolCallId'
  | 'toolStatus'
  | 'text'
  | 'rewound'
  | 'compacted'
>;

/** Cells per event in a batch: a flat array of plain values is copied between threads 3-4 times faster. */
export const CELLS = 10;

/** An event added to a batch, as its cells (decoded by `eachEvent`). */
export function pushEvent(batch: unknown[], e: TimelineEvent): void {
  batch.push(e.file, e.line, e.byteOffset, e.timeMs, e.kind, e.tag, e.toolCallId ?? null, e.toolStatus ?? null);
  batch.push(e.text, (e.rewound ? 1 : 0) | (e.compacted ? 2 : 0));
}

function eachEvent(batch: readonly unknown[], onEvent: (e: IndexedEvent) => void): void {
  for (let i = 0; i + CELLS <= batch.length; i += CELLS) {
    const callId = batch[i + 6] as string | null;
    const status = batch[i + 7] as string | null;
    const flags = batch[i + 9] as number;
    onEvent({
      file: batch[i] as string,
      line: batch[i + 1] as number,
      byteOffset: batch[i + 2] as number,
      timeMs: batch[i + 3] as number | null,
      kind: batch[i + 4] as IndexedEvent['kind'],
      tag: batch[i + 5] as string,
      ...(callId !== null ? { toolCallId: callId } : {}),
      ...(status !== null ? { toolStatus: status } : {}),
      text: batch[i + 8] as string,
      rewound: (flags & 1) !== 0,
      compacted: (flags & 2) !== 0,
    });
  }
}

/** A worker's messages, in the order of the captures it was sent: events, then the facts or the error. */
export type FactsMessage =
  | { seq: number; events: unknown[] }
  | { seq: number; facts: CaptureFacts | string }
  | { seq: number; error: string };

/** The shared counters of one worker (an Int32Array over a SharedArrayBuffer). */
export const STATE = 0;
export const POSTED = 1;
export const TAKEN = 2;
export const LOADING = 0;
export const READY = 1;
export const GONE = 2;

/** Messages a worker may have posted that this thread has not taken yet (each at most EVENT_BATCH events). */
export const MAX_QUEUED = 16;
/** Events per message (times CELLS values), and the characters of text after which a batch is sent early. */
export const EVENT_BATCH = 256;
export const BATCH_CHARS = 1 << 20;
/** Captures sent to a worker and not yet taken back. */
const AHEAD = 8;
/** Silence after which a worker is given up (a capture's audit sends nothing until its timeline starts). */
const STALL_MS = 30_000;
/** Below these, the workers' start (~0.3 s each, loading the engine) is not repaid: one thread reads. */
const MIN_CAPTURES = 16;
const MIN_BYTES = 4 * 1024 * 1024;

/** Of the last pool's captures: how many a worker read, how many this thread read, and workers lost. */
export const poolStats = { byWorkers: 0, here: 0, lost: 0 };

/** Thrown when a worker is lost half-way through a capture: the savepoint is undone and the capture read here. */
export class WorkerLost extends Error {}

/** The compiled worker script (tests run the TypeScript sources; the worker runs from dist/), if there is one. */
function workerPath(): string | undefined {
  const here = fileURLToPath(new URL('./index-worker.js', import.meta.url));
  if (existsSync(here)) return here;
  const built = join(packageRoot(), 'dist', 'src', 'engine', 'parallel', 'index-worker.js');
  return existsSync(built) ? built : undefined;
}

interface Job {
  worker: Worker;
  port: MessagePort;
  ctl: Int32Array;
  taken: number;
  /** Captures sent and not finished here, in order. */
  queue: number[];
  /** Not to be used (it failed, exited, or was given up); `ended` once its thread is told to stop. */
  lost: boolean;
  ended: boolean;
}

/**
 * How many workers index these captures: none when one thread does as well (few captures or bytes, one core, no
 * core free); SESSION_AUDIT_INDEX_WORKERS sets the number.
 */
export function indexWorkers(captures: readonly CaptureRecord[]): number {
  const env = process.env.SESSION_AUDIT_INDEX_WORKERS;
  if (env !== undefined && env !== '') return Math.max(0, Math.min(8, Math.floor(Number(env)) || 0));
  const cores = availableParallelism();
  if (cores < 2 || captures.length < MIN_CAPTURES) return 0;
  let bytes = 0;
  for (const c of captures) for (const f of c.files) bytes += f.type === 'file' ? f.size : 0;
  if (bytes < MIN_BYTES) return 0;
  // A worker is worth its cost (each thread loads and compiles the engine again: a fifth more CPU in all) only on a
  // core nothing else uses: on a machine already busy (the load average at or above the cores but one) one reads.
  const free = Math.floor(cores - (loadavg()[0] ?? 0));
  return Math.max(0, Math.min(3, cores - 1, free));
}

/**
 * The facts of the captures of `plan` (in the order they will be asked for), read by `count` workers ahead of
 * this thread. `facts` must be asked in the plan's order; a capture it skips is dropped.
 */
export class FactsPool {
  private readonly jobs: Job[] = [];
  private readonly plan: CaptureRecord[];
  /** The first capture of the plan not sent to a worker. */
  private next = 0;
  /**
   * The share of the captures this thread reads itself between its inserts, and what it is owed of them: more
   * when it waited for a worker, fewer when a worker's facts were there before it asked.
   */
  private share = 0.25;
  private credit = 0;
  private waited = false;
  /** Which job each sent capture went to. */
  private readonly sentTo = new Map<number, Job>();
  private readonly stallMs: number;

  private constructor(
    private readonly store: string,
    plan: readonly CaptureRecord[],
    count: number,
  ) {
    this.plan = [...plan];
    this.stallMs = Number(process.env.SESSION_AUDIT_INDEX_STALL_MS ?? STALL_MS);
    const path = workerPath();
    if (path === undefined) return;
    for (let k = 0; k < count; k++) {
      const ctl = new Int32Array(new SharedArrayBuffer(12));
      const { port1, port2 } = new MessageChannel();
      let worker: Worker;
      try {
        worker = new Worker(path, { workerData: { store, ctl, port: port2 }, transferList: [port2] });
      } catch {
        port1.close();
        break;
      }
      const job: Job = { worker, port: port1, ctl, taken: 0, queue: [], lost: false, ended: false };
      // Heard only when this thread's event loop runs (after the index is written): never an unhandled error.
      worker.on('error', () => void (job.lost = true));
      worker.on('exit', () => void (job.lost = true));
      worker.unref();
      this.jobs.push(job);
    }
  }

  /** A pool for `plan`, or undefined when one thread reads as fast (few captures, one core, no worker script). */
  static start(store: string, plan: readonly CaptureRecord[]): FactsPool | undefined {
    const count = indexWorkers(plan);
    if (count === 0) return undefined;
    const pool = new FactsPool(store, plan, count);
    Object.assign(poolStats, { byWorkers: 0, here: 0, lost: 0 });
    // Workers asked for by name (SESSION_AUDIT_INDEX_WORKERS: a test, a bench) are waited for, at most 10 s.
    if (process.env.SESSION_AUDIT_INDEX_WORKERS)
      for (const j of pool.jobs)
        for (let t0 = Date.now(); Atomics.load(j.ctl, STATE) === LOADING && Date.now() - t0 < 10_000; )
          Atomics.wait(j.ctl, STATE, LOADING, 100);
    if (pool.jobs.length) return pool;
    pool.close();
    return undefined;
  }

  /** The facts of `rec`, its events given to `onEvent` as they come (see captureFacts). */
  facts(rec: CaptureRecord, onEvent: (e: IndexedEvent) => void): CaptureFacts | string {
    this.dropBefore(rec.seq);
    let job = this.sentTo.get(rec.seq);
    if (job?.lost) {
      this.lose(job);
      job = undefined;
    }
    if (!job) {
      // Not sent (the workers were still starting, or one was lost): read here, the next ones sent first.
      while (this.next < this.plan.length && this.plan[this.next]!.seq <= rec.seq) this.next++;
      this.topUp();
      poolStats.here++;
      return captureFacts(this.store, rec, onEvent);
    }
    this.topUp();
    let delivered = false;
    this.waited = false;
    for (;;) {
      const m = this.take(job, rec.seq);
      if (m === undefined) {
        // Lost: what it sent of this capture is undone by the caller's savepoint, and the capture read here.
        if (delivered) throw new WorkerLost(`an index worker stopped while reading capture ${rec.seq}`);
        poolStats.here++;
        return captureFacts(this.store, rec, onEvent);
      }
      if ('events' in m) {
        delivered = true;
        eachEvent(m.events, onEvent);
        continue;
      }
      job.queue.shift();
      this.sentTo.delete(rec.seq);
      poolStats.byWorkers++;
      this.share = this.waited ? Math.min(0.75, this.share + 0.02) : Math.max(0, this.share - 0.01);
      if ('error' in m) throw new Error(m.error);
      return m.facts;
    }
  }

  /** End the workers (they are not waited for: the index is written). */
  close(): void {
    for (const j of this.jobs) this.lose(j);
  }

  /** Captures sent ahead that the caller skipped (another run indexed them): their messages taken and dropped. */
  private dropBefore(seq: number): void {
    for (const job of this.jobs) {
      while (!job.lost && job.queue.length && job.queue[0]! < seq) {
        const at = job.queue[0]!;
        const m = this.take(job, at);
        if (m !== undefined && !('events' in m)) {
          job.queue.shift();
          this.sentTo.delete(at);
        }
      }
    }
  }

  /** Send the next captures of the plan to the workers that have started and have room. */
  private topUp(): void {
    for (;;) {
      if (this.next >= this.plan.length) return;
      let best: Job | undefined;
      for (const j of this.jobs)
        if (!j.lost && Atomics.load(j.ctl, STATE) === READY && j.queue.length < AHEAD)
          if (!best || j.queue.length < best.queue.length) best = j;
      if (!best) return;
      const rec = this.plan[this.next++]!;
      this.credit += this.share;
      if (this.credit >= 1) {
        this.credit -= 1;
        continue;
      }
      best.queue.push(rec.seq);
      this.sentTo.set(rec.seq, best);
      best.worker.postMessage(rec);
    }
  }

  /** The worker's next message (about capture `seq`), or undefined once the worker is lost. */
  private take(job: Job, seq: number): FactsMessage | undefined {
    let heard = Date.now();
    let posted = Atomics.load(job.ctl, POSTED);
    for (;;) {
      if (job.lost) return undefined;
      const got = receiveMessageOnPort(job.port);
      if (got) {
        job.taken++;
        Atomics.store(job.ctl, TAKEN, job.taken);
        Atomics.notify(job.ctl, TAKEN);
        const m = got.message as FactsMessage;
        if (m.seq === seq) return m;
        // Never expected (messages come in the order the captures were sent): the worker is not trusted further.
        this.lose(job);
        return undefined;
      }
      const now = Atomics.load(job.ctl, POSTED);
      if (now !== posted) {
        posted = now;
        heard = Date.now();
      } else if (Atomics.load(job.ctl, STATE) === GONE || Date.now() - heard > this.stallMs) {
        this.lose(job);
        return undefined;
      }
      if (now > job.taken) continue;
      // While this one is awaited, the others are kept busy.
      this.topUp();
      this.waited = true;
      Atomics.wait(job.ctl, POSTED, now, 50);
    }
  }

  private lose(job: Job): void {
    job.lost = true;
    if (job.ended) return;
    job.ended = true;
    if (job.queue.length) poolStats.lost++;
    for (const seq of job.queue) this.sentTo.delete(seq);
    job.queue.length = 0;
    job.port.close();
    job.worker.terminate().catch(() => {});
  }
}
