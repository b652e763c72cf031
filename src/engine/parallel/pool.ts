/**
 * `--jobs N`: sessions audited in N threads, this one and N - 1 workers. Each worker audits the sessions it is
 * sent, one at a time, and sends back the plain-data result; results are put back in discovery order, so the
 * report is identical to a one-thread run.
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

/** Sessions sent per message: enough to hide the round trip, few enough to keep both threads busy to the end. */
const batchSize = (total: number, jobs: number): number => Math.max(1, Math.min(64, Math.floor(total / (jobs * 8))));

/** The compiled worker script (tests run the TypeScript sources; the worker always runs from dist/). */
function workerPath(): string {
  const here = fileURLToPath(new URL('./worker.js', import.meta.url));
  if (existsSync(here)) return here;
  const built = join(packageRoot(), 'dist', 'src', 'engine', 'parallel', 'worker.js');
  if (!existsSync(built)) throw new Error(`--jobs needs the compiled worker ${built}: run \`npm run build\``);
  return built;
}

/** Workers that failed or ended before they were used (their events have passed). */
const early = new WeakMap<Worker, string>();

/**
 * Start `count` workers (they load their modules meanwhile: the caller discovers the sessions at the same time).
 * An early failure is kept for `auditInWorkers` to report; `stopWorkers` ends the ones not used.
 */
export function startWorkers(options: AuditOptions, count: number): Worker[] {
  const path = workerPath();
  return Array.from({ length: count }, () => {
    const w = new Worker(path, { workerData: { options } });
    w.on('error', (e) => void early.set(w, early.get(w) ?? e.message));
    w.on('exit', (code) => void early.set(w, early.get(w) ?? `exit code ${code}`));
    return w;
  });
}

export async function stopWorkers(workers: readonly Worker[]): Promise<void> {
  await Promise.all(workers.map((w) => w.terminate()));
}

/** Sessions the main thread audits between two looks at its workers' messages (a few milliseconds of work). */
const LOCAL_BATCH = 4;

/**
 * Audit the sessions with this thread and `workers` (from `startWorkers`, ended here). The main thread audits too
 * (`local`) in small batches, yielding between them so that a worker that finishes a batch is sent the next at
 * once; each worker is kept two batches ahead, so it never waits for this thread. Results in discovery order.
 */
export async function auditInWorkers(
  found: readonly FoundSession[],
  workers: readonly Worker[],
  local: (f: FoundSession) => { result: SessionResult; facts?: LineageFacts },
  progress?: (done: number, total: number) => void,
): Promise<Array<{ result: SessionResult; facts?: LineageFacts }>> {
  const jobs = workers.length + 1;
  const out: Array<{ result: SessionResult; facts?: LineageFacts } | undefined> = new Array(found.length);
  let next = 0;
  let done = 0;
  let failure: Error | undefined;
  const size = batchSize(found.length, jobs);
  try {
    const workersDone = Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolveWorker, reject) => {
            let inFlight = 0;
            const send = (): void => {
              if (next >= found.length) {
                if (inFlight === 0) resolveWorker();
                return;
              }
              const batch = [];
              for (let k = 0; k < size && next < found.length; k++, next++) batch.push({ i: next, found: found[next] });
              inFlight++;
              w.postMessage(batch);
            };
            const fail = (e: Error): void => {
              failure ??= e;
              reject(e);
            };
            w.on('message', (batch: WorkerOut[]) => {
              inFlight--;
              for (const m of batch) {
                if (m.error !== undefined) {
                  fail(new Error(`worker failed on ${found[m.i]?.display ?? m.i}: ${m.error}`));
                  return;
                }
                out[m.i] = m.facts ? { result: m.result!, facts: m.facts } : { result: m.result! };
                progress?.(++done, found.length);
              }
              send();
            });
            w.on('error', fail);
            const gone = early.get(w);
            if (gone !== undefined) {
              fail(new Error(`a worker ended before it audited anything (${gone})`));
              return;
            }
            w.on('exit', (code) => {
              if (inFlight > 0) fail(new Error(`a worker exited (code ${code}) before finishing`));
            });
            send();
            send();
          }),
      ),
    );
    // This thread's share, a few sessions at a time; a worker's failure stops it.
    while (next < found.length && !failure) {
      const end = Math.min(found.length, next + LOCAL_BATCH);
      for (; next < end; next++) {
        out[next] = local(found[next]!);
        progress?.(++done, found.length);
      }
      await new Promise<void>((r) => setImmediate(r));
    }
    await workersDone;
  } finally {
    await stopWorkers(workers);
  }
  return out.map((x) => x!);
}
