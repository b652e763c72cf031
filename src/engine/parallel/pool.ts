/**
 * `--jobs N`: sessions audited in N threads, this one and N - 1 workers. The workers start before discovery and
 * are fed while this thread walks the paths (`offer`): each finished session is counted in shared memory, so this
 * thread, busy walking, still sees how far each worker is and keeps it two batches ahead. Once discovery is done
 * this thread audits too (`finish`); results are put back in discovery order, so the report is identical to a
 * one-thread run.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AuditOptions } from '../audit-session.js';
import type { SessionResult } from '../report.js';
import { packageRoot } from '../../formats/schema-runtime.js';
import type { LineageFacts } from '../../lineage/facts.js';
import type { FoundSession } from '../../model/found.js';

export interface WorkerOut {
  i: number;
  result?: SessionResult;
  facts?: LineageFacts;
  error?: string;
}

export type Audited = { result: SessionResult; facts?: LineageFacts };

/** Sessions sent per message: enough to hide the round trip, few enough to keep both threads busy to the end. */
const batchSize = (total: number, jobs: number): number => Math.max(1, Math.min(64, Math.floor(total / (jobs * 8))));
/** Sessions per message while discovery runs (the total is not known yet). */
const DISCOVERY_BATCH = 16;

/** The compiled worker script (tests run the TypeScript sources; the worker always runs from dist/). */
function workerPath(): string {
  const here = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(here)) return here;
  const built = join(packageRoot(), 'dist', 'src', 'engine', 'parallel', 'worker.js');
  if (!existsSync(built)) throw new Error(`--jobs needs the compiled worker ${built}: run \`npm run build\``);
  return built;
}

interface Job {
  worker: Worker;
  /** [0]: sessions this worker has finished (it adds each batch's count before answering). */
  done: Int32Array;
  sent: number;
  /** Batches posted and not yet answered (seen through messages, once the event loop runs). */
  inFlight: number;
  /** Why it ended, if it failed or exited before it was used. */
  early?: string;
  /** What `finish` does when a batch comes back (until then results are only stored). */
  answered?: () => void;
}

/** Sessions the main thread audits between two looks at its workers' messages (a few milliseconds of work). */
const LOCAL_BATCH = 4;

/**
 * Sessions audited by this thread and N - 1 workers, in the order they are offered (`offer` during discovery,
 * `finish` for the rest and the results).
 */
export class AuditPool {
  private readonly jobs: Job[];
  private readonly queue: FoundSession[] = [];
  private readonly out: Array<Audited | undefined> = [];
  /** The next queued session not yet given to a thread. */
  private next = 0;
  private finished = 0;
  private failure: Error | undefined;
  private progress: ((done: number, total: number) => void) | undefined;

  /** Start `count` workers: they load their modules while the caller discovers the sessions. */
  constructor(options: AuditOptions, count: number) {
    const path = workerPath();
    this.jobs = Array.from({ length: count }, () => {
      const done = new Int32Array(new SharedArrayBuffer(4));
      const worker = new Worker(path, { workerData: { options, done } });
      const job: Job = { worker, done, sent: 0, inFlight: 0 };
      worker.on('error', (e) => void (job.early ??= e.message));
      worker.on('exit', (code) => void (job.early ??= `exit code ${code}`));
      // Listening from the start: a batch sent during discovery may be answered before `finish` is called.
      worker.on('message', (batch: WorkerOut[]) => this.answer(job, batch));
      return job;
    });
  }

  /** A session found: queued, and sent to a worker at once if it has less than two batches of work left. */
  offer(found: FoundSession): void {
    this.queue.push(found);
    for (const job of this.jobs) {
      if (this.queue.length - this.next < DISCOVERY_BATCH) return;
      if (job.early === undefined && job.sent - Atomics.load(job.done, 0) < 2 * DISCOVERY_BATCH)
        this.post(job, DISCOVERY_BATCH);
    }
  }

  private answer(job: Job, batch: WorkerOut[]): void {
    job.inFlight--;
    for (const m of batch) {
      if (m.error !== undefined) {
        this.failure ??= new Error(`worker failed on ${this.queue[m.i]?.display ?? m.i}: ${m.error}`);
        break;
      }
      this.out[m.i] = m.facts ? { result: m.result!, facts: m.facts } : { result: m.result! };
      this.progress?.(++this.finished, this.queue.length);
    }
    job.answered?.();
  }

  private post(job: Job, size: number): void {
    const batch = [];
    for (let k = 0; k < size && this.next < this.queue.length; k++, this.next++)
      batch.push({ i: this.next, found: this.queue[this.next] });
    job.sent += batch.length;
    job.inFlight++;
    job.worker.postMessage(batch);
  }

  async stop(): Promise<void> {
    await Promise.all(this.jobs.map((j) => j.worker.terminate()));
  }

  /**
   * Audit `found` (the sessions discovery settled on, in report order; the ones not offered are queued now) with
   * this thread (`local`, in small batches, yielding so that a worker that answers is sent its next batch at once)
   * and the workers, which are ended here. Results in the order of `found`.
   */
  async finish(
    found: readonly FoundSession[],
    local: (f: FoundSession) => Audited,
    progress?: (done: number, total: number) => void,
  ): Promise<Audited[]> {
    const at = new Map<FoundSession, number>(this.queue.map((f, i) => [f, i]));
    for (const f of found) {
      if (at.has(f)) continue;
      at.set(f, this.queue.length);
      this.queue.push(f);
    }
    const total = this.queue.length;
    const size = batchSize(total, this.jobs.length + 1);
    this.progress = progress;
    // Workers that were never sent anything are not needed when there are fewer sessions than threads.
    const idle = this.jobs.filter((j, n) => j.sent === 0 && n >= total - 1);
    const busy = this.jobs.filter((j) => !idle.includes(j));
    try {
      await Promise.all(idle.map((j) => j.worker.terminate()));
      const workersDone = Promise.all(
        busy.map(
          (job) =>
            new Promise<void>((resolveWorker, reject) => {
              const fail = (e: Error): void => {
                this.failure ??= e;
                reject(this.failure);
              };
              const send = (): void => {
                if (this.failure) fail(this.failure);
                else if (this.next < total) this.post(job, size);
                else if (job.inFlight === 0) resolveWorker();
              };
              job.answered = send;
              job.worker.on('error', fail);
              if (job.early !== undefined) {
                fail(new Error(`a worker ended before it audited anything (${job.early})`));
                return;
              }
              job.worker.on('exit', (code) => {
                if (job.inFlight > 0) fail(new Error(`a worker exited (code ${code}) before finishing`));
              });
              // Two batches ahead: what discovery sent counts.
              for (let b = job.inFlight; b < 2; b++) send();
              if (job.inFlight === 0) resolveWorker();
            }),
        ),
      );
      // Awaited below, once this thread's share is done: a failure meanwhile must not count as unhandled.
      workersDone.catch(() => {});
      // This thread's share, a few sessions at a time; a worker's failure stops it.
      while (this.next < total && !this.failure) {
        const end = Math.min(total, this.next + LOCAL_BATCH);
        for (; this.next < end; this.next++) {
          this.out[this.next] = local(this.queue[this.next]!);
          progress?.(++this.finished, total);
        }
        await new Promise<void>((r) => setImmediate(r));
      }
      await workersDone;
      if (this.failure) throw this.failure;
    } finally {
      await this.stop();
    }
    return found.map((f) => this.out[at.get(f)!]!);
  }
}
