/** A worker thread of `--jobs N`: audits the sessions it is sent (see pool.ts), counting them in shared memory. */
import { parentPort, workerData } from 'node:worker_threads';
import type { AuditOptions } from '../audit-session.js';
import type { FoundSession } from '../../model/found.js';
import { auditOne } from '../tree.js';
import type { WorkerOut } from './pool.js';

const { options, done } = workerData as { options: AuditOptions; done: Int32Array };
parentPort!.on('message', (batch: Array<{ i: number; found: FoundSession }>) => {
  const out: WorkerOut[] = batch.map((m) => {
    try {
      const r = auditOne(m.found, options);
      return r.facts ? { i: m.i, result: r.result, facts: r.facts } : { i: m.i, result: r.result };
    } catch (e) {
      return { i: m.i, error: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) };
    }
  });
  Atomics.add(done, 0, batch.length);
  parentPort!.postMessage(out);
});
