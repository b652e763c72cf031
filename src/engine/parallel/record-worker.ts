/**
 * Entry of the second thread of record-offload.ts. It loads the work (record-worker-run.ts: the validators and
 * the formats) and, if that fails, says so at once on the ring, the flag and the port, so the loader neither waits
 * for it nor stalls.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { ChunkRing } from '../../read/chunk-ring.js';

const { ring, flag, port } = workerData as { ring: SharedArrayBuffer; flag: Int32Array; port: MessagePort };
try {
  await import('./record-worker-run.js');
} catch (e) {
  ChunkRing.attach(ring).leave();
  port.postMessage({
    records: -1,
    bytes: -1,
    issues: [],
    error: `the schema worker could not start: ${e instanceof Error ? e.message : String(e)}`,
  });
  Atomics.store(flag, 0, 2);
  Atomics.notify(flag, 0);
}
