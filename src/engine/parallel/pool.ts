/**
 * `--jobs N`: sessions audited in worker threads. Each worker audits the sessions it is sent, one at a time,
 * and sends back the plain-data result; results are put back in discovery order, so the report is identical
 * to a one-thread run.
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

export async function auditInWorkers(
  found: readonly FoundSession[],
  options: AuditOptions,
  jobs: number,
  progress?: (done: number, total: number) => void,
): Promise<Array<{ result: SessionResult; facts?: LineageFacts }>> {
  const path = workerPath();
  const out: Array<{ result: SessionResult; facts?: LineageFacts } | undefined> = new Array(found.length);
  let next = 0;
  let done = 0;
  const workers = Array.from({ length: jobs }, () => new Worker(path, { workerData: { options } }));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolveWorker, reject) => {
            const size = batchSize(found.length, jobs);
            const send = (): void => {
              if (next >= found.length) {
                resolveWorker();
                return;
              }
              const batch = [];
              for (let k = 0; k < size && next < found.length; k++, next++) batch.push({ i: next, found: found[next] });
              w.postMessage(batch);
            };
            w.on('message', (batch: WorkerOut[]) => {
              for (const m of batch) {
                if (m.error !== undefined) {
                  reject(new Error(`worker failed on ${found[m.i]?.display ?? m.i}: ${m.error}`));
                  return;
                }
                out[m.i] = m.facts ? { result: m.result!, facts: m.facts } : { result: m.result! };
                progress?.(++done, found.length);
              }
              send();
            });
            w.on('error', reject);
            w.on('exit', (code) => {
              if (next < found.length || out.some((x, k) => x === undefined && k < next))
                reject(new Error(`a worker exited (code ${code}) before finishing`));
            });
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return out.map((x) => x!);
}
